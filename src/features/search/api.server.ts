import type { APIContext } from 'astro';
import { isSearchError, parseSearchRequest, parseSuggestRequest } from '../../lib/search/index.ts';
import { getLogger } from '../../lib/log/index.ts';
import { json } from '../../lib/http/json.ts';
import { RETRY_AFTER_SECONDS } from '../../site/error-page.ts';
import { JSON_TYPE, readJsonBody } from '../../lib/http/body.ts';
import { endpoint, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { apiContext } from '../platform/context.ts';
import { searchOnHost } from './search.server.ts';

const log = getLogger('search');

/** What the API says when the search has no index loaded (503) or its engine fails (502). */
export const SEARCH_UNAVAILABLE = 'The search is not available right now. Please try again in a moment.';
export const SEARCH_FAILED = 'The search service failed. Please try again in a moment.';

/** The largest search or suggest request: a query of MAX_QUERY_CHARS with every filter fits many times over. */
export const SEARCH_MAX_BODY = 16 * 1024;

/** Reads only: no rate limit (the search backend is the bottleneck, measured by npm run bench:load). */
export const SEARCH_LIMITS: EndpointLimits = { body: { maxBytes: SEARCH_MAX_BODY, types: [JSON_TYPE] } };

/** POST /api/search-proxy/search and /suggest, behind their declared limits. */
export const postSearch = endpoint(SEARCH_LIMITS, (context: APIContext) => handleSearch('search', context));
export const postSuggest = endpoint(SEARCH_LIMITS, (context: APIContext) => handleSearch('suggest', context));

/**
 * POST /api/search-proxy/{search,suggest}: validates the body (400 with a clear message, never a
 * 500), maps `siteSlug` to the index of the site on this host, and passes backend errors on with
 * their status (503 when no index is loaded, 502 when the engine fails).
 */
export async function handleSearch(kind: 'search' | 'suggest', { request, locals, url }: APIContext): Promise<Response> {
  // Bounded: a body over the limit is refused by its declared length before it is read, or as soon as it passes the limit.
  const read = await readJsonBody(request, SEARCH_MAX_BODY);
  if (read.kind === 'unsupported') return json({ error: 'unsupported-media-type', message: 'Send the request as application/json' }, 415);
  if (read.kind === 'too-large') return json({ error: 'too-large', message: `The request body is too large: at most ${SEARCH_MAX_BODY.toLocaleString('en')} bytes.` }, 413);
  if (read.kind === 'malformed') return json({ error: 'bad-request', message: 'The request body is not valid JSON' }, 400);
  const body = read.value;
  try {
    const query = kind === 'search' ? parseSearchRequest(body) : parseSuggestRequest(body);
    return json(await searchOnHost(kind, apiContext(locals), url.host, query), 200);
  } catch (err) {
    if (isSearchError(err)) {
      if (err.status < 500) return json({ error: err.code, message: err.message }, err.status);
      // The engine's own words (its address, an index folder, its error body) stay in the log.
      log.error(`${kind} failed: ${err.message}`);
      if (err.status !== 503) return json({ error: 'bad-gateway', message: SEARCH_FAILED }, err.status);
      const res = json({ error: 'unavailable', message: SEARCH_UNAVAILABLE }, 503);
      res.headers.set('Retry-After', String(RETRY_AFTER_SECONDS));
      return res;
    }
    log.error({ err }, `${kind} failed`);
    return json({ error: 'bad-gateway', message: SEARCH_FAILED }, 502);
  }
}
