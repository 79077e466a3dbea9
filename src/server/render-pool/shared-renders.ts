import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiateEncoding, worthCompressing, type Encoding } from '../delivery/encoding.ts';

/**
 * Renders that are the same for every visitor, kept per live release (issue 31, item 2): the
 * customer-area shells per locale (their islands load the visitor's data with the bearer token
 * in the browser: the HTML holds nothing of the visitor) and the 404 page per route × site ×
 * locale, in which only the path differs (the language menu links the same path in every other
 * locale); a route asks for it once it finds no page (features/platform/context.ts notFoundAnswer).
 * A kept answer is held as bytes; a shell's also brotli- and gzip-compressed, once, so that
 * answering it costs neither a render nor a compression (the serving thread passes an answer
 * with its own Content-Encoding through).
 *
 * Nothing is kept on trust: a first render is only a candidate; a second request for the same key
 * is rendered too, and the candidate is kept only when it gives exactly that second answer
 * (status, every header, the body with the second path filled in). Two visitors' renders being
 * the same is what proves nothing personal is in it. A key whose renders keep differing is given
 * up for the release. A new live release (another release id) drops everything.
 */

/** What a request must be for its render to be shared: see {@link sharedRenderKey}. */
export interface SharedRenderRequest {
  method: string;
  url: URL;
  headers: Headers;
  /** The live release the render belongs to (`locals.releaseId`). */
  releaseId: string;
  pagePath: string | null;
  siteId: string;
  /** The locale segment of the URL (`en`, `de-ch`). */
  localeSegment: string;
  /** Whether the page is the customer area's (and the site has it: not misplaced). */
  customerShell: boolean;
  /** The published stage and the server's cache (no draft preview, no operator parameter, no test or next-release flag). */
  plain: boolean;
  /** The route pattern that renders it: each route's 404 page is its own (its policy may allow other inline styles). */
  route: string;
}

export interface SharedKey {
  /** A 404 (kept per route × site × locale; only an answer with status 404 is offered) or a customer-area shell. */
  kind: '404' | 'shell';
  key: string;
  /** The part of the HTML that differs per request (the 404's path below the locale), or null. */
  fill: string | null;
}

/** Cookies every visitor's page may read that change nothing of the shared renders but their key. */
const KEYED_COOKIES = ['locale', 'measurement'] as const;
/** A path below the locale that needs no escaping in HTML or URLs, long enough to be found only where the path is. */
const PLAIN_TAIL = /^(?:\/[A-Za-z0-9._~-]+)+$/;
const MIN_TAIL = 6;

function cookiePairs(header: string | null): Map<string, string> | null {
  const pairs = new Map<string, string>();
  if (!header) return pairs;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const name = (eq === -1 ? part : part.slice(0, eq)).trim();
    if (!name) continue;
    // Any other cookie may be read by some part of the page (a grant, a flag, an editor): not shared.
    if (!(KEYED_COOKIES as readonly string[]).includes(name)) return null;
    pairs.set(name, eq === -1 ? '' : part.slice(eq + 1).trim());
  }
  return pairs;
}

/** The key of a request whose render may be shared, or null (rendered for this request alone). */
export function sharedRenderKey(r: SharedRenderRequest): SharedKey | null {
  if ((r.method !== 'GET' && r.method !== 'HEAD') || !r.plain || r.url.search || r.headers.has('authorization')) return null;
  const cookies = cookiePairs(r.headers.get('cookie'));
  if (!cookies) return null;
  const base = [r.url.host, r.siteId, r.localeSegment, ...KEYED_COOKIES.map((c) => `${c}=${cookies.get(c) ?? ''}`)].join('\n');
  if (r.customerShell && r.pagePath !== null) return { kind: 'shell', key: `shell\n${base}\n${r.url.pathname}`, fill: null };
  // Any other page may turn out to be the 404 page: only its route knows (only a 404 is offered).
  const tail = r.url.pathname.slice(1 + r.localeSegment.length);
  if (r.url.pathname.split('/')[1] !== r.localeSegment || tail.length < MIN_TAIL || !PLAIN_TAIL.test(tail)) return null;
  return { kind: '404', key: `404\n${r.route}\n${base}`, fill: tail };
}

interface Captured {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** The body split where the fill was (one part when there is no fill), as UTF-8. */
  parts: Uint8Array<ArrayBuffer>[];
  /** The body compressed, per coding (only without a fill: made on first use). */
  encoded: Partial<Record<Exclude<Encoding, 'identity'>, Uint8Array<ArrayBuffer>>>;
}

interface Entry {
  candidate: Captured | null;
  fill: string | null;
  /** Two requests with different fills (or a shell's two requests) got the same render: answered for any fill. */
  confirmed: boolean;
  /** The candidate's own path got the same render twice: answered for that fill alone (a broken link asked again and again). */
  exact: boolean;
  /** Second renders that did not match their candidate. */
  mismatches: number;
}

const GIVE_UP_AFTER = 3;

/** The Server-Timing metric of an answer given from a kept render (no render, no compression). */
export const KEPT_TIMING = 'kept-render';

export interface SharedRendersOptions {
  /** Keys kept per release (site × locale × cookie values × shell paths); past it nothing new is kept. */
  maxEntries?: number;
}

export class SharedRenders {
  private release: string | null = null;
  private entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  /** Answers given from a kept render, for tests and the bench. */
  hits = 0;

  constructor(opts: SharedRendersOptions = {}) {
    this.maxEntries = opts.maxEntries ?? 2000;
  }

  get size(): number {
    return this.entries.size;
  }

  private forRelease(releaseId: string): Map<string, Entry> {
    if (releaseId !== this.release) {
      this.release = releaseId;
      this.entries = new Map();
    }
    return this.entries;
  }

  /**
   * The kept answer for this key with this request's fill, once confirmed; compressed in the
   * coding `acceptEncoding` asks for when it has no fill.
   */
  get(releaseId: string, shared: SharedKey, acceptEncoding?: string | null): Response | null {
    const entry = this.forRelease(releaseId).get(shared.key);
    if (!entry?.candidate || !(entry.confirmed || (entry.exact && shared.fill === entry.fill))) return null;
    this.hits++;
    const res = shared.fill === null ? encodedResponse(entry.candidate, acceptEncoding ?? undefined) : responseOf(entry.candidate, shared.fill);
    // How it was made, for operators and the checks (scripts/check-render-threads.ts).
    res.headers.append('Server-Timing', KEPT_TIMING);
    return res;
  }

  /**
   * Takes a fresh render of a shareable request: a candidate, or the proof of one. Returns the
   * answer to send (the same status, headers and body, read into memory).
   */
  async offer(releaseId: string, shared: SharedKey, res: Response): Promise<Response> {
    const captured = await capture(res, shared.fill);
    const entries = this.forRelease(releaseId);
    const answer = responseOf(captured, shared.fill);
    // An answer that sets a cookie, or is not the page the key is for, is this visitor's alone.
    const shareable = !captured.headers.some(([name]) => name === 'set-cookie') && captured.status === (shared.kind === '404' ? 404 : 200);
    let entry = entries.get(shared.key);
    if (!shareable || (entry && entry.mismatches >= GIVE_UP_AFTER)) return answer;
    if (!entry) {
      if (entries.size >= this.maxEntries) return answer;
      entry = { candidate: null, fill: null, confirmed: false, exact: false, mismatches: 0 };
      entries.set(shared.key, entry);
    }
    if (entry.candidate && !entry.confirmed) {
      if (sameAnswer(entry.candidate, captured)) {
        // A 404's template is proven by another path only; the same path again proves that path.
        if (shared.fill === null || shared.fill !== entry.fill) entry.confirmed = true;
        else entry.exact = true;
        return answer;
      }
      entry.mismatches++;
    }
    if (!entry.confirmed) {
      entry.candidate = captured;
      entry.fill = shared.fill;
      entry.exact = false;
    }
    return answer;
  }
}

const utf8 = new TextEncoder();

async function capture(res: Response, fill: string | null): Promise<Captured> {
  const body = await res.text();
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => {
    // The framing is each answer's own (a kept answer may have another path filled in, or be compressed).
    if (name !== 'set-cookie' && name !== 'content-length' && name !== 'transfer-encoding') headers.push([name, value]);
  });
  for (const cookie of res.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  return { status: res.status, statusText: res.statusText, headers, parts: (fill ? body.split(fill) : [body]).map((p) => utf8.encode(p)), encoded: {} };
}

function sameAnswer(candidate: Captured, fresh: Captured): boolean {
  return candidate.status === fresh.status
    && JSON.stringify(candidate.headers) === JSON.stringify(fresh.headers)
    && candidate.parts.length === fresh.parts.length
    && candidate.parts.every((part, i) => Buffer.compare(part, fresh.parts[i]!) === 0);
}

function headersOf(c: Captured): Headers {
  const headers = new Headers();
  for (const [name, value] of c.headers) headers.append(name, value);
  return headers;
}

function responseOf(c: Captured, fill: string | null): Response {
  const body = c.parts.length === 1 ? c.parts[0]! : Buffer.concat(c.parts.flatMap((part, i) => (i ? [utf8.encode(fill ?? ''), part] : [part])));
  return new Response(body, { status: c.status, statusText: c.statusText, headers: headersOf(c) });
}

/** Compresses as the serving thread would on the fly (a little harder: it is done once). */
const COMPRESS: Record<Exclude<Encoding, 'identity'>, (body: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>> = {
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } }),
  gzip: (body) => gzipSync(body, { level: 9 }),
};

/**
 * A kept answer without a fill in the coding the client accepts (the serving thread passes an
 * answer that has a Content-Encoding through as it is); as it is when it is not worth it (the
 * rules of the serving thread's own compression: a text type, 1 KB at least, no `no-transform`).
 */
function encodedResponse(c: Captured, acceptEncoding: string | undefined): Response {
  const body = c.parts[0]!;
  const headers = headersOf(c);
  const worth = worthCompressing(c.status, (name) => (name === 'content-length' ? String(body.byteLength) : headers.get(name)));
  // Vary: Accept-Encoding is the serving thread's to add, as for every text answer.
  if (!worth) return new Response(body, { status: c.status, statusText: c.statusText, headers });
  const coding = negotiateEncoding(acceptEncoding);
  if (coding === 'identity') return new Response(body, { status: c.status, statusText: c.statusText, headers });
  const encoded = (c.encoded[coding] ??= COMPRESS[coding](body));
  headers.set('Content-Encoding', coding);
  return new Response(encoded, { status: c.status, statusText: c.statusText, headers });
}
