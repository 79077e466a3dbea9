import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** Headers that only work as HTTP headers, or that every response should carry. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Policy parts a `<meta>` CSP cannot carry; appended to every CSP header we send. */
export const HEADER_ONLY_CSP = "frame-ancestors 'none'";

/** Adds the header-only directives to a CSP (Astro's, from a header or a prerendered page's meta tag). */
export function withHeaderOnlyDirectives(csp: string): string {
  const trimmed = csp.trim().replace(/;\s*$/, '');
  return trimmed.includes('frame-ancestors') ? trimmed : `${trimmed}; ${HEADER_ONLY_CSP}`;
}

export function applySecurityHeaders(res: ServerResponse): void {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
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
