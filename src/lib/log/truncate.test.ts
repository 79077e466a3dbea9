import { describe, expect, it } from 'vitest';
import { truncateVariables } from './truncate.ts';

describe('truncateVariables', () => {
  it('prints short variables whole', () => {
    expect(truncateVariables({ id: 'abc' })).toBe('{"id":"abc"}');
    expect(truncateVariables(undefined)).toBe('{}');
  });

  it('keeps only the first 50 characters of long variables', () => {
    const variables = { slug: 'x'.repeat(200), locale: 'de-CH' };
    const json = JSON.stringify(variables);
    const out = truncateVariables(variables);
    expect(out.startsWith(json.slice(0, 50))).toBe(true);
    expect(out).not.toContain(json.slice(0, 51));
    expect(out).not.toContain('de-CH');
    expect(out.length).toBeLessThanOrEqual(51);
  });

  it('does not truncate at exactly 50 characters', () => {
    const variables = { s: 'y'.repeat(50 - '{"s":""}'.length) };
    expect(JSON.stringify(variables)).toHaveLength(50);
    expect(truncateVariables(variables)).toBe(JSON.stringify(variables));
  });

  it('censors sensitive variables before cutting, so no part of one is logged', () => {
    const out = truncateVariables({ email: 'a@b.ch', password: 'hunter2-hunter2', input: { token: 'tok-123456' } });
    expect(out).not.toContain('hunter2');
    expect(out).not.toContain('tok-1');
    expect(out).toContain('"password":"[redacted]"');
  });
});
