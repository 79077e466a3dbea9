/**
 * Draft preview on another host. The editor cookie belongs to the main site's host, so a preview
 * link to a site on a host of its own (the events or the partner site) would arrive without it.
 * Such links go through `GET /api/editor/preview-handoff?to=…` on the main host instead: for a
 * signed-in editor it answers a 302 to the page with a handoff token, and the middleware on the
 * target host turns a valid token into that host's editor cookie ({@link acceptHandoff}) before the
 * preview starts. The token is signed with a key derived from the configured password hash, lives
 * one minute, names the exact target host (host and port), is accepted once (its random id is
 * claimed in the shared state, on every instance sharing it) and carries the editor's session:
 * the target host's cookie holds that same session, so a logout revokes it there too.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { APIContext } from 'astro';
import * as v from 'valibot';
import { readSignedValue, signValue } from '../../lib/crypto/signed.ts';
import { json } from '../../lib/http/json.ts';
import { endpoint, READ_ONLY } from '../../lib/http/endpoint.ts';
import type { SharedState } from '../../lib/shared-state/index.ts';
import { originFor } from '../../site/links.ts';
import { apiContext } from '../platform/context.ts';
import { editorOf } from './auth.server.ts';
import { checkParam } from './params.ts';
import { editorCookieHeader, editorSession, editorSessionValue, secondsLeft, SessionIdSchema, type EditorSession } from './session.server.ts';

import { HANDOFF_PARAM } from './policy.ts';

export { HANDOFF_PARAM };
/** How long a handoff token is accepted (the browser follows the redirect at once). */
export const HANDOFF_TTL_SECONDS = 60;

const PURPOSE = 'editor-handoff';
const keyOf = (passwordHash: string) => createHmac('sha256', passwordHash).update('kmx-editor-handoff/v2').digest('base64url');
const usedKey = (jti: string) => `editor-handoff:used:${jti}`;

const Seconds = v.pipe(v.number(), v.integer(), v.minValue(0));
const HandoffPayload = v.object({
  purpose: v.literal(PURPOSE),
  jti: SessionIdSchema,
  host: v.string(),
  session: v.object({ sid: SessionIdSchema, iat: Seconds, exp: Seconds }),
  exp: Seconds,
});

/** The payload of a live handoff token: its id, the target host, the session it hands over, its own expiry. */
export type Handoff = v.InferOutput<typeof HandoffPayload>;

/** A token that lets `host` (hostname and port, as in a URL's `host`) set its own cookie for `session` within {@link HANDOFF_TTL_SECONDS}. */
export function handoffToken(passwordHash: string, host: string, session: EditorSession, now = Date.now()): string {
  const payload = { purpose: PURPOSE, jti: randomBytes(16).toString('base64url'), host: host.toLowerCase(), session: { sid: session.sid, iat: session.iat, exp: session.exp } };
  return signValue(payload, keyOf(passwordHash), HANDOFF_TTL_SECONDS, now);
}

/** The handoff of `token` when it is signed under the configured hash, unexpired and made for exactly `host`; else null (use not checked). */
export function readHandoff(token: string, passwordHash: string, host: string, now = Date.now()): Handoff | null {
  const parsed = v.safeParse(HandoffPayload, readSignedValue(token, keyOf(passwordHash), now));
  return parsed.success && parsed.output.host === host.toLowerCase() ? parsed.output : null;
}

/**
 * The session a token hands over to `host`, when the token is valid for that host, not used
 * before (this call uses it up) and its session is still live and unrevoked; null otherwise.
 */
export async function redeemHandoff(token: string, passwordHash: string, host: string, state: SharedState, now = Date.now()): Promise<EditorSession | null> {
  const handoff = readHandoff(token, passwordHash, host, now);
  if (!handoff) return null;
  const session = await editorSession(editorSessionValue(passwordHash, handoff.session, now), passwordHash, state, now);
  if (!session) return null;
  return (await state.claim(usedKey(handoff.jti), handoff.exp * 1000)) ? session : null;
}

/**
 * The middleware's step for a page request that carries a handoff token: a 302 to the same URL
 * without the token, setting this host's editor cookie when the token is valid (an invalid or used
 * one is silently dropped, so the request continues as a visitor's). Null without a token.
 */
export async function acceptHandoff(url: URL, passwordHash: string | undefined, state: SharedState, now = Date.now()): Promise<Response | null> {
  const token = url.searchParams.get(HANDOFF_PARAM);
  if (token === null) return null;
  const params = new URLSearchParams(url.search);
  params.delete(HANDOFF_PARAM);
  const query = params.toString();
  const headers = new Headers({ Location: `${url.pathname}${query ? `?${query}` : ''}`, 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' });
  const session = passwordHash ? await redeemHandoff(token, passwordHash, url.host, state, now) : null;
  if (session && passwordHash) headers.append('Set-Cookie', editorCookieHeader(editorSessionValue(passwordHash, session, now), url, secondsLeft(session, now)));
  return new Response(null, { status: 302, headers });
}

const TargetSchema = v.pipe(v.string(), v.maxLength(2048, 'is too long'), v.url('must be an absolute URL'));

/**
 * GET /api/editor/preview-handoff?to=<absolute page URL>: for a signed-in editor, a 302 to `to`
 * with a handoff token. `to` must lie on the origin of one of the sites other than this host's
 * (never an open redirect): 400 otherwise.
 */
export const previewHandoffHandler = async (context: APIContext): Promise<Response> => {
  const editor = await editorOf(context);
  if ('refused' in editor) return editor.refused;
  const { system, services } = apiContext(context.locals);
  const to = checkParam('to', TargetSchema, context.url.searchParams.get('to') ?? '');
  if (!to.ok) return json({ error: 'invalid-parameter', message: to.message }, 400);
  const target = new URL(to.value);
  const origins = new Set(system.sites.map((site) => originFor(site, context.url)).filter(Boolean));
  if (!origins.has(target.origin)) return json({ error: 'invalid-parameter', message: 'to must be a page of a site on another host' }, 400);
  target.searchParams.set(HANDOFF_PARAM, handoffToken(services.editorPasswordHash!, target.host, editor.session));
  return new Response(null, { status: 302, headers: { Location: target.toString(), 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } });
};

/** The route's handler behind its declared limits (a read: no body, no rate limit). */
export const previewHandoff = endpoint(READ_ONLY, previewHandoffHandler);
