import type { IncomingMessage } from 'node:http';
import { DELIVERY } from '../prerender/policies.ts';
import { EDITOR_COOKIE } from '../../features/editor/session.server.ts';

/**
 * What stays on the serving thread although a render thread could take it:
 * - APIs (`/api/…`): cheap, and they hold this process's state (rate limits, idempotency keys,
 *   the search engine, upload streams);
 * - `/_image` and `/file/…`: binaries with their own cache, ranges and streaming;
 * - the editor area and any request carrying the editor's or the draft preview's cookie, or a
 *   query (the editor's handoff token is one; policies' parameters are others): they read or
 *   write the editor sessions, which without REDIS_URL live in this thread's memory only;
 * - any method but GET and HEAD (a body to stream, a side effect).
 */
const MAIN_THREAD_PATH = /^\/(?:api|_image|file)(?:\/|$)|^\/[^/]+\/editor(?:\/|$)/i;
const EDITOR_COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${EDITOR_COOKIE}=`);

/** Whether a render thread may render this on-demand request (its answer is the same as on this thread's). */
export function threadable(req: IncomingMessage): boolean {
  const { method, url } = req;
  if ((method !== 'GET' && method !== 'HEAD') || url === undefined || url.includes('?')) return false;
  if (MAIN_THREAD_PATH.test(url)) return false;
  const cookie = req.headers.cookie;
  return cookie === undefined || (!DELIVERY.hasDynamicCookie(cookie) && !EDITOR_COOKIE_PATTERN.test(cookie));
}
