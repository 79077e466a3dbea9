/**
 * Replaces the ticketing service's absolute file addresses in an answer (an attachment's `url`, a
 * package version's `downloadUrl`) with same-origin download links: the browser can neither reach
 * the service nor send it the identity token. Strings under the service's origin that are not
 * files are left alone; so is everything else.
 *
 * @example rewriteFileUrls({ url: 'http://127.0.0.1:4103/attachments/att-1' }, 'http://127.0.0.1:4103', (p) => `/dl${p}`)
 *   // { url: '/dl/attachments/att-1' }
 */
export function rewriteFileUrls(value: unknown, upstreamOrigin: string, link: (path: string) => string): unknown {
  const prefixes = [`${upstreamOrigin}/attachments/`, `${upstreamOrigin}/downloads/`];
  const walk = (x: unknown): unknown => {
    if (typeof x === 'string') return prefixes.some((p) => x.startsWith(p)) ? link(x.slice(upstreamOrigin.length)) : x;
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, val]) => [k, walk(val)]));
    return x;
  };
  return walk(value);
}
