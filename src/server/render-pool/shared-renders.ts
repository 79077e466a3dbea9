/**
 * Renders that are the same for every visitor, kept per live release (issue 31, item 2): the
 * customer-area shells per locale (their islands load the visitor's data with the bearer token
 * in the browser: the HTML holds nothing of the visitor) and the 404 page per site × locale, in
 * which only the path differs (the language menu links the same path in every other locale).
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
  /** The middleware's resolution: the 404 page, or a page (its path below locale and site slug). */
  notFound: boolean;
  pagePath: string | null;
  siteId: string;
  /** The locale segment of the URL (`en`, `de-ch`). */
  localeSegment: string;
  /** Whether the page is the customer area's (and the site has it: not misplaced). */
  customerShell: boolean;
  /** The published stage and the server's cache (no draft preview, no operator parameter, no test or next-release flag). */
  plain: boolean;
}

export interface SharedKey {
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
  if (r.notFound) {
    const tail = r.url.pathname.slice(1 + r.localeSegment.length);
    if (r.url.pathname.split('/')[1] !== r.localeSegment || tail.length < MIN_TAIL || !PLAIN_TAIL.test(tail)) return null;
    return { key: `404\n${base}`, fill: tail };
  }
  if (r.customerShell && r.pagePath !== null) return { key: `shell\n${base}\n${r.url.pathname}`, fill: null };
  return null;
}

interface Captured {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** The body split where the fill was (one part when there is no fill). */
  parts: string[];
}

interface Entry {
  candidate: Captured | null;
  fill: string | null;
  confirmed: boolean;
  /** Second renders that did not match their candidate. */
  mismatches: number;
}

const GIVE_UP_AFTER = 3;

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

  /** The kept answer for this key with this request's fill, once confirmed. */
  get(releaseId: string, shared: SharedKey): Response | null {
    const entry = this.forRelease(releaseId).get(shared.key);
    if (!entry?.confirmed || !entry.candidate) return null;
    this.hits++;
    return responseOf(entry.candidate, shared.fill);
  }

  /**
   * Takes a fresh render of a shareable request: a candidate, or the proof of one. Returns the
   * answer to send (the same status, headers and body, read into memory).
   */
  async offer(releaseId: string, shared: SharedKey, res: Response): Promise<Response> {
    const captured = await capture(res, shared.fill);
    const entries = this.forRelease(releaseId);
    const answer = responseOf(captured, shared.fill);
    // An answer that sets a cookie, or is not a page, is this visitor's alone.
    const shareable = !captured.headers.some(([name]) => name === 'set-cookie') && (captured.status === 200 || captured.status === 404);
    let entry = entries.get(shared.key);
    if (!shareable || (entry && entry.mismatches >= GIVE_UP_AFTER)) return answer;
    if (!entry) {
      if (entries.size >= this.maxEntries) return answer;
      entry = { candidate: null, fill: null, confirmed: false, mismatches: 0 };
      entries.set(shared.key, entry);
    }
    if (entry.candidate && !entry.confirmed) {
      // The proof needs another request (another path, for a 404): the same render again proves nothing new.
      const different = shared.fill === null || shared.fill !== entry.fill;
      if (!different) return answer;
      if (sameAnswer(entry.candidate, captured, shared.fill)) {
        entry.confirmed = true;
        return answer;
      }
      entry.mismatches++;
    }
    if (!entry.confirmed) {
      entry.candidate = captured;
      entry.fill = shared.fill;
    }
    return answer;
  }
}

async function capture(res: Response, fill: string | null): Promise<Captured> {
  const body = await res.text();
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers.push([name, value]);
  });
  for (const cookie of res.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  return { status: res.status, statusText: res.statusText, headers, parts: fill ? body.split(fill) : [body] };
}

function sameAnswer(candidate: Captured, fresh: Captured, fill: string | null): boolean {
  return candidate.status === fresh.status
    && JSON.stringify(candidate.headers) === JSON.stringify(fresh.headers)
    && candidate.parts.join(fill ?? '') === fresh.parts.join(fill ?? '');
}

function responseOf(c: Captured, fill: string | null): Response {
  const headers = new Headers();
  for (const [name, value] of c.headers) headers.append(name, value);
  return new Response(c.parts.join(fill ?? ''), { status: c.status, statusText: c.statusText, headers });
}
