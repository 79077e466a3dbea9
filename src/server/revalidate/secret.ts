import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The revalidation secret a request carries: `Authorization: Bearer …` or `x-revalidate-secret`. */
export function givenSecret(headers: Headers | IncomingHttpHeaders): string | undefined {
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  return get('authorization')?.replace(/^Bearer\s+/i, '') ?? get('x-revalidate-secret');
}

/** Compares in constant time; false when no secret is configured. */
export function secretMatches(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether a request may use the operator parameters (`?cache=false`, `?cache=clear`): it carries
 * the revalidation secret, in the same headers as POST /api/revalidate.
 */
export function hasRevalidateSecret(headers: Headers | IncomingHttpHeaders, expected: string | undefined): boolean {
  return secretMatches(givenSecret(headers), expected);
}
