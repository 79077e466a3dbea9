import { Agent, setGlobalDispatcher } from 'undici';
import type { UpstreamTimeouts } from '../../lib/http/timeouts.ts';
import { resolveTimeouts } from '../../lib/http/timeouts.ts';

/**
 * Bounds every plain `fetch` of the server process like the service clients' own calls
 * (src/lib/http/timeouts.ts): a connection within `connectTimeoutMs`, the answer's headers and
 * each pause in its body within `timeoutMs`. The clients in src/lib bring their own timeouts; this
 * covers the calls that have none, above all Astro's image endpoint fetching a remote image from
 * the asset store for `/_image` (a hanging asset store would otherwise hold the request for
 * undici's default 300 s).
 */
export function boundGlobalFetch(timeouts?: UpstreamTimeouts): Agent {
  const t = resolveTimeouts(timeouts);
  const agent = new Agent({ connect: { timeout: t.connectTimeoutMs }, headersTimeout: t.timeoutMs, bodyTimeout: t.timeoutMs });
  setGlobalDispatcher(agent);
  return agent;
}
