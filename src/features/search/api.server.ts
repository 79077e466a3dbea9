import type { APIContext } from 'astro';
import { isSearchError, parseSearchRequest, parseSuggestRequest } from '../../lib/search/index.ts';
import { getLogger } from '../../lib/log/index.ts';
import { json } from '../../lib/http/json.ts';
import { apiContext } from '../platform/context.ts';
import { searchOnHost } from './search.server.ts';

const log = getLogger('search');

/**
 * POST /api/search-proxy/{search,suggest}: validates the body (400 with a clear message, never a
 * 500), maps `siteSlug` to the index of the site on this host, and passes backend errors on with
 * their status (503 when no index is loaded, 502 when the engine fails).
 */
export async function handleSearch(kind: 'search' | 'suggest', { request, locals, url }: APIContext): Promise<Response> {
  if (!(request.headers.get('content-type') ?? '').includes('application/json')) {
    return json({ error: 'Send the request as application/json' }, 415);
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return json({ error: 'The request body is not valid JSON' }, 400);
  }
  try {
    const query = kind === 'search' ? parseSearchRequest(body) : parseSuggestRequest(body);
    return json(await searchOnHost(kind, apiContext(locals), url.host, query), 200);
  } catch (err) {
    if (isSearchError(err)) {
      if (err.status >= 500) log.error(`${kind} failed: ${err.message}`);
      return json({ error: err.message }, err.status);
    }
    log.error({ err }, `${kind} failed`);
    return json({ error: 'The search service failed' }, 502);
  }
}
