/**
 * Editor sign-in (spec §4 Editor, §5, §7 `POST /api/editor-area-autentication`): the password is
 * checked against the configured scrypt hash (EDITOR_PASSWORD_HASH) in constant time; failed
 * attempts are limited per client; each success starts a session of its own (session.server.ts),
 * which logout revokes. Endpoints that change state refuse cross-site requests. Used by the JSON
 * API and by the sign-in form of /{locale}/editor (which works without JavaScript).
 */
import type { APIContext, APIRoute } from 'astro';
import * as v from 'valibot';
import { verifyPassword } from '../../lib/crypto/password.ts';
import { FORM_TYPE, JSON_TYPE, readJsonBody, readUrlEncodedBody } from '../../lib/http/body.ts';
import { endpoint, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { json } from '../../lib/http/json.ts';
import { clientKey, rateLimiter, type RateLimiter } from '../../lib/http/rate-limit.ts';
import { CROSS_SITE_MESSAGE, isCrossOriginRequest } from '../../lib/http/same-origin.ts';
import { getLogger } from '../../lib/log/index.ts';
import { isSharedStateError } from '../../lib/shared-state/index.ts';
import { RETRY_AFTER_SECONDS } from '../../site/error-page.ts';
import { apiContext } from '../platform/context.ts';
import { editorCookieHeader, editorSession, editorSessionOf, newEditorSession, revokeEditorSession, secondsLeft, type EditorSession } from './session.server.ts';

/** Failed sign-ins allowed per client and minute; the next one is answered 429 until the minute is over. */
export const SIGN_IN_LIMIT = { limit: 5, windowMs: 60_000 } as const;
/** The largest sign-in body read (JSON or form). */
export const SIGN_IN_BODY_LIMIT = 4 * 1024;
/** A password longer than this is refused before hashing (scrypt cost is per byte of input only marginally, but bounded input is cheap insurance). */
export const PASSWORD_MAX_LENGTH = 1024;

export const CLOSED_MESSAGE = 'The editor area is not configured on this server (EDITOR_PASSWORD_HASH is not set).';
export const REQUIRED_MESSAGE = 'A non-empty password is required.';
export const SESSION_REQUIRED_MESSAGE = 'This needs an editor session: sign in at /{locale}/editor first.';
export const SESSION_UNCHECKED_MESSAGE = 'The editor session cannot be checked right now: the shared session store does not answer. Try again in a minute.';
export const LOGOUT_FAILED_MESSAGE = 'Signing out did not finish: the shared session store does not answer, so the session could not be ended on every server. Try again in a minute.';
export const rateLimitedMessage = (seconds: number) => `Too many failed sign-in attempts. Try again in ${seconds} seconds.`;

export type SignInOutcome =
  | { kind: 'ok'; sessionValue: string }
  | { kind: 'empty' }
  | { kind: 'wrong' }
  | { kind: 'limited'; retryAfterSeconds: number }
  | { kind: 'closed' };

/** The limiter of this process (shared by the API and the form). */
export const signInLimiter: RateLimiter = rateLimiter({ ...SIGN_IN_LIMIT, name: 'editor-sign-in' });

/**
 * Checks an editor password. Every attempt of a client counts against its limit and a success
 * clears it, so only consecutive failures add up; an empty password is refused before that.
 */
export async function checkEditorPassword(input: string, configuredHash: string | undefined, client: string, limiter: RateLimiter = signInLimiter): Promise<SignInOutcome> {
  if (!configuredHash) return { kind: 'closed' };
  if (input.length === 0) return { kind: 'empty' };
  const hit = await limiter.hit(client);
  if (!hit.allowed) return { kind: 'limited', retryAfterSeconds: hit.retryAfterSeconds };
  // Over-long input is simply wrong (and counted), without spending a hash on it.
  if (input.length > PASSWORD_MAX_LENGTH || !(await verifyPassword(input, configuredHash))) return { kind: 'wrong' };
  await limiter.reset(client);
  return { kind: 'ok', sessionValue: newEditorSession(configuredHash) };
}

const SignInBodySchema = v.union([
  v.strictObject({ input: v.string('input must be a string') }),
  v.strictObject({ hash: v.pipe(v.string('hash must be a string'), v.maxLength(256, 'hash is too long')) }),
], 'the body must be {"input": "<password>"} or {"hash": "<hashedPassword>"}');

/** The answer to a refused editor request: 401, or 503 when the editor area is closed. */
export function editorRequired(): Response {
  return json({ success: false, error: 'editor-session-required', message: SESSION_REQUIRED_MESSAGE }, 401);
}

const log = getLogger('editor');

/**
 * The 503 of an editor request whose session cannot be checked or ended because the shared state
 * (the revocations) does not answer: fail closed, the request never passes. Any other error is
 * thrown on.
 */
export function sessionStoreDown(err: unknown, message: string = SESSION_UNCHECKED_MESSAGE): Response {
  if (!isSharedStateError(err)) throw err;
  log.warn(`editor request refused with 503: ${err.message}`);
  const res = json({ success: false, error: 'session-store-unavailable', message }, 503);
  res.headers.set('Retry-After', String(RETRY_AFTER_SECONDS));
  return res;
}

/**
 * The editor session a request carries (re-checked on every request: signature, expiry, the hash
 * configured now, revocation), or the answer to send: 401, or 503 when the editor area is closed
 * or the revocations cannot be asked.
 */
export async function editorOf(context: Pick<APIContext, 'request' | 'locals'>): Promise<{ session: EditorSession } | { refused: Response }> {
  const { services } = apiContext(context.locals);
  const hash = services.editorPasswordHash;
  if (!hash) return { refused: json({ success: false, error: 'editor-area-closed', message: CLOSED_MESSAGE }, 503) };
  try {
    const session = await editorSessionOf(context.request, hash, services.sharedState);
    return session ? { session } : { refused: editorRequired() };
  } catch (err) {
    return { refused: sessionStoreDown(err) };
  }
}

/** The `editor` auth option of `endpoint()`: the request's editor session, else the answer to send (see {@link editorOf}). */
export async function requireEditor(context: Pick<APIContext, 'request' | 'locals'>): Promise<EditorSession | Response> {
  const editor = await editorOf(context);
  return 'refused' in editor ? editor.refused : editor.session;
}

/** {@link requireEditor} for an endpoint that changes state: a request from another origin's page is refused first (403). */
export async function requireEditorSameSite(context: Pick<APIContext, 'request' | 'locals' | 'url'>): Promise<EditorSession | Response> {
  return crossSiteRefusal(context) ?? requireEditor(context);
}

/** The 403 of a state-changing editor endpoint asked from another origin's page; null for a same-origin (or non-browser) request. */
export function crossSiteRefusal(context: Pick<APIContext, 'request' | 'url'>, fields: Record<string, unknown> = {}): Response | null {
  if (!isCrossOriginRequest(context.request, context.url)) return null;
  return json({ ...fields, error: 'cross-site-request', message: CROSS_SITE_MESSAGE }, 403);
}

/** The API handlers; `limiter` for tests. */
export function editorAuthHandlers(limiter: RateLimiter = signInLimiter) {
  /** POST /api/editor-area-autentication: `{input}` → `{success, hashedPassword}` + cookie; `{hash}` → `{success}`. */
  const signIn: APIRoute = async (context) => {
    const crossSite = crossSiteRefusal(context, { success: false });
    if (crossSite) return crossSite;
    const { editorPasswordHash: hash, sharedState } = apiContext(context.locals).services;
    if (!hash) return json({ success: false, error: 'editor-area-closed', message: CLOSED_MESSAGE }, 503);
    const body = await readJsonBody(context.request, SIGN_IN_BODY_LIMIT);
    if (body.kind === 'unsupported') return json({ success: false, error: 'unsupported-media-type', message: 'Send the body as application/json.' }, 415);
    if (body.kind === 'too-large') return json({ success: false, error: 'too-large', message: `The body may have at most ${SIGN_IN_BODY_LIMIT} bytes.` }, 413);
    if (body.kind === 'malformed') return json({ success: false, error: 'malformed', message: 'The body is not valid JSON.' }, 400);
    const parsed = v.safeParse(SignInBodySchema, body.value);
    if (!parsed.success) return json({ success: false, error: 'invalid-body', message: parsed.issues[0].message }, 400);
    if ('hash' in parsed.output) {
      // A re-check of a session value (not a password: nothing to rate-limit, it is signed and random).
      let session: EditorSession | null;
      try {
        session = await editorSession(parsed.output.hash, hash, sharedState);
      } catch (err) {
        return sessionStoreDown(err);
      }
      if (!session) return json({ success: false }, 401);
      const res = json({ success: true });
      // Renewed, never extended: the cookie lives as long as the session, 90 days from the sign-in at most.
      res.headers.append('Set-Cookie', editorCookieHeader(parsed.output.hash, context.url, secondsLeft(session)));
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
        res.headers.append('Set-Cookie', editorCookieHeader(outcome.sessionValue, context.url));
        return res;
      }
    }
  };

  /**
   * POST /api/editor-area-autentication/logout: revokes the request's session (on every instance
   * sharing the state) and clears the editor cookie. A form post (the logout button of the editor
   * area, no JavaScript needed) is sent back to the sign-in page of its locale. When the revocation
   * cannot be recorded the answer is 503 and the cookie stays (signing out again can still end the
   * session everywhere): JSON, or for a form post the error page.
   */
  const logout: APIRoute = async (context) => {
    const crossSite = crossSiteRefusal(context, { success: false });
    if (crossSite) return crossSite;
    const { editorPasswordHash: hash, sharedState } = apiContext(context.locals).services;
    const type = context.request.headers.get('content-type') ?? '';
    const isForm = /^application\/x-www-form-urlencoded\b/i.test(type);
    try {
      const session = await editorSessionOf(context.request, hash, sharedState);
      if (session) await revokeEditorSession(session, sharedState);
    } catch (err) {
      if (isForm && isSharedStateError(err)) throw err;
      return sessionStoreDown(err, LOGOUT_FAILED_MESSAGE);
    }
    const clear = editorCookieHeader('', context.url, 0);
    if (isForm) {
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
