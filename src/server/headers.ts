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
