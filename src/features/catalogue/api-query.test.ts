import { describe, expect, it } from 'vitest';
import { parseCatalogueQuery } from './api-query.ts';

const q = (s: string) => parseCatalogueQuery(new URLSearchParams(s));

describe('catalogue API query', () => {
  it('takes a language and a comma-separated slug list (deduplicated)', () => {
    expect(q('language=de&slugs=kappa-310, alpha-550,kappa-310')).toEqual({ ok: true, value: { language: 'de', slugs: ['kappa-310', 'alpha-550'] } });
  });

  it.each([
    ['', /language must be one of en, cs, de/],
    ['language=xx&slugs=a', /language must be one of/],
    ['language=en', /slugs is required/],
    ['language=en&slugs=,,', /slugs must name at least one product/],
    ['language=en&slugs=Kappa_310', /slugs are lowercase kebab-case/],
    [`language=en&slugs=${Array.from({ length: 101 }, (_, i) => `p-${i}`).join(',')}`, /at most 100 products/],
  ])('rejects %s with a clear message', (query, message) => {
    const result = q(query);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});
