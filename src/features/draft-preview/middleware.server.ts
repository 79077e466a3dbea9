import type { APIContext } from 'astro';
import type { DataSource } from '../../lib/cache/data-cache.ts';
import type { Stage } from '../../lib/content/index.ts';
import type { FeatureMiddleware } from '../platform/feature-middleware.ts';
import type { Services } from '../platform/context.ts';
import { PREVIEW_COOKIE, PREVIEW_PARAM, previewCookieHeader, previewDecision, withoutPreviewParam } from './mode.ts';

/** What src/middleware.ts needs to render a page request in or out of the draft preview. */
export interface DraftPreview {
  /** A response to send instead of the page (entering or leaving the preview). */
  redirect: Response | null;
  /** The content stage of the page. */
  stage: Stage;
  /** The data source of the page: in DRAFT, stage-DRAFT records skip the shared cache (see {@link draftSource}). */
  source(data: DataSource): DataSource;
  /** The page's response with the preview's headers (no-store, noindex) or the stale cookie cleared; unchanged otherwise. */
  finish(res: Response): Response;
}

/** Not a preview: the stage is PUBLISHED and nothing is touched. */
const PUBLISHED: DraftPreview = { redirect: null, stage: 'PUBLISHED', source: (d) => d, finish: (r) => r };

/**
 * A page request's draft preview (rule in `mode.ts`). `isEditor`: whether the request carries a
 * valid editor cookie (the middleware checks it, only when a preview parameter or cookie is there;
 * this feature does not depend on the editor feature, whose views use the layouts that place the banner).
 * Only GET and HEAD page requests take part; API routes never do (the draft proxy checks the
 * editor cookie itself).
 */
export function draftPreview(context: Pick<APIContext, 'url' | 'request' | 'cookies'>, isEditor: () => boolean): DraftPreview {
  const { url, request, cookies } = context;
  if ((request.method !== 'GET' && request.method !== 'HEAD') || url.pathname.startsWith('/api/')) return PUBLISHED;
  const param = url.searchParams.get(PREVIEW_PARAM);
  const cookie = cookies.get(PREVIEW_COOKIE)?.value;
  if (param === null && cookie === undefined) return PUBLISHED;
  const decision = previewDecision({ param, cookie, editor: isEditor() });
  if (decision.kind === 'redirect') {
    const headers = new Headers({ Location: withoutPreviewParam(url), 'Cache-Control': 'private, no-store' });
    headers.append('Set-Cookie', previewCookieHeader(decision.cookie, url));
    return { ...PUBLISHED, redirect: new Response(null, { status: 302, headers }) };
  }
  if (decision.stage === 'DRAFT') {
    return {
      redirect: null,
      stage: 'DRAFT',
      source: draftSource,
      finish: (res) => withHeaders(res, { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' }),
    };
  }
  // A stale preview cookie (no valid editor cookie any more): a visitor's page, and the cookie goes.
  if (decision.clearCookie) {
    return { ...PUBLISHED, finish: (res) => withHeaders(res, { 'Cache-Control': 'private, no-store' }, previewCookieHeader('clear', url)) };
  }
  return PUBLISHED;
}

/**
 * The draft preview's middleware step. `isEditor` is the editor feature's session check (the
 * registry wires it: this feature does not depend on the editor feature); it runs only for a
 * request that asks for the preview (a look-up in the shared state).
 */
export function draftPreviewMiddleware(isEditor: (request: Request, services: Services) => Promise<boolean>): FeatureMiddleware {
  return {
    feature: 'draft-preview',
    async render(context, services) {
      const asksForPreview = context.url.searchParams.has(PREVIEW_PARAM) || context.cookies.get(PREVIEW_COOKIE) !== undefined;
      const editor = asksForPreview && await isEditor(context.request, services);
      return draftPreview(context, () => editor);
    },
  };
}

function withHeaders(res: Response, set: Record<string, string>, cookie?: string): Response {
  const headers = new Headers(res.headers);
  for (const [k, v] of Object.entries(set)) headers.set(k, v);
  if (cookie) headers.append('Set-Cookie', cookie);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/**
 * The data source of a draft render: records read in stage DRAFT (their keys name the stage, see
 * src/lib/content/cached.ts) are loaded fresh for this request only (one load per key and request),
 * never stored in the process's data cache, so an editor always sees the latest draft and a draft
 * value can never be served from a shared entry. Everything else (system data, the catalogue,
 * which has no stages) goes through the shared cache as for any visitor.
 */
export function draftSource(shared: DataSource): DataSource {
  const memo = new Map<string, Promise<unknown>>();
  return {
    get<T>(key: readonly (string | number | boolean | null | undefined)[], load: () => Promise<T>): Promise<T> {
      if (!key.includes('DRAFT')) return shared.get(key, load);
      const id = JSON.stringify(key);
      let hit = memo.get(id) as Promise<T> | undefined;
      if (!hit) {
        hit = load();
        memo.set(id, hit);
      }
      return hit;
    },
  };
}
