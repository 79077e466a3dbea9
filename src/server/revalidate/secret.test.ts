import { describe, expect, it } from 'vitest';
import { hasRevalidateSecret } from './secret.ts';

const secret = 'a-revalidate-secret-0123';

describe('the revalidation secret of a request', () => {
  it('is read from x-revalidate-secret or Authorization: Bearer, in Fetch and Node headers', () => {
    expect(hasRevalidateSecret(new Headers({ 'x-revalidate-secret': secret }), secret)).toBe(true);
    expect(hasRevalidateSecret(new Headers({ authorization: `Bearer ${secret}` }), secret)).toBe(true);
    expect(hasRevalidateSecret({ 'x-revalidate-secret': secret }, secret)).toBe(true);
    expect(hasRevalidateSecret({ authorization: `bearer ${secret}` }, secret)).toBe(true);
  });

  it('is refused when missing, wrong, or when no secret is configured', () => {
    expect(hasRevalidateSecret(new Headers(), secret)).toBe(false);
    expect(hasRevalidateSecret({ 'x-revalidate-secret': `${secret}x` }, secret)).toBe(false);
    expect(hasRevalidateSecret({ authorization: 'Bearer nope' }, secret)).toBe(false);
    expect(hasRevalidateSecret({ 'x-revalidate-secret': '' }, undefined)).toBe(false);
    expect(hasRevalidateSecret({ 'x-revalidate-secret': secret }, undefined)).toBe(false);
  });
});
