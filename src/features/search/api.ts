import type { APIContext } from 'astro';
import { parseSearchRequest, parseSuggestRequest, searchSiteKey, SearchError, type SearchResult } from '../../lib/search/index.ts';
import { resolveSite } from '../../site/resolve-site.ts';
import { getLogger } from '../../lib/log/index.ts';
import { searchBackend } from './backend.ts';

const log = getLogger('search');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' } });

/**
 * POST /api/search-proxy/{search,suggest}: validates the body (400 with a clear message, never a
 * 500), maps `siteSlug` to the index of the site on this host, and passes backend errors on with
 * their status (503 when no index is loaded, 502 when the engine fails).
 */
export async function handleSearch(kind: 'search' | 'suggest', { request, locals, url }: APIContext): Promise<Response> {
  if (!(request.headers.get('content-type') ?? '').includes('application/json')) {
    return json(415, { error: 'Send the request as application/json' });
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return json(400, { error: 'The request body is not valid JSON' });
  }
  try {
    const query = kind === 'search' ? parseSearchRequest(body) : parseSuggestRequest(body);
    const backend = await searchBackend(locals);
    // Sites on their own host and the main site all have an empty slug: the host decides.
    const system = locals.system;
    const site = system ? resolveSite(system.sites, url.host, query.siteSlug || undefined).site : null;
    const scoped = { ...query, siteSlug: site ? searchSiteKey(site) : query.siteSlug };
    const result: SearchResult = kind === 'search' ? await backend.search(scoped) : await backend.suggest(scoped);
    return json(200, result);
  } catch (err) {
    if (err instanceof SearchError) {
      if (err.status >= 500) log.error(`${kind} failed: ${err.message}`);
      return json(err.status, { error: err.message });
    }
    log.error({ err }, `${kind} failed`);
    return json(502, { error: 'The search service failed' });
  }
}
