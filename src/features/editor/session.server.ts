/**
 * The editor session (spec §4 Editor): after the editor-area password was accepted, the browser
 * holds an HttpOnly cookie for 90 days whose value is derived from the configured password hash,
 * so it is re-checked on every editor request and stops working when the password changes. The
 * value is an HMAC of the hash, never the hash itself (which would allow an offline guess).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const EDITOR_COOKIE = 'kmx_editor';
/** Spec §9: the editor password cookie lasts 90 days. */
export const EDITOR_COOKIE_MAX_AGE = 90 * 24 * 60 * 60;

/** The session value for the configured hash (the `hashedPassword` of the spec's sign-in answer). */
export function editorSessionValue(passwordHash: string): string {
  return createHmac('sha256', passwordHash).update('kmx-editor-session/v1').digest('base64url');
}

/** Whether `given` is the session value of the configured hash; false when the editor area is closed. */
export function isEditorSession(given: string | undefined | null, passwordHash: string | undefined): boolean {
  if (!given || !passwordHash || given.length > 256) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(editorSessionValue(passwordHash));
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The value of one cookie in a Cookie header. */
function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(/;\s*/)) if (part.startsWith(`${name}=`)) return part.slice(name.length + 1);
  return undefined;
}

/** Whether a request carries a valid editor session (checked against the hash configured now). */
export function isEditorRequest(request: Request, passwordHash: string | undefined): boolean {
  return isEditorSession(cookieValue(request.headers.get('cookie'), EDITOR_COOKIE), passwordHash);
}

/** The Set-Cookie header that stores the session (`Secure` unless served from localhost), or clears it with `maxAge` 0. */
export function editorCookieHeader(value: string, url: URL, maxAge = EDITOR_COOKIE_MAX_AGE): string {
  const local = url.hostname === 'localhost' || url.hostname.endsWith('.localhost') || url.hostname === '127.0.0.1';
  return `${EDITOR_COOKIE}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${local ? '' : '; Secure'}`;
}
