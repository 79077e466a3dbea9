/**
 * Small signed, expiring values for cookies (editor session, protected-page grants): a JSON
 * payload plus its expiry, base64url, and an HMAC-SHA256 over both. Not encrypted: put nothing
 * secret in the payload. Verification is constant time and refuses expired or altered values.
 * @example const v = signValue({ page: 'p1' }, secret, 3600); readSignedValue(v, secret) // { page: 'p1' }
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const mac = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('base64url');

/** `payload` signed with `secret`, valid for `ttlSeconds` from `now` (ms). */
export function signValue(payload: Record<string, unknown>, secret: string, ttlSeconds: number, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ ...payload, exp: Math.floor(now / 1000) + ttlSeconds })).toString('base64url');
  return `${body}.${mac(body, secret)}`;
}

/** The payload (with `exp`, seconds) of a value signed with `secret` and not expired at `now`; else null. */
export function readSignedValue(value: string | undefined | null, secret: string, now = Date.now()): (Record<string, unknown> & { exp: number }) | null {
  if (!value || value.length > 4096) return null;
  const dot = value.indexOf('.');
  if (dot <= 0) return null;
  const body = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), 'base64url');
  const expected = Buffer.from(mac(body, secret), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
    const exp = (payload as { exp?: unknown }).exp;
    if (typeof exp !== 'number' || exp * 1000 <= now) return null;
    return payload as Record<string, unknown> & { exp: number };
  } catch {
    return null;
  }
}
