/**
 * Draft preview (spec §4 Draft mode, issue 13): an editor sees any page in the content hub's
 * DRAFT stage. The rule is pure and lives here; src/middleware.ts applies it (see
 * `middleware.server.ts`), src/server/http/app-server.ts lets requests with the preview cookie past the
 * prerendered files (policy.ts) so they render on demand.
 *
 * - `?preview=DRAFT` with a valid editor cookie sets the preview cookie and redirects (302) to the
 *   same URL without the parameter, so the editor then browses the draft site with clean URLs.
 * - `?preview=PUBLISHED` or `?preview=off` clears the cookie and redirects likewise.
 * - The cookie counts only together with a valid editor cookie: without one the request is a
 *   visitor's (PUBLISHED) and a stale preview cookie is cleared. A visitor's `?preview=DRAFT` is
 *   ignored: the normal page, never an error that tells anything.
 */
import type { Stage } from '../../lib/content/index.ts';

/** The preview cookie: a session cookie (no Max-Age), HttpOnly, SameSite=Lax, Secure outside localhost. */
export const PREVIEW_COOKIE = 'kmx_preview';
/** The query parameter that enters (`DRAFT`) or leaves (`PUBLISHED`, `off`) the preview. */
export const PREVIEW_PARAM = 'preview';
/** The value of the parameter that leaves the preview (the banner's exit link). */
export const PREVIEW_EXIT = 'PUBLISHED';

export interface PreviewInput {
  /** The request's `preview` query parameter, or null. */
  param: string | null;
  /** The request's preview cookie value, or undefined. */
  cookie: string | undefined;
  /** The request carries a valid editor cookie (checked against the configured hash). */
  editor: boolean;
}

export type PreviewDecision =
  /** Answer a 302 to the URL without the parameter, setting or clearing the preview cookie. */
  | { kind: 'redirect'; cookie: 'set' | 'clear' }
  /** Render in this stage; `clearCookie` when a stale preview cookie must go. */
  | { kind: 'render'; stage: Stage; clearCookie: boolean };

const ENTER = new Set(['draft']);
const LEAVE = new Set(['published', 'off']);

/** What a page request does about the preview (see the module comment). */
export function previewDecision({ param, cookie, editor }: PreviewInput): PreviewDecision {
  const wanted = param?.trim().toLowerCase() ?? null;
  const hasCookie = cookie !== undefined;
  if (editor && wanted !== null && ENTER.has(wanted)) return { kind: 'redirect', cookie: 'set' };
  if ((editor || hasCookie) && wanted !== null && LEAVE.has(wanted)) return { kind: 'redirect', cookie: 'clear' };
  const draft = editor && cookie === 'DRAFT';
  return { kind: 'render', stage: draft ? 'DRAFT' : 'PUBLISHED', clearCookie: hasCookie && !draft };
}

/** The same URL without the `preview` parameter (path and other parameters kept), as a Location. */
export function withoutPreviewParam(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete(PREVIEW_PARAM);
  const query = params.toString();
  return `${url.pathname}${query ? `?${query}` : ''}`;
}

/** The link that leaves the preview on the same page. */
export function exitPreviewHref(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.set(PREVIEW_PARAM, PREVIEW_EXIT);
  return `${url.pathname}?${params.toString()}`;
}

const isLocal = (url: URL) => url.hostname === 'localhost' || url.hostname.endsWith('.localhost') || url.hostname === '127.0.0.1';

/** The Set-Cookie header that starts (a session cookie) or ends the preview. */
export function previewCookieHeader(action: 'set' | 'clear', url: URL): string {
  const value = action === 'set' ? `${PREVIEW_COOKIE}=DRAFT` : `${PREVIEW_COOKIE}=; Max-Age=0`;
  return `${value}; Path=/; HttpOnly; SameSite=Lax${isLocal(url) ? '' : '; Secure'}`;
}
