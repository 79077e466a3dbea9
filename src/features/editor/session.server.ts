/**
 * The editor session (spec §4 Editor, §9: the editor cookie lasts 90 days and is re-checked).
 * Each accepted password makes a session of its own: a random id (`sid`) and the issue time
 * (`iat`), with its expiry at most 90 days later (`exp`), signed with HMAC-SHA256
 * (src/lib/crypto/signed.ts) under a key derived from the configured password hash, so a changed
 * password ends every session and no secret beyond the hash is needed. The value is signed, not
 * encrypted: it holds nothing secret. Every editor request checks signature, expiry and lifetime,
 * and asks the shared state whether the session was revoked (logout), so a logout on one instance
 * holds on every instance that shares the state (src/lib/shared-state/). Rules in docs/operations.md.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';
import { readSignedValue, signValue } from '../../lib/crypto/signed.ts';
import type { SharedState } from '../../lib/shared-state/index.ts';

export const EDITOR_COOKIE = 'kmx_editor';
/** Spec §9: the editor password cookie lasts 90 days; no session lives longer. */
export const EDITOR_COOKIE_MAX_AGE = 90 * 24 * 60 * 60;
/** How far an issue time may lie ahead of this instance's clock (clocks of instances differ a little). */
const CLOCK_SKEW_SECONDS = 60;

const PURPOSE = 'editor-session';
const keyOf = (passwordHash: string) => createHmac('sha256', passwordHash).update('kmx-editor-session/v2').digest('base64url');

/** A session: its random id, issue time and expiry (seconds since the epoch). */
export interface EditorSession {
  sid: string;
  iat: number;
  exp: number;
}

const Seconds = v.pipe(v.number(), v.integer(), v.minValue(0));
/** 128 random bits, base64url. */
export const SessionIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22}$/));
const SessionPayload = v.object({ purpose: v.literal(PURPOSE), sid: SessionIdSchema, iat: Seconds, exp: Seconds });

/** Whether a session's times are plausible at `now` (ms): issued, not expired, and never longer than 90 days. */
export function isLiveSession(s: EditorSession, now = Date.now()): boolean {
  const nowSeconds = Math.floor(now / 1000);
  return s.iat <= nowSeconds + CLOCK_SKEW_SECONDS && s.exp > nowSeconds && s.exp - s.iat <= EDITOR_COOKIE_MAX_AGE;
}

/** The cookie value of `session` (the same session re-signed, e.g. for another host after a handoff). */
export function editorSessionValue(passwordHash: string, session: EditorSession, now = Date.now()): string {
  return signValue({ purpose: PURPOSE, sid: session.sid, iat: session.iat }, keyOf(passwordHash), session.exp - Math.floor(now / 1000), now);
}

/** A new session of 90 days from `now` (the `hashedPassword` of the spec's sign-in answer and the cookie value). */
export function newEditorSession(passwordHash: string, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  return editorSessionValue(passwordHash, { sid: randomBytes(16).toString('base64url'), iat, exp: iat + EDITOR_COOKIE_MAX_AGE }, now);
}

/** The session a value holds when it is signed under the configured hash and live at `now`; null otherwise (revocation not checked). */
export function readEditorSession(value: string | undefined | null, passwordHash: string | undefined, now = Date.now()): EditorSession | null {
  if (!value || !passwordHash || value.length > 512) return null;
  const payload = v.safeParse(SessionPayload, readSignedValue(value, keyOf(passwordHash), now));
  if (!payload.success) return null;
  const { sid, iat, exp } = payload.output;
  // The signature covers the encoded payload; a value re-encoded differently is not the one issued.
  if (!sameString(value, editorSessionValue(passwordHash, { sid, iat, exp }, now))) return null;
  return isLiveSession({ sid, iat, exp }, now) ? { sid, iat, exp } : null;
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const revokedKey = (sid: string) => `editor-session:revoked:${sid}`;

/**
 * The session of `value` when it is valid (see {@link readEditorSession}) and not revoked; null
 * otherwise. Rejects with a SharedStateError when the revocations cannot be asked: never a session
 * then (fail closed). Editor endpoints answer it with 503 (auth.server.ts `sessionStoreDown`),
 * pages with the 503 error page (the error carries `unavailable`).
 */
export async function editorSession(value: string | undefined | null, passwordHash: string | undefined, state: SharedState, now = Date.now()): Promise<EditorSession | null> {
  const session = readEditorSession(value, passwordHash, now);
  if (!session) return null;
  return (await state.has(revokedKey(session.sid))) ? null : session;
}

/**
 * Revokes a session on every instance sharing `state`: the revocation is kept until the session
 * would have expired anyway, and no longer. Rejects (SharedStateError) when it cannot be recorded.
 */
export async function revokeEditorSession(session: EditorSession, state: SharedState): Promise<void> {
  await state.claim(revokedKey(session.sid), session.exp * 1000);
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(/;\s*/)) if (part.startsWith(`${name}=`)) return part.slice(name.length + 1);
  return undefined;
}

/** The editor cookie's value in a request, unchecked. */
export const editorCookieOf = (request: Request): string | undefined => cookieValue(request.headers.get('cookie'), EDITOR_COOKIE);

/** The live, unrevoked session a request's editor cookie holds (re-checked on every call), or null. */
export function editorSessionOf(request: Request, passwordHash: string | undefined, state: SharedState, now = Date.now()): Promise<EditorSession | null> {
  return editorSession(editorCookieOf(request), passwordHash, state, now);
}

/** Whether a request carries a valid editor session (checked against the hash configured now and the revocations). */
export async function isEditorRequest(request: Request, passwordHash: string | undefined, state: SharedState, now = Date.now()): Promise<boolean> {
  return (await editorSessionOf(request, passwordHash, state, now)) !== null;
}

/** Seconds until `session` expires: the Max-Age of a cookie that holds it. */
export const secondsLeft = (session: EditorSession, now = Date.now()): number => Math.max(0, session.exp - Math.floor(now / 1000));

/** The Set-Cookie header that stores the session (`Secure` unless served from localhost), or clears it with `maxAge` 0. */
export function editorCookieHeader(value: string, url: URL, maxAge = EDITOR_COOKIE_MAX_AGE): string {
  const local = url.hostname === 'localhost' || url.hostname.endsWith('.localhost') || url.hostname === '127.0.0.1';
  return `${EDITOR_COOKIE}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${local ? '' : '; Secure'}`;
}
