/**
 * The MDN HTTP Observatory's grading (https://developer.mozilla.org/en-US/observatory), written
 * from its published rules (github.com/mdn/mdn-http-observatory, src/analyzer/tests/* and
 * src/grader/charts.js: algorithm v2 as of its 1.6 releases, plus the COOP and COEP tests its main
 * branch added since), so tests can grade the headers our server really sends. Each test maps a
 * response to one expectation with a score modifier; the score starts at 100, adds every modifier
 * and keeps the bonuses (positive modifiers) only when the score without them is at least 90; a
 * score of 100 or more is an A+.
 *
 * What the real scanner does and this does not: it fetches the site itself (here the caller hands
 * in the responses), it reads the HSTS preload list (here: never preloaded), and it tells a
 * registrable domain by the public suffix list (here: the last two labels). It only grades
 * answers with a status of 2xx, 3xx, 401 or 403; this grades any answer (our 4xx pages too).
 *
 * Why not the package itself (`@mdn/mdn-http-observatory`, read at 1.4.8): its only export is
 * `scan(hostname)`, which fetches http://host and https://host on the default ports (its port
 * options are not passed on by `scan`), so it cannot grade a test server on a local port or a
 * response a unit test hands in; it also pulls in PostgreSQL clients (pg-native), fastify and jsdom.
 */

export interface ObservedResponse {
  /** The URL as the scanner asked for it (the deployed site is https). */
  url: string;
  status: number;
  /** Header names in lower case; repeated headers (Set-Cookie) as arrays. */
  headers: Record<string, string | string[] | undefined>;
  /** The body, when HTML (meta CSP and referrer tags, script elements). */
  body?: string;
}

export interface ObservatoryInput {
  /** The response to the scanned URL (`auto`; also the https response the HSTS test reads). */
  response: ObservedResponse;
  /**
   * The chain of a scan starting at the http:// URL: every URL visited, first to last (one entry:
   * no redirect). Absent when the site cannot be reached over http.
   */
  httpRedirects?: { url: string }[];
  /** The answer to the same URL asked with an `Origin` header of another site. */
  cors?: { origin: string; headers: Record<string, string | string[] | undefined> };
}

export interface TestResult {
  result: string;
  modifier: number;
}

export interface ObservatoryGrade {
  score: number;
  grade: string;
  tests: Record<string, TestResult>;
}

/** Score modifiers per expectation (charts.js SCORE_TABLE). */
export const MODIFIERS: Record<string, number> = {
  'csp-implemented-with-no-unsafe-default-src-none': 10,
  'csp-implemented-with-no-unsafe': 5,
  'csp-implemented-with-unsafe-inline-in-style-src-only': 0,
  'csp-implemented-with-insecure-scheme-in-passive-content-only': -10,
  'csp-implemented-with-unsafe-eval': -10,
  'csp-implemented-with-unsafe-inline': -20,
  'csp-implemented-with-insecure-scheme': -20,
  'csp-header-invalid': -25,
  'csp-not-implemented': -25,
  'csp-not-implemented-but-reporting-enabled': -25,
  'csp-implemented-but-duplicate-directives': 0,
  'cookies-secure-with-httponly-sessions-and-samesite': 5,
  'cookies-secure-with-httponly-sessions': 0,
  'cookies-not-found': 0,
  'cookies-without-secure-flag-but-protected-by-hsts': -5,
  'cookies-session-without-secure-flag-but-protected-by-hsts': -10,
  'cookies-without-secure-flag': -20,
  'cookies-samesite-flag-invalid': -20,
  'cookies-anticsrf-without-samesite-flag': -20,
  'cookies-session-without-httponly-flag': -30,
  'cookies-session-without-secure-flag': -40,
  'cross-origin-resource-sharing-not-implemented': 0,
  'cross-origin-resource-sharing-implemented-with-public-access': 0,
  'cross-origin-resource-sharing-implemented-with-restricted-access': 0,
  'cross-origin-resource-sharing-implemented-with-universal-access': -50,
  'redirection-to-https': 0,
  'redirection-not-needed-no-http': 0,
  'redirection-off-host-from-http': -5,
  'redirection-not-to-https-on-initial-redirection': -10,
  'redirection-not-to-https': -20,
  'redirection-missing': -20,
  'referrer-policy-private': 5,
  'referrer-policy-not-implemented': 0,
  'referrer-policy-unsafe': -5,
  'referrer-policy-header-invalid': -5,
  'hsts-implemented-max-age-at-least-six-months': 0,
  'hsts-implemented-max-age-less-than-six-months': -10,
  'hsts-not-implemented': -20,
  'hsts-header-invalid': -20,
  'hsts-not-implemented-no-https': -20,
  'sri-implemented-and-all-scripts-loaded-securely': 5,
  'sri-implemented-and-external-scripts-loaded-securely': 5,
  'sri-not-implemented-response-not-html': 0,
  'sri-not-implemented-but-no-scripts-loaded': 0,
  'sri-not-implemented-but-all-scripts-loaded-from-secure-origin': 0,
  'sri-not-implemented-but-external-scripts-loaded-securely': -5,
  'sri-implemented-but-external-scripts-not-loaded-securely': -20,
  'sri-not-implemented-and-external-scripts-not-loaded-securely': -50,
  'x-content-type-options-nosniff': 0,
  'x-content-type-options-not-implemented': -5,
  'x-content-type-options-header-invalid': -5,
  'x-frame-options-implemented-via-csp': 5,
  'x-frame-options-sameorigin-or-deny': 5,
  'x-frame-options-allow-from-origin': 0,
  'x-frame-options-not-implemented': -20,
  'x-frame-options-header-invalid': -20,
  'corp-implemented-with-same-origin': 10,
  'corp-implemented-with-same-site': 10,
  'corp-implemented-with-cross-origin': 0,
  'corp-not-implemented': 0,
  'corp-header-invalid': -5,
  'coop-implemented-with-same-origin': 10,
  'coop-implemented-with-same-origin-allow-popups': 10,
  'coop-implemented-with-noopener-allow-popups': 10,
  'coop-implemented-with-unsafe-none': 0,
  'coop-not-implemented': 0,
  'coop-header-invalid': -5,
  'coep-implemented-with-require-corp': 10,
  'coep-implemented-with-credentialless': 10,
  'coep-implemented-with-unsafe-none': 0,
  'coep-not-implemented': 0,
  'coep-header-invalid': -5,
  'html-not-parseable': -20,
};

/** The score-to-grade chart: the grade of the score rounded down to a multiple of 5 (at most 100). */
const GRADES: [number, string][] = [
  [100, 'A+'], [90, 'A'], [85, 'A-'], [80, 'B+'], [70, 'B'], [65, 'B-'], [60, 'C+'], [50, 'C'], [45, 'C-'],
  [40, 'D+'], [30, 'D'], [25, 'D-'], [0, 'F'],
];
const MINIMUM_SCORE_FOR_EXTRA_CREDIT = 90;

export function gradeOf(score: number): string {
  const key = Math.min(Math.max(score, 0) - (Math.max(score, 0) % 5), 100);
  return GRADES.find(([min]) => key >= min)![1];
}

// ---- helpers ---------------------------------------------------------------------------------

function headerValues(headers: Record<string, string | string[] | undefined>, name: string): string[] {
  const found: string[] = [];
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== name || v === undefined) continue;
    found.push(...(Array.isArray(v) ? v : [v]));
  }
  return found;
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', '#39': "'", '#34': '"' };
const decodeEntities = (s: string) => s.replace(/&(amp|quot|apos|lt|gt|#39|#34);/g, (_, e: string) => ENTITIES[e]!);

/** The attributes of every start tag `tag` in an HTML text (names lower-cased, entities decoded). */
export function elementsOf(html: string, tag: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const tagPattern = new RegExp(`<${tag}\\b((?:[^>"']|"[^"]*"|'[^']*')*)>`, 'gi');
  for (const m of html.matchAll(tagPattern)) {
    const attrs: Record<string, string> = {};
    for (const a of m[1]!.matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
      attrs[a[1]!.toLowerCase()] = decodeEntities(a[2] ?? a[3] ?? a[4] ?? '');
    }
    found.push(attrs);
  }
  return found;
}

/** The registrable domain, approximated as the last two labels (the scanner uses the public suffix list). */
const siteOf = (hostname: string) => hostname.split('.').slice(-2).join('.');

// ---- CSP ------------------------------------------------------------------------------------

const DUPLICATES = '_duplicate_report_directives';
const ALLOWED_DUPLICATES = new Set(['report-uri', 'report-to']);
const NOT_IN_META = ['frame-ancestors', 'report-uri', 'sandbox'];

/**
 * Parses policies into directive → sources (sources lower-cased). A directive repeated within one
 * policy makes it invalid (throws), except report-uri and report-to (noted under DUPLICATES).
 * Several policies are combined the scanner's way: a directive of the first policy keeps its
 * sources, a later policy's sources count only where the first has them too, and a directive
 * only a later policy sets ends up 'none'.
 */
export function parseCsp(policies: string[]): Map<string, Set<string>> {
  const clean = policies.map((p) => p.replace(/[\r\n]/g, '').trim());
  const csp = new Map<string, Set<string>>();
  let duplicates = false;
  for (const [index, policy] of clean.entries()) {
    if (policy.length < 'img-src'.length - 1) throw new Error(`Invalid policy: ${policy}`);
    const seen = new Set<string>();
    for (const entry of policy.split(';')) {
      const [rawName, ...values] = entry.trim().split(/\s+/);
      if (!rawName) continue;
      const name = rawName.toLowerCase();
      if (seen.has(name)) {
        if (!ALLOWED_DUPLICATES.has(name)) throw new Error(`Duplicate directive ${name}`);
        duplicates = true;
        continue;
      }
      seen.add(name);
      let sources = values.map((s) => s.trim().toLowerCase());
      if (sources.length === 0 && name.endsWith('-src')) sources = ["'none'"];
      if (index === 0) {
        csp.set(name, new Set(sources));
      } else {
        const first = csp.get(name);
        const both = first ? sources.filter((s) => first.has(s)) : [];
        csp.set(name, new Set(both.length > 0 ? both : ["'none'"]));
      }
    }
  }
  if (duplicates) csp.set(DUPLICATES, new Set(['yes']));
  return csp;
}

const DANGEROUSLY_BROAD = new Set(['ftp:', 'http:', 'https:', '*', 'http://*', 'http://*.*', 'https://*', 'https://*.*']);
const UNSAFE_INLINE = new Set(["'unsafe-inline'", 'data:']);
const BROAD_OR_INLINE = new Set([...DANGEROUSLY_BROAD, ...UNSAFE_INLINE]);
const NONCE_OR_HASH = /^'(?:sha256-|sha384-|sha512-|nonce-)/;

interface CspOutcome {
  result: string;
  /** The combined policy when it could be read (the X-Frame-Options test reads frame-ancestors from it). */
  data: Map<string, Set<string>> | null;
}

function cspTest(response: ObservedResponse): CspOutcome {
  const url = new URL(response.url);
  const split = (list: string[]) => list.flatMap((v) => v.split(',').map((s) => s.trim()));
  const httpPolicies = split(headerValues(response.headers, 'content-security-policy'));
  const metaPolicies = split(response.body === undefined ? [] : elementsOf(response.body, 'meta')
    .filter((m) => m['http-equiv']?.toLowerCase().trim() === 'content-security-policy' && m.content)
    .map((m) => m.content!));
  let csp: Map<string, Set<string>>;
  try {
    csp = parseCsp([...httpPolicies, ...metaPolicies]);
  } catch {
    return { result: 'csp-header-invalid', data: null };
  }
  let headerOnly: Map<string, Set<string>>;
  try {
    headerOnly = parseCsp(httpPolicies);
  } catch {
    headerOnly = new Map();
  }
  let meta: Map<string, Set<string>>;
  try {
    meta = parseCsp(metaPolicies);
    for (const d of NOT_IN_META) meta.delete(d);
  } catch {
    meta = new Map();
  }
  if (headerOnly.size + meta.size === 0) {
    return { result: headerValues(response.headers, 'content-security-policy-report-only').length > 0 ? 'csp-not-implemented-but-reporting-enabled' : 'csp-not-implemented', data: null };
  }
  const star = () => new Set(['*']);
  const objectSrc = new Set(csp.get('object-src') ?? csp.get('default-src') ?? star());
  const scriptSrc = new Set(csp.get('script-src') ?? csp.get('default-src') ?? star());
  const styleSrc = new Set(csp.get('style-src') ?? csp.get('default-src') ?? star());
  // 'unsafe-inline' is ignored by browsers next to a nonce or hash.
  for (const list of [scriptSrc, styleSrc]) if ([...list].some((s) => NONCE_OR_HASH.test(s))) list.delete("'unsafe-inline'");
  let result: string | null = null;
  if ([...scriptSrc].some((s) => NONCE_OR_HASH.test(s)) && scriptSrc.has("'strict-dynamic'")) {
    for (const s of [...scriptSrc]) if ([...DANGEROUSLY_BROAD].some((b) => s.startsWith(b)) || s === "'self'" || s === "'unsafe-inline'") scriptSrc.delete(s);
  } else if (scriptSrc.has("'strict-dynamic'")) {
    result = 'csp-header-invalid';
  }
  const passive = ['img-src', 'media-src'];
  const active = [...csp].filter(([d]) => !passive.includes(d) && d !== 'script-src' && d !== DUPLICATES).flatMap(([, s]) => [...s]).concat([...scriptSrc]);
  const passiveSources = passive.flatMap((d) => [...(csp.get(d) ?? csp.get('default-src') ?? [])]);
  const insecure = (s: string) => s.startsWith('http:') || s.startsWith('ftp:');
  const https = url.protocol === 'https:';
  if ([...scriptSrc].some((s) => BROAD_OR_INLINE.has(s)) || [...objectSrc].some((s) => DANGEROUSLY_BROAD.has(s))) result ??= 'csp-implemented-with-unsafe-inline';
  if (https && active.some(insecure)) result ??= 'csp-implemented-with-insecure-scheme';
  if (scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'")) result ??= 'csp-implemented-with-unsafe-eval';
  if (https && passiveSources.some(insecure)) result ??= 'csp-implemented-with-insecure-scheme-in-passive-content-only';
  if ([...styleSrc].some((s) => BROAD_OR_INLINE.has(s))) result ??= 'csp-implemented-with-unsafe-inline-in-style-src-only';
  const defaultSrc = csp.get('default-src');
  if (defaultSrc?.has("'none'") && defaultSrc.size === 1) result ??= 'csp-implemented-with-no-unsafe-default-src-none';
  else result ??= 'csp-implemented-with-no-unsafe';
  const passed = ['csp-implemented-with-no-unsafe', 'csp-implemented-with-no-unsafe-default-src-none', 'csp-implemented-with-unsafe-inline-in-style-src-only', 'csp-implemented-with-insecure-scheme-in-passive-content-only'];
  if (passed.includes(result) && csp.has(DUPLICATES)) result = 'csp-implemented-but-duplicate-directives';
  csp.delete(DUPLICATES);
  // frame-ancestors counts from headers only (a meta policy cannot set it).
  if (!headerOnly.has('frame-ancestors')) csp.delete('frame-ancestors');
  return { result, data: csp };
}

// ---- cookies --------------------------------------------------------------------------------

interface Cookie {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: string | null;
}

export function parseSetCookie(header: string): Cookie {
  const [pair = '', ...attributes] = header.split(';');
  const cookie: Cookie = { name: pair.split('=')[0]!.trim(), secure: false, httpOnly: false, sameSite: null };
  for (const a of attributes) {
    const [k = '', v] = a.split('=');
    const key = k.trim().toLowerCase();
    if (key === 'secure') cookie.secure = true;
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'samesite') cookie.sameSite = (v ?? '').trim().toLowerCase();
  }
  return cookie;
}

const COOKIE_ORDER = [
  'cookies-without-secure-flag-but-protected-by-hsts',
  'cookies-without-secure-flag',
  'cookies-session-without-secure-flag-but-protected-by-hsts',
  'cookies-samesite-flag-invalid',
  'cookies-anticsrf-without-samesite-flag',
  'cookies-session-without-httponly-flag',
  'cookies-session-without-secure-flag',
];
const worse = (next: string, current: string | null) => (current === null || COOKIE_ORDER.indexOf(next) > COOKIE_ORDER.indexOf(current) ? next : current);

function cookiesTest(response: ObservedResponse, hsts: boolean): string {
  const raw = headerValues(response.headers, 'set-cookie');
  if (raw.length === 0) return 'cookies-not-found';
  let result: string | null = null;
  let missingSameSite = false;
  for (const header of raw) {
    const c = parseSetCookie(header);
    if (c.sameSite !== null && !['lax', 'strict', 'none'].includes(c.sameSite)) result = worse('cookies-samesite-flag-invalid', result);
    const session = /login|sess/i.test(c.name);
    if (!c.secure && c.sameSite === 'none') result = worse('cookies-samesite-flag-invalid', result);
    if (!c.secure) result = worse(hsts ? 'cookies-without-secure-flag-but-protected-by-hsts' : 'cookies-without-secure-flag', result);
    if (/csrf/i.test(c.name) && !c.sameSite) result = worse('cookies-anticsrf-without-samesite-flag', result);
    if (session && !c.secure) result = worse(hsts ? 'cookies-session-without-secure-flag-but-protected-by-hsts' : 'cookies-session-without-secure-flag', result);
    if (session && !c.httpOnly) result = worse('cookies-session-without-httponly-flag', result);
    if (!c.sameSite) missingSameSite = true;
  }
  return result ?? (missingSameSite ? 'cookies-secure-with-httponly-sessions' : 'cookies-secure-with-httponly-sessions-and-samesite');
}

// ---- the other tests ------------------------------------------------------------------------

function corsTest(cors: ObservatoryInput['cors']): string {
  const acao = cors ? headerValues(cors.headers, 'access-control-allow-origin')[0] : undefined;
  if (!cors || !acao) return 'cross-origin-resource-sharing-not-implemented';
  if (acao.trim().toLowerCase() === '*') return 'cross-origin-resource-sharing-implemented-with-public-access';
  const credentials = headerValues(cors.headers, 'access-control-allow-credentials')[0];
  if (acao === cors.origin && credentials?.trim().toLowerCase() === 'true') return 'cross-origin-resource-sharing-implemented-with-universal-access';
  return 'cross-origin-resource-sharing-implemented-with-restricted-access';
}

function redirectionTest(chain: ObservatoryInput['httpRedirects']): string {
  if (!chain || chain.length === 0) return 'redirection-not-needed-no-http';
  const route = chain.map((r) => new URL(r.url));
  if (route.length === 1) return 'redirection-missing';
  if (route.at(-1)!.protocol !== 'https:') return 'redirection-not-to-https';
  if (route[1]!.protocol === 'http:') return 'redirection-not-to-https-on-initial-redirection';
  if (route[0]!.protocol === 'http:' && route[1]!.protocol === 'https:' && route[0]!.hostname !== route[1]!.hostname) return 'redirection-off-host-from-http';
  return 'redirection-to-https';
}

function referrerTest(response: ObservedResponse): string {
  const good = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
  const bad = ['origin', 'origin-when-cross-origin', 'unsafe-url', 'no-referrer-when-downgrade'];
  const http = headerValues(response.headers, 'referrer-policy');
  const meta = response.body === undefined ? [] : elementsOf(response.body, 'meta').filter((m) => m.name?.toLowerCase().trim() === 'referrer' && m.content).map((m) => m.content!).slice(-1);
  if (http.length + meta.length === 0) return 'referrer-policy-not-implemented';
  const policy = [...http, ...meta].join(', ').split(',').map((p) => p.trim().toLowerCase()).filter((p) => good.includes(p) || bad.includes(p)).at(-1) ?? '';
  return good.includes(policy) ? 'referrer-policy-private' : bad.includes(policy) ? 'referrer-policy-unsafe' : 'referrer-policy-header-invalid';
}

const SIX_MONTHS = 15_552_000;

function hstsTest(response: ObservedResponse): string {
  if (new URL(response.url).protocol !== 'https:') return 'hsts-not-implemented-no-https';
  const header = headerValues(response.headers, 'strict-transport-security')[0];
  if (header === undefined) return 'hsts-not-implemented';
  const value = header.slice(0, 1024);
  if (value.includes(',')) return 'hsts-header-invalid';
  const maxAge = value.split(';').map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('max-age='));
  if (!maxAge) return 'hsts-header-invalid';
  const seconds = Number.parseInt(maxAge.slice(8, 128), 10);
  if (Number.isNaN(seconds)) return 'hsts-header-invalid';
  return seconds < SIX_MONTHS ? 'hsts-implemented-max-age-less-than-six-months' : 'hsts-implemented-max-age-at-least-six-months';
}

const SRI_ORDER = [
  'sri-implemented-and-all-scripts-loaded-securely',
  'sri-implemented-and-external-scripts-loaded-securely',
  'sri-implemented-but-external-scripts-not-loaded-securely',
  'sri-not-implemented-but-external-scripts-loaded-securely',
  'sri-not-implemented-and-external-scripts-not-loaded-securely',
  'sri-not-implemented-response-not-html',
];

function sriTest(response: ObservedResponse): string {
  const mime = (headerValues(response.headers, 'content-type')[0] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (mime && mime !== 'text/html') return 'sri-not-implemented-response-not-html';
  const scripts = elementsOf(response.body ?? '', 'script');
  const page = new URL(response.url);
  let result: string | null = null;
  let foreign = false;
  const worseSri = (next: string) => {
    result = result === null || SRI_ORDER.indexOf(next) > SRI_ORDER.indexOf(result) ? next : result;
  };
  for (const script of scripts) {
    const src = script.src;
    if (!src) continue;
    const integrity = !!script.integrity;
    const protocolRelative = /^\/\/[^/]/.test(src);
    const full = /^https?:\/\//.test(src);
    const relative = !protocolRelative && !full;
    const sameSite = protocolRelative || relative || siteOf(new URL(src).hostname) === siteOf(page.hostname);
    const secureOrigin = relative || (sameSite && !protocolRelative);
    const secureScheme = (full && new URL(src).protocol === 'https:') || (relative && page.protocol === 'https:');
    if (!secureOrigin) {
      foreign = true;
      if (integrity && !secureScheme) worseSri('sri-implemented-but-external-scripts-not-loaded-securely');
      else if (!integrity && secureScheme) worseSri('sri-not-implemented-but-external-scripts-loaded-securely');
      else if (!integrity) worseSri('sri-not-implemented-and-external-scripts-not-loaded-securely');
    } else if (integrity && secureScheme && result === null) {
      result = 'sri-implemented-and-all-scripts-loaded-securely';
    }
  }
  if (scripts.length === 0) return 'sri-not-implemented-but-no-scripts-loaded';
  return result ?? (foreign ? 'sri-implemented-and-external-scripts-loaded-securely' : 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin');
}

function xctoTest(response: ObservedResponse): string {
  const header = headerValues(response.headers, 'x-content-type-options')[0];
  if (header === undefined) return 'x-content-type-options-not-implemented';
  return header.slice(0, 256).trim().toLowerCase() === 'nosniff' ? 'x-content-type-options-nosniff' : 'x-content-type-options-header-invalid';
}

function xfoTest(response: ObservedResponse, csp: CspOutcome): string {
  if (csp.data?.has('frame-ancestors')) return 'x-frame-options-implemented-via-csp';
  const header = headerValues(response.headers, 'x-frame-options')[0];
  if (header === undefined) return 'x-frame-options-not-implemented';
  const value = header.slice(0, 1024).trim().toLowerCase();
  if (value === 'deny' || value === 'sameorigin') return 'x-frame-options-sameorigin-or-deny';
  return value.startsWith('allow-from') ? 'x-frame-options-allow-from-origin' : 'x-frame-options-header-invalid';
}

function corpTest(response: ObservedResponse): string {
  const header = headerValues(response.headers, 'cross-origin-resource-policy').join(', ').slice(0, 256).trim().toLowerCase();
  if (!header) return 'corp-not-implemented';
  return header === 'same-site' ? 'corp-implemented-with-same-site' : header === 'same-origin' ? 'corp-implemented-with-same-origin' : header === 'cross-origin' ? 'corp-implemented-with-cross-origin' : 'corp-header-invalid';
}

/** An RFC 8941 item whose bare item is a token (parameters allowed), as COOP and COEP are parsed; else null. */
function tokenOf(value: string): string | null {
  const m = /^([A-Za-z*][A-Za-z0-9!#$%&'*+\-.^_`|~:/]*)((?:\s*;\s*[a-z*][a-z0-9_\-.*]*(?:=(?:"(?:[^"\\]|\\.)*"|[A-Za-z0-9*][^;\s]*))?)*)$/.exec(value.trim());
  return m ? m[1]! : null;
}

function openerOrEmbedderTest(response: ObservedResponse, name: 'cross-origin-opener-policy' | 'cross-origin-embedder-policy', prefix: 'coop' | 'coep', values: string[]): string {
  const headers = headerValues(response.headers, name);
  if (headers.length === 0) return `${prefix}-not-implemented`;
  if (headers.length > 1) return `${prefix}-header-invalid`;
  const policy = tokenOf(headers[0]!.slice(0, 1024));
  return policy !== null && values.includes(policy) ? `${prefix}-implemented-with-${policy}` : `${prefix}-header-invalid`;
}

/** Grades a response as the HTTP Observatory would. */
export function observatoryGrade(input: ObservatoryInput): ObservatoryGrade {
  const { response } = input;
  const csp = cspTest(response);
  const hsts = hstsTest(response);
  const results: Record<string, string> = {
    'content-security-policy': csp.result,
    cookies: cookiesTest(response, hsts === 'hsts-implemented-max-age-at-least-six-months'),
    'cross-origin-resource-sharing': corsTest(input.cors),
    redirection: redirectionTest(input.httpRedirects),
    'referrer-policy': referrerTest(response),
    'strict-transport-security': hsts,
    'subresource-integrity': sriTest(response),
    'x-content-type-options': xctoTest(response),
    'x-frame-options': xfoTest(response, csp),
    'cross-origin-resource-policy': corpTest(response),
    'cross-origin-opener-policy': openerOrEmbedderTest(response, 'cross-origin-opener-policy', 'coop', ['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups', 'unsafe-none']),
    'cross-origin-embedder-policy': openerOrEmbedderTest(response, 'cross-origin-embedder-policy', 'coep', ['require-corp', 'credentialless', 'unsafe-none']),
  };
  const tests: Record<string, TestResult> = {};
  let withCredit = 100;
  let uncurved = 100;
  for (const [name, result] of Object.entries(results)) {
    const modifier = MODIFIERS[result] ?? 0;
    tests[name] = { result, modifier };
    withCredit += modifier;
    if (modifier < 0) uncurved += modifier;
  }
  const score = Math.max(uncurved >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withCredit : uncurved, 0);
  return { score, grade: gradeOf(score), tests };
}
