/**
 * Draft preview on another host. The editor cookie belongs to the main site's host, so a preview
 * link to a site on a host of its own (the events or the partner site) would arrive without it.
 * Such links go through `GET /api/editor/preview-handoff?to=…` on the main host instead: for a
 * signed-in editor it answers a 302 to the page with a one-minute handoff token, and the
 * middleware on the target host turns a valid token into that host's editor cookie
 * ({@link acceptHandoff}) before the preview starts. The token names the target host and is signed
 * with a key derived from the configured password hash: it is worthless on any other host and dies
 * with a password change, like the editor cookie itself. No secret beyond the hash is needed.
 */
import { createHmac } from 'node:crypto';
import type { APIContext } from 'astro';
import * as v from 'valibot';
import { readSignedValue, signValue } from '../../lib/crypto/signed.ts';
import { json } from '../../lib/http/json.ts';
import { endpoint, READ_ONLY } from '../../lib/http/endpoint.ts';
import { originFor } from '../../site/links.ts';
import { apiContext } from '../platform/context.ts';
import { requireEditor } from './auth.server.ts';
import { checkParam } from './params.ts';
import { editorCookieHeader, editorSessionValue } from './session.server.ts';

/** The query parameter that carries the token to the target host. */
export const HANDOFF_PARAM = 'editor-handoff';
/** How long a handoff token is accepted (the browser follows the redirect at once). */
export const HANDOFF_TTL_SECONDS = 60;

const PURPOSE = 'editor-handoff';
const keyOf = (passwordHash: string) => createHmac('sha256', passwordHash).update('kmx-editor-handoff/v1').digest('base64url');

/** A token that lets `host` set its own editor cookie within {@link HANDOFF_TTL_SECONDS}. */
export function handoffToken(passwordHash: string, host: string, now = Date.now()): string {
  return signValue({ purpose: PURPOSE, host: host.toLowerCase() }, keyOf(passwordHash), HANDOFF_TTL_SECONDS, now);
}

/** Whether `token` is a live handoff token for `host` under the configured hash. */
export function isHandoffFor(token: string, passwordHash: string, host: string, now = Date.now()): boolean {
  const payload = readSignedValue(token, keyOf(passwordHash), now);
  return payload !== null && payload.purpose === PURPOSE && payload.host === host.toLowerCase();
}

/**
 * The middleware's step for a page request that carries a handoff token: a 302 to the same URL
 * without the token, setting this host's editor cookie when the token is valid (an invalid one is
 * silently dropped, so the request continues as a visitor's). Null without a token.
 */
export function acceptHandoff(url: URL, passwordHash: string | undefined, now = Date.now()): Response | null {
  const token = url.searchParams.get(HANDOFF_PARAM);
  if (token === null) return null;
  const params = new URLSearchParams(url.search);
  params.delete(HANDOFF_PARAM);
  const query = params.toString();
  const headers = new Headers({ Location: `${url.pathname}${query ? `?${query}` : ''}`, 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' });
  if (passwordHash && isHandoffFor(token, passwordHash, url.hostname, now)) headers.append('Set-Cookie', editorCookieHeader(editorSessionValue(passwordHash), url));
  return new Response(null, { status: 302, headers });
}

const TargetSchema = v.pipe(v.string(), v.maxLength(2048, 'is too long'), v.url('must be an absolute URL'));

/**
 * GET /api/editor/preview-handoff?to=<absolute page URL>: for a signed-in editor, a 302 to `to`
 * with a handoff token. `to` must lie on the origin of one of the sites other than this host's
 * (never an open redirect): 400 otherwise.
 */
export const previewHandoffHandler = (context: APIContext): Response => {
  const refused = requireEditor(context);
  if (refused) return refused;
  const { system, services } = apiContext(context.locals);
  const to = checkParam('to', TargetSchema, context.url.searchParams.get('to') ?? '');
  if (!to.ok) return json({ error: 'invalid-parameter', message: to.message }, 400);
  const target = new URL(to.value);
  const origins = new Set(system.sites.map((site) => originFor(site, context.url)).filter(Boolean));
  if (!origins.has(target.origin)) return json({ error: 'invalid-parameter', message: 'to must be a page of a site on another host' }, 400);
  target.searchParams.set(HANDOFF_PARAM, handoffToken(services.editorPasswordHash!, target.hostname));
  return new Response(null, { status: 302, headers: { Location: target.toString(), 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } });
};

/** The route's handler behind its declared limits (a read: no body, no rate limit). */
export const previewHandoff = endpoint(READ_ONLY, previewHandoffHandler);
