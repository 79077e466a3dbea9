import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEADER_ONLY_CSP, SECURITY_HEADERS } from './headers.ts';
import { ERROR_BRAND, errorPageHome, errorPageLanguage, errorPageStatus, errorPageTitle } from '../../site/error-page.ts';

const KEYS = ['error.breadcrumbTitle', 'error.overline', 'error.title', 'error.text', 'error.maintenance', 'error.goHome'] as const;
type Texts = Record<(typeof KEYS)[number], string>;

const texts = new Map<string, Texts>();
/** The error page's texts in a language, from locales/<lang>.json (English for a missing key). */
function textsFor(language: string): Texts {
  let found = texts.get(language);
  if (!found) {
    const read = (lang: string): Record<string, string> => {
      try {
        return JSON.parse(readFileSync(new URL(`../../../locales/${lang}.json`, import.meta.url), 'utf8')) as Record<string, string>;
      } catch {
        return {};
      }
    };
    const en = read('en');
    const own = language === 'en' ? en : read(language);
    found = Object.fromEntries(KEYS.map((k) => [k, own[k] ?? en[k] ?? k])) as Texts;
    texts.set(language, found);
  }
  return found;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = 'body{margin:0;font-family:system-ui,sans-serif;color:#1a2b3c;line-height:1.5}'
  + 'header{background:#003a70;padding:16px 24px}header a{color:#fff;font-weight:800;letter-spacing:.06em;text-decoration:none}'
  + 'main{max-width:760px;margin:0 auto;padding:64px 24px}.overline{text-transform:uppercase;letter-spacing:.08em;font-size:.85rem}'
  + '.notice{background:#e8f1fa;border-left:4px solid #003a70;padding:12px 16px}.btn{display:inline-block;margin-top:24px;background:#003a70;color:#fff;padding:10px 20px;text-decoration:none}';
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
/** No scripts at all; only this page's own inline style. */
export const ERROR_PAGE_CSP = `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self'; base-uri 'none'; form-action 'none'; ${HEADER_ONLY_CSP}`;

/**
 * The error page as the Node server writes it when the Astro app cannot (its handler failed):
 * the same texts as src/pages/500.astro, self-contained, in the language of the URL.
 */
export function errorPageHtml(pathname: string): string {
  const language = errorPageLanguage(pathname);
  const t = textsFor(language);
  const home = escape(errorPageHome(pathname));
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<meta name="robots" content="noindex"><title>${escape(errorPageTitle(t['error.breadcrumbTitle'], undefined))}</title><style>${STYLE}</style></head>`
    + `<body><header><a href="${home}">${escape(ERROR_BRAND)}</a></header><main>`
    + `<p class="overline">${escape(t['error.overline'])}</p><h1>${escape(t['error.title'])}</h1><p>${escape(t['error.text'])}</p>`
    + `<p class="notice" role="status">${escape(t['error.maintenance'])}</p><a class="btn" href="${home}">${escape(t['error.goHome'])}</a>`
    + '</main></body></html>';
}

/**
 * Answers a request the app could not render with the error page: 503 with Retry-After when an
 * upstream service is down, else 500. Never the error itself (that goes to the log).
 */
export function sendErrorPage(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  let pathname = '/';
  try {
    pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
  } catch { /* a malformed URL gets the English page */ }
  const { status, retryAfter } = errorPageStatus(err);
  const html = errorPageHtml(pathname);
  res.statusCode = status;
  // Whatever the failed render had set goes, except the security headers.
  const keep = new Set(Object.keys(SECURITY_HEADERS).map((k) => k.toLowerCase()));
  for (const name of res.getHeaderNames()) if (!keep.has(name)) res.removeHeader(name);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', ERROR_PAGE_CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(html));
  if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
  res.end(req.method === 'HEAD' ? undefined : html);
}
