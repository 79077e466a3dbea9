import type { APIContext } from 'astro';
import { parseSearchRequest, parseSuggestRequest, searchSiteKey, SearchError, type SearchResult } from '../../lib/search/index.ts';
import { resolveSite } from '../../site/resolve-site.ts';
import { getLogger } from '../../lib/log/index.ts';
import { json } from '../../lib/http/json.ts';
import { apiContext } from '../platform/context.ts';

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
    const api = apiContext(locals);
    const backend = await api.search();
    // Sites on their own host and the main site all have an empty slug: the host decides.
    const system = api.system as typeof api.system | undefined;
    const site = system ? resolveSite(system.sites, url.host, query.siteSlug || undefined).site : null;
    const scoped = { ...query, siteSlug: site ? searchSiteKey(site) : query.siteSlug };
    const result: SearchResult = kind === 'search' ? await backend.search(scoped) : await backend.suggest(scoped);
    return json(result, 200);
  } catch (err) {
    if (err instanceof SearchError) {
      if (err.status >= 500) log.error(`${kind} failed: ${err.message}`);
      return json({ error: err.message }, err.status);
    }
    log.error({ err }, `${kind} failed`);
    return json({ error: 'The search service failed' }, 502);
  }
}
