/**
 * The `secret` auth option of `endpoint()`: the caller proves a shared secret (a webhook's), sent as
 * `Authorization: Bearer …` or in a header of its own, compared in constant time. No secret
 * configured: every call is refused (503, the endpoint is off), never let through.
 * @example endpoint(LIMITS, { auth: requireSecret(() => process.env.HOOK_SECRET, 'x-hook-secret') }, () => …)
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Guard } from './input.ts';
import { json } from './json.ts';

/** The secret a request carries: the bearer token, else the endpoint's own header. */
export function givenSecret(headers: Headers | IncomingHttpHeaders, header?: string): string | undefined {
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const bearer = /^Bearer\s+(.+)$/i.exec(get('authorization') ?? '')?.[1];
  return bearer ?? (header ? get(header) : undefined);
}

/** Constant time for equal lengths; false when either is missing. */
export function secretMatches(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A guard passing only callers that send `expected()` (read per request: a rotated secret counts at once). */
export function requireSecret<C extends { request: Request }>(
  expected: (context: C) => string | undefined,
  header?: string,
  /** The endpoint's own wording of the 503 (no secret configured: e.g. naming the variable to set) and of the 401. */
  messages: { unconfigured?: string; wrong?: string } = {},
): Guard<true, C> {
  const { unconfigured = 'This endpoint is not configured on this server.', wrong = 'Missing or wrong secret.' } = messages;
  return async (context) => {
    const secret = expected(context);
    if (!secret) return json({ error: 'unavailable', message: unconfigured }, 503);
    if (secretMatches(givenSecret(context.request.headers, header), secret)) return true;
    const res = json({ error: 'unauthorized', message: wrong }, 401);
    res.headers.set('WWW-Authenticate', 'Bearer');
    return res;
  };
}
