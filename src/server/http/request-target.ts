/**
 * The request target (`/path?query` of the request line), checked once at the edge before any
 * routing: bounded in length, and a path that could mean another path to a lower layer (dot
 * segments, encoded or double-encoded slashes and backslashes, NUL and other control
 * characters) is refused outright rather than normalised. Browsers never send such paths (they
 * resolve dot segments and turn `\` into `/` before sending), so only hand-made requests get
 * these answers; every answer is a 4xx with a message saying what was wrong.
 */

/** Longest path (before `?`) we route: far above any route of the sites (the longest slugs are ~150). */
export const MAX_PATH_LENGTH = 2048;
/** Longest query string (after `?`): room for `/_image?href=` with its 2048-character href and the other parameters. */
export const MAX_QUERY_LENGTH = 4096;
/**
 * Bytes of the request line and all headers together (node:http `maxHeaderSize`); Node answers
 * more with 431 before any of our code runs (see `clientErrorAnswer` in main.ts).
 */
export const MAX_HEADER_BYTES = 16 * 1024;

export type TargetCheck = { ok: true } | { ok: false; status: 400 | 414; message: string };

const bad = (message: string): TargetCheck => ({ ok: false, status: 400, message });

// Control characters (NUL included) are exactly what this check refuses.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A percent-encoded `.`, `/`, `\` or NUL left after one decoding: the path was encoded twice. */
const DOUBLE_ENCODED = /%(?:2e|2f|5c|00)/i;

/**
 * Checks an origin-form request target.
 *
 * @example checkRequestTarget('/en/about-us?x=1') // { ok: true }
 * @example checkRequestTarget('/en/..%2f..%2fetc/passwd') // { ok: false, status: 400, message: 'Bad request: encoded slashes …' }
 */
export function checkRequestTarget(target: string | undefined): TargetCheck {
  if (target === undefined || !target.startsWith('/')) return bad('Bad request: the request target must be a path starting with /.');
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q + 1);
  if (path.length > MAX_PATH_LENGTH) return { ok: false, status: 414, message: `URI too long: the path has more than ${MAX_PATH_LENGTH} characters.` };
  if (query.length > MAX_QUERY_LENGTH) return { ok: false, status: 414, message: `URI too long: the query string has more than ${MAX_QUERY_LENGTH} characters.` };
  if (CONTROL.test(target)) return bad('Bad request: control characters are not allowed in the request target.');
  for (const segment of path.slice(1).split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return bad('Bad request: the path has a malformed percent-encoding.');
    }
    if (decoded === '.' || decoded === '..') return bad('Bad request: dot segments (. and ..) are not allowed in the path.');
    if (decoded.includes('\\')) return bad('Bad request: backslashes are not allowed in the path.');
    if (decoded.includes('/')) return bad('Bad request: encoded slashes are not allowed in the path.');
    if (CONTROL.test(decoded)) return bad('Bad request: control characters (such as NUL) are not allowed in the path.');
    if (DOUBLE_ENCODED.test(decoded)) return bad('Bad request: double-encoded characters are not allowed in the path.');
  }
  return { ok: true };
}
