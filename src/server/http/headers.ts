import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** Where browsers send CSP violation reports (src/features/csp-report/, logged as warnings). */
export const CSP_REPORT_PATH = '/api/csp-report';
/** The Reporting API endpoint name the policies' `report-to` refers to (see `Reporting-Endpoints`). */
export const CSP_REPORT_GROUP = 'csp-endpoint';

/**
 * Headers that only work as HTTP headers, or that every response should carry (rated by the HTTP
 * Observatory: see observatory.ts). CORP `same-site`: our sites' hosts share the site (the main
 * host, its subdomains), so nothing of ours is readable from another site's page.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-site',
  'Reporting-Endpoints': `${CSP_REPORT_GROUP}="${CSP_REPORT_PATH}"`,
};

/**
 * Policy parts a `<meta>` CSP cannot carry (framing and reporting); appended to every CSP header
 * we send, each unless the policy sets that directive itself (/blank-callback's `frame-ancestors 'self'`).
 */
export const HEADER_ONLY_DIRECTIVES: readonly string[] = [
  "frame-ancestors 'none'",
  `report-uri ${CSP_REPORT_PATH}`,
  `report-to ${CSP_REPORT_GROUP}`,
];
export const HEADER_ONLY_CSP = HEADER_ONLY_DIRECTIVES.join('; ');

/**
 * The policy of every response that brings none of its own (API answers, redirects, assets,
 * host files, our 4xx answers): nothing may load, nothing may frame it, no base or form target.
 */
export const FALLBACK_CSP = `default-src 'none'; base-uri 'none'; form-action 'none'; ${HEADER_ONLY_CSP}`;

const directiveName = (d: string) => d.trim().split(/\s+/)[0]!.toLowerCase();

/** Adds the header-only directives a CSP lacks (Astro's, from a header or a prerendered page's meta tag). */
export function withHeaderOnlyDirectives(csp: string): string {
  const trimmed = csp.trim().replace(/;\s*$/, '');
  const present = new Set(trimmed.split(';').map(directiveName));
  const missing = HEADER_ONLY_DIRECTIVES.filter((d) => !present.has(directiveName(d)));
  return missing.length === 0 ? trimmed : `${trimmed}; ${missing.join('; ')}`;
}

export function applySecurityHeaders(res: ServerResponse): void {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
}

/**
 * Makes every response `res` sends carry a CSP header: the one set (or passed to `writeHead`)
 * with the header-only directives added, else {@link FALLBACK_CSP}. Checked when the head is
 * written (an implicit head too: Node's `end()` calls `writeHead`), once per response.
 */
export function ensureCspHeader(res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const at = rest.findIndex((r) => r !== null && typeof r === 'object');
    const given = at === -1 ? undefined : rest[at] as Record<string, unknown> | unknown[];
    let found = false;
    if (Array.isArray(given)) {
      // A copy: callers may pass a list they keep (ready responses).
      const list = [...given];
      for (let i = 0; i + 1 < list.length; i += 2) {
        if (String(list[i]).toLowerCase() === 'content-security-policy') {
          list[i + 1] = withHeaderOnlyDirectives(String(list[i + 1]));
          found = true;
        }
      }
      rest[at] = list;
    } else if (given) {
      const copy = { ...given };
      for (const k of Object.keys(copy)) {
        if (k.toLowerCase() === 'content-security-policy' && typeof copy[k] === 'string') {
          copy[k] = withHeaderOnlyDirectives(copy[k] as string);
          found = true;
        }
      }
      rest[at] = copy;
    }
    if (!found) {
      const set = res.getHeader('content-security-policy');
      res.setHeader('Content-Security-Policy', typeof set === 'string' ? withHeaderOnlyDirectives(set) : FALLBACK_CSP);
    }
    return (writeHead as (...args: unknown[]) => ServerResponse).call(res, status, ...rest);
  }) as typeof res.writeHead;
}

/** Cache policy: hashed assets for a year; HTML always revalidated by the CDN and the browser. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_HTML = 'public, max-age=0, must-revalidate';

/**
 * Puts the page's CSP into the saved HTML as a `<meta>` too, so the file is protected wherever it
 * is served from (a CDN without our header rules). Rendering through the App gives the policy
 * only as a header.
 */
export function withCspMeta(html: Buffer, csp: string | null): Buffer {
  if (!csp) return html;
  // Work on the bytes (the prerender never decodes a page); the head is ASCII, so latin1 offsets are byte offsets.
  const head = html.subarray(0, 4096).toString('latin1');
  if (/http-equiv="content-security-policy"/i.test(head)) return html;
  const m = /<meta charset="utf-8">/i.exec(head);
  if (!m) return html;
  const end = m.index + m[0].length;
  return Buffer.concat([html.subarray(0, end), Buffer.from(cspMetaTag(csp)), html.subarray(end)]);
}

const cspMetaTag = (csp: string) => `<meta http-equiv="content-security-policy" content="${csp.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;

/** An inline `<script>` (one without `src`) or `<style>` element: the bytes between its tags are what a CSP hash covers. */
const INLINE_ELEMENT = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1>/gi;

/**
 * Narrows the policy Astro sends for a page to the page itself: Astro lists the hash of every inline
 * script and style the route could render (45 of them on a content page, ~2.5 KB of incompressible
 * base64 in the header and again in the meta tag); only those of the elements this page contains
 * are kept. Never adds a hash Astro did not list, and leaves every other source as it is.
 */
export function cspForPage(html: Buffer, csp: string): string {
  const text = html.toString('latin1'); // byte offsets = string offsets
  const present = new Set<string>();
  for (const m of text.matchAll(INLINE_ELEMENT)) {
    if (m[1]!.toLowerCase() === 'script' && /\ssrc\s*=/i.test(m[2]!)) continue;
    const start = m.index + m[0].length - m[3]!.length - `</${m[1]}>`.length;
    const digest = createHash('sha256').update(html.subarray(start, start + m[3]!.length)).digest('base64');
    present.add(`'sha256-${digest}'`);
  }
  return csp.split(';').map((directive) => {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name !== 'script-src' && name !== 'style-src') return directive;
    const kept = sources.filter((s) => !/^'sha(256|384|512)-/.test(s) || present.has(s));
    return ` ${[name, ...kept].join(' ')}`;
  }).join(';').trim();
}
