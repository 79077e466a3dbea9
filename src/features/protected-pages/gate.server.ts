/**
 * The server-side enforcement of page protection (spec §3 Page protection 1 and 2, §6): what the
 * content route answers for a page that is, or lies below, a protected page. Password pages show
 * the password form until the visitor holds the page's grant; CIAM-role pages show a sign-in
 * shell (no content) whose script asks `POST /api/protected-pages/grant` for the grant.
 */
import { ancestorPath, checkAccess, getPageProtection, type Page } from '../../lib/content/index.ts';
import { clientKey, rateLimiter } from '../../lib/http/rate-limit.ts';
import { localizedPath } from '../../site/paths.ts';
import { pageContext } from '../platform/context.ts';
import { grantsFromCookies } from './grant.server.ts';
import { handlePasswordPost, type PasswordError } from './password.server.ts';

/** What the route renders or answers. */
export type PageGate =
  /** Not protected: the page as usual. */
  | { kind: 'public' }
  /** Protected and granted: the page, privately. */
  | { kind: 'granted' }
  /** The password form of the page `pageId` (the protected page itself or its ancestor). */
  | { kind: 'password'; pageId: string; status: number; error?: PasswordError; retryAfterSeconds?: number }
  /** The sign-in shell of a CIAM-role page. */
  | { kind: 'sign-in'; pageId: string; grantPath: string }
  /** A finished answer (the 303 after a right password). */
  | { kind: 'response'; response: Response };

/** Every answer about a protected page, form, shell and content alike. */
export const PROTECTED_HEADERS = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' } as const;

/** Password attempts: 10 per client and page in 10 minutes. */
const passwordLimiter = rateLimiter({ limit: 10, windowMs: 10 * 60_000, name: 'page-password' });

/**
 * The gate of a content page request. `context` is the page's Astro context (locals, request,
 * clientAddress); a POST to a locked password page is the password form's submission.
 */
export async function pageGate(context: { locals: App.Locals; request: Request; url: URL; clientAddress?: string }, page: Page): Promise<PageGate> {
  if (page.protection === 0) return { kind: 'public' };
  const ctx = pageContext(context.locals);
  // Defence in depth: the prerender's sources never offer a protected page; if one ever did, fail the build of that route.
  if (ctx.prerender) throw new Error(`Protected page ${page.id} must never be prerendered`);
  const { services } = ctx;
  const grants = grantsFromCookies(context.request.headers.get('cookie'), services.pageGrantSecret);
  // Whether the page exists in the request's stage is the content hub's answer; only the protection is decided here.
  const check = checkAccess({ ...page.access, isPublished: true }, grants);
  if (check.kind !== 'locked') return { kind: 'granted' };
  const { id, protection, depth } = check.by;
  const req = ctx.request;
  // The grant is scoped to the URL path of the protected page, so it covers the pages below it.
  const grantPath = localizedPath(req.site, req.locale, ancestorPath(page.path, depth));
  if (protection === 2) return { kind: 'sign-in', pageId: id, grantPath };
  if (context.request.method !== 'POST') return { kind: 'password', pageId: id, status: 200 };
  const result = await handlePasswordPost(
    {
      passwordHash: async (pageId) => (await getPageProtection(ctx.content, pageId))?.passwordHash ?? null,
      limiter: passwordLimiter,
      secret: services.pageGrantSecret,
    },
    {
      request: context.request,
      client: clientKey(context),
      pageId: id,
      grantPath,
      target: context.url.pathname,
      url: context.url,
    },
  );
  if (result.kind === 'granted') return { kind: 'response', response: grantedResponse(result.status, result.location, result.cookies) };
  return { kind: 'password', pageId: id, status: result.status, error: result.error, ...(result.retryAfterSeconds ? { retryAfterSeconds: result.retryAfterSeconds } : {}) };
}

/** The answer that hands out a grant: its cookies, private and noindex; a redirect when `location` is given. */
export function grantedResponse(status: number, location: string | null, cookies: readonly string[]): Response {
  const headers = new Headers(PROTECTED_HEADERS);
  if (location) headers.set('Location', location);
  for (const c of cookies) headers.append('Set-Cookie', c);
  return new Response(null, { status, headers });
}
