/**
 * Editor sign-in (spec §4 Editor, §5, §7 `POST /api/editor-area-autentication`): the password is
 * checked against the configured scrypt hash (EDITOR_PASSWORD_HASH) in constant time; failed
 * attempts are limited per client; the session cookie holds the HMAC of the configured hash
 * (session.server.ts), so a changed password ends every session. Used by the JSON API and by the
 * sign-in form of /{locale}/editor (which works without JavaScript).
 */
import type { APIContext, APIRoute } from 'astro';
import * as v from 'valibot';
import { verifyPassword } from '../../lib/crypto/password.ts';
import { FORM_TYPE, JSON_TYPE, readJsonBody, readUrlEncodedBody } from '../../lib/http/body.ts';
import { endpoint, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { json } from '../../lib/http/json.ts';
import { clientKey, rateLimiter, type RateLimiter } from '../../lib/http/rate-limit.ts';
import { apiContext } from '../platform/context.ts';
import { editorCookieHeader, editorSessionValue, isEditorRequest, isEditorSession } from './session.server.ts';

/** Failed sign-ins allowed per client and minute; the next one is answered 429 until the minute is over. */
export const SIGN_IN_LIMIT = { limit: 5, windowMs: 60_000 } as const;
/** The largest sign-in body read (JSON or form). */
export const SIGN_IN_BODY_LIMIT = 4 * 1024;
/** A password longer than this is refused before hashing (scrypt cost is per byte of input only marginally, but bounded input is cheap insurance). */
export const PASSWORD_MAX_LENGTH = 1024;

export const CLOSED_MESSAGE = 'The editor area is not configured on this server (EDITOR_PASSWORD_HASH is not set).';
export const REQUIRED_MESSAGE = 'A non-empty password is required.';
export const SESSION_REQUIRED_MESSAGE = 'This needs an editor session: sign in at /{locale}/editor first.';
export const rateLimitedMessage = (seconds: number) => `Too many failed sign-in attempts. Try again in ${seconds} seconds.`;

export type SignInOutcome =
  | { kind: 'ok'; sessionValue: string }
  | { kind: 'empty' }
  | { kind: 'wrong' }
  | { kind: 'limited'; retryAfterSeconds: number }
  | { kind: 'closed' };

/** The limiter of this process (shared by the API and the form). */
export const signInLimiter: RateLimiter = rateLimiter(SIGN_IN_LIMIT);

/**
 * Checks an editor password. Every attempt of a client counts against its limit and a success
 * clears it, so only consecutive failures add up; an empty password is refused before that.
 */
export async function checkEditorPassword(input: string, configuredHash: string | undefined, client: string, limiter: RateLimiter = signInLimiter): Promise<SignInOutcome> {
  if (!configuredHash) return { kind: 'closed' };
  if (input.length === 0) return { kind: 'empty' };
  const hit = limiter.hit(client);
  if (!hit.allowed) return { kind: 'limited', retryAfterSeconds: hit.retryAfterSeconds };
  // Over-long input is simply wrong (and counted), without spending a hash on it.
  if (input.length > PASSWORD_MAX_LENGTH || !(await verifyPassword(input, configuredHash))) return { kind: 'wrong' };
  limiter.reset(client);
  return { kind: 'ok', sessionValue: editorSessionValue(configuredHash) };
}

const SignInBodySchema = v.union([
  v.strictObject({ input: v.string('input must be a string') }),
  v.strictObject({ hash: v.pipe(v.string('hash must be a string'), v.maxLength(256, 'hash is too long')) }),
], 'the body must be {"input": "<password>"} or {"hash": "<hashedPassword>"}');

/** The answer to a refused editor request: 401, or 503 when the editor area is closed. */
export function editorRequired(): Response {
  return json({ success: false, error: 'editor-session-required', message: SESSION_REQUIRED_MESSAGE }, 401);
}

/** Null when the request carries a valid editor session (re-checked against the hash configured now), else the answer to send. */
export function requireEditor(context: Pick<APIContext, 'request' | 'locals'>): Response | null {
  const hash = apiContext(context.locals).services.editorPasswordHash;
  if (!hash) return json({ success: false, error: 'editor-area-closed', message: CLOSED_MESSAGE }, 503);
  return isEditorRequest(context.request, hash) ? null : editorRequired();
}

/** The API handlers; `limiter` for tests. */
export function editorAuthHandlers(limiter: RateLimiter = signInLimiter) {
  /** POST /api/editor-area-autentication: `{input}` → `{success, hashedPassword}` + cookie; `{hash}` → `{success}`. */
  const signIn: APIRoute = async (context) => {
    const hash = apiContext(context.locals).services.editorPasswordHash;
    if (!hash) return json({ success: false, error: 'editor-area-closed', message: CLOSED_MESSAGE }, 503);
    const body = await readJsonBody(context.request, SIGN_IN_BODY_LIMIT);
    if (body.kind === 'unsupported') return json({ success: false, error: 'unsupported-media-type', message: 'Send the body as application/json.' }, 415);
    if (body.kind === 'too-large') return json({ success: false, error: 'too-large', message: `The body may have at most ${SIGN_IN_BODY_LIMIT} bytes.` }, 413);
    if (body.kind === 'malformed') return json({ success: false, error: 'malformed', message: 'The body is not valid JSON.' }, 400);
    const parsed = v.safeParse(SignInBodySchema, body.value);
    if (!parsed.success) return json({ success: false, error: 'invalid-body', message: parsed.issues[0].message }, 400);
    const cookie = (value: string) => editorCookieHeader(value, context.url);
    if ('hash' in parsed.output) {
      // A re-check of a session value (not a password: nothing to rate-limit, it is 256 random-looking bits).
      if (!isEditorSession(parsed.output.hash, hash)) return json({ success: false }, 401);
      const res = json({ success: true });
      res.headers.append('Set-Cookie', cookie(parsed.output.hash));
      return res;
    }
    const outcome = await checkEditorPassword(parsed.output.input, hash, clientKey(context), limiter);
    switch (outcome.kind) {
      case 'empty': return json({ success: false, error: 'password-required', message: REQUIRED_MESSAGE }, 400);
      case 'limited': {
        const res = json({ success: false, error: 'rate-limited', message: rateLimitedMessage(outcome.retryAfterSeconds) }, 429);
        res.headers.set('Retry-After', String(outcome.retryAfterSeconds));
        return res;
      }
      case 'wrong': return json({ success: false }, 401);
      case 'closed': return json({ success: false, error: 'editor-area-closed', message: CLOSED_MESSAGE }, 503);
      case 'ok': {
        const res = json({ success: true, hashedPassword: outcome.sessionValue });
        res.headers.append('Set-Cookie', cookie(outcome.sessionValue));
        return res;
      }
    }
  };

  /**
   * POST /api/editor-area-autentication/logout: clears the editor cookie. A form post (the logout
   * button of the editor area, no JavaScript needed) is sent back to the sign-in page of its locale.
   */
  const logout: APIRoute = async (context) => {
    const clear = editorCookieHeader('', context.url, 0);
    const type = context.request.headers.get('content-type') ?? '';
    if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
      const body = await readUrlEncodedBody(context.request, SIGN_IN_BODY_LIMIT);
      if (body.kind === 'too-large') return json({ success: false, error: 'too-large', message: `The body may have at most ${SIGN_IN_BODY_LIMIT} bytes.` }, 413);
      const locale = body.kind === 'ok' ? body.value.get('locale') ?? '' : '';
      const target = `/${/^[a-z]{2}(?:-[a-z]{2})?$/.test(locale) ? locale : 'en'}/editor`;
      return new Response(null, { status: 303, headers: { Location: target, 'Set-Cookie': clear, 'Cache-Control': 'no-store' } });
    }
    const res = json({ success: true });
    res.headers.append('Set-Cookie', clear);
    return res;
  };

  return { signIn, logout };
}

/** A url-encoded form body of at most `maxBytes`; null when it is larger or not a form. */
export async function readFormBody(request: Request, maxBytes: number): Promise<URLSearchParams | null> {
  const body = await readUrlEncodedBody(request, maxBytes);
  return body.kind === 'ok' ? body.value : null;
}

/** Sign-in: JSON of at most 4 KiB; 5 failed attempts per client and minute (the handler counts only failures). */
export const SIGN_IN_LIMITS: EndpointLimits = {
  body: { maxBytes: SIGN_IN_BODY_LIMIT, types: [JSON_TYPE] },
  rateLimit: { ...SIGN_IN_LIMIT, appliedBy: 'handler' },
  answerFields: { success: false },
};
/** Logout: a form post (or JSON, or nothing) of at most 4 KiB; 30 per client and minute. */
export const LOGOUT_LIMITS: EndpointLimits = {
  body: { maxBytes: SIGN_IN_BODY_LIMIT, types: [FORM_TYPE, JSON_TYPE] },
  rateLimit: { limit: 30, windowMs: 60_000 },
  answerFields: { success: false },
};

const handlers = editorAuthHandlers();
export const signIn = endpoint(SIGN_IN_LIMITS, handlers.signIn);
export const logout = endpoint(LOGOUT_LIMITS, handlers.logout);
