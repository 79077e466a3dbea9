/**
 * The nginx configuration of the edge (`npm run start:edge`), generated from one release: a pure
 * function of the release's rules, the site configuration the server applies (security headers,
 * the features' delivery policies) and where things are (release folder, build assets, upstream
 * ports). The same decision the Node server makes per request (app-server.ts) is made here, so a
 * request gets the same answer whichever of the two answers it:
 *
 * - a GET or HEAD of a route the release prerendered, for a known site host, without a query
 *   parameter or cookie a feature's policy makes dynamic, without `X-Forwarded-Proto` and with a
 *   plain request target: the file, its `.br` (brotli module loaded) or `.gz` sibling when
 *   accepted, the page's own CSP (from the build meta, with the header-only directives), its
 *   fingerprint as ETag, the security headers;
 * - a host's own files (payloads, build manifests, sitemap) and the build assets: the file;
 * - anything else, and every miss: the Node upstreams, so on-demand pages, APIs, redirects and the
 *   404 page are the app's. A connection failure is retried on the next upstream (idempotent
 *   requests only: nginx never re-sends a POST it has sent).
 *
 * The routes and CSPs are per release, so the configuration is too: it names the release folder
 * (not the `live` link), and the edge writes a new one and reloads nginx gracefully when `live`
 * changes (edge/nginx.ts). A request is thus answered from one release, never a mix of two.
 */
import { SECURITY_HEADERS, FALLBACK_CSP, CACHE_HTML, CACHE_IMMUTABLE, withHeaderOnlyDirectives } from '../http/headers.ts';

/** One host's prerendered routes: path → fingerprint and CSP (the build meta's `routes`). */
export type HostRoutes = Record<string, { fingerprint: string; csp: string | null }>;

export interface EdgeRelease {
  /** The release id (for the comment at the top, and to tell configurations apart). */
  id: string;
  /** Absolute folder of the release (`<static>/releases/<id>`): one tree per host below it. */
  dir: string;
  /** The main site's host (where unknown hosts go: left to Node). */
  main: string | null;
  /** Routes per site host. */
  hosts: Record<string, HostRoutes>;
}

export interface EdgeConfigInput {
  release: EdgeRelease | null;
  /** Where nginx listens. */
  listen: { host: string; port: number };
  /** Loopback ports of the Node instances. */
  upstreams: number[];
  /** The build's assets (`dist/client`). */
  clientDir: string;
  /** nginx's own folder (pid, logs, temporary files): git-ignored, one per edge. */
  prefix: string;
  /** Query parameters and cookies that make a page dynamic (prerender/policies.ts DELIVERY). */
  dynamicParams: readonly string[];
  dynamicCookies: readonly string[];
  /** The user the workers run as when nginx is started as root (nginx needs one then). */
  user?: string;
  /** Worker processes (default `auto`: one per core). */
  workers?: number | 'auto';
  /**
   * The brotli_static module (Debian's libnginx-mod-http-brotli-static), loaded when given: a
   * client accepting br gets the `.br` sibling, as from Node. Without it, gzip.
   */
  brotliModule?: string | null;
  /**
   * The workers' scheduling priority (`worker_priority`, a nice value; 0 or none: the default).
   * Beside the Node instances on the same cores, a positive value lets a render or a search go
   * first: a static answer costs the edge a few µs, and waits a little longer instead.
   */
  workerPriority?: number;
  /** `worker_rlimit_nofile` (see workerNofileFrom); none: the limit nginx was started with. */
  workerNofile?: number | null;
}

/**
 * The edge's workers' nice value when its instances share the machine (scripts/edge.ts): measured
 * with `npm run bench:load -- --edge` (docs/operations.md, "Scaling out").
 */
export const CO_LOCATED_WORKER_PRIORITY = 5;

/** EDGE_WORKER_PRIORITY: a nice value from -20 to 19; unset or empty: `fallback`. */
export function workerPriorityFrom(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < -20 || n > 19) throw new Error(`EDGE_WORKER_PRIORITY must be a whole number from -20 to 19 (a nice value), not ${JSON.stringify(value)}`);
  return n;
}

/** Open descriptors of release files kept per worker (open_file_cache), and the descriptor limit the workers ask for. */
export const OPEN_FILE_CACHE_MAX = 8192;
export const WORKER_NOFILE = 32768;

/** The open file cache's size under a descriptor limit: at most half of it (the rest for connections). */
export const openFileCacheMax = (nofile: number | null | undefined): number => (nofile ? Math.min(OPEN_FILE_CACHE_MAX, Math.floor(nofile / 2)) : OPEN_FILE_CACHE_MAX);

/**
 * The workers' descriptor limit for `worker_rlimit_nofile`: WORKER_NOFILE, or the hard limit the
 * edge runs under when that is lower (a worker may not raise it: nginx logs an alert and keeps its
 * limit). `limits` is /proc/self/limits; null when it says nothing (the directive is left out).
 */
export function workerNofileFrom(limits: string | null): number | null {
  const hard = limits ? /^Max open files\s+\S+\s+(\S+)/m.exec(limits)?.[1] : undefined;
  if (hard === undefined) return null;
  return hard === 'unlimited' ? WORKER_NOFILE : Math.min(WORKER_NOFILE, Number(hard) || WORKER_NOFILE);
}

/** Query parameters only a privileged request uses (app-server.ts OPERATOR_PARAMS): Node decides. */
const OPERATOR_PARAMS = ['cache'];

/**
 * A double-quoted nginx string. nginx expands `$name` in most values and has no escape for `$`,
 * so a literal `$` is written as `${edge_dollar}` (a variable that is a dollar sign).
 */
export function quote(value: string): string {
  if (/[\r\n]/.test(value)) throw new Error(`A value for nginx has a line break: ${JSON.stringify(value)}`);
  return `"${value.replace(/[\\"]/g, '\\$&').replace(/\$/g, '${edge_dollar}')}"`;
}

/** A map key (never expanded by nginx: only quotes and backslashes escaped). */
const quoteKey = (key: string) => `"${key.replace(/[\\"]/g, '\\$&')}"`;

/** A regex for a map key (a `~` key): quoted, its backslashes kept (nginx unescapes only `\\` and `\"`). */
const regexKey = (re: string) => `"~${re.replace(/"/g, '\\"')}"`;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The query a policy makes dynamic (any of `params` as a name, with or without a value) or one
 * with a percent-encoding (a name Node would decode): PCRE, the same in JavaScript.
 */
export function dynamicArgsPattern(params: readonly string[]): string {
  return params.length ? `(?:^|&)(?:${params.map(escapeRe).join('|')})(?:=|&|$)|%` : '%';
}

/** A Cookie header carrying a cookie a policy makes dynamic (as prerender/policies.ts tests it); null: none. */
export function dynamicCookiePattern(cookies: readonly string[]): string | null {
  return cookies.length ? `(?:^|;\\s*)(?:${cookies.map(escapeRe).join('|')})=` : null;
}

/** A request target Node refuses or reads differently (encoded bytes, dot segments, empty segments, backslashes). */
export const ODD_TARGET_PATTERN = '%|//|/\\.|\\x5c';

/** A power of two at least `n` (nginx hash sizes). */
const pow2 = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(n, 1)));

/** The security headers, the CSP and the request id nginx adds to what it serves itself. */
function staticHeaders(csp: string, extra: Record<string, string>): string[] {
  const lines = Object.entries(SECURITY_HEADERS).map(([k, v]) => `add_header ${k} ${quote(v)} always;`);
  lines.push(`add_header Content-Security-Policy ${csp} always;`);
  for (const [k, v] of Object.entries(extra)) lines.push(`add_header ${k} ${v} always;`);
  lines.push('add_header X-Request-Id $edge_request_id always;');
  return lines;
}

const indent = (lines: string[], n: number) => lines.map((l) => (l ? `${' '.repeat(n)}${l}` : l)).join('\n');

// --- edge cache (issue 31) -----------------------------------------------------------------------
// Answers that are the same for every visitor of a release, kept by nginx so a repeat costs no
// Node render: the search API's (public: a function of the host, the address, the JSON body and
// the accepted coding; the index is the release's) and permanent redirects (trailing slashes, CMS
// redirects: a function of the address; kept a minute, since CMS redirects come from live content).
// Never per user: a request with any cookie, an Authorization header or a query goes past the
// cache and is not stored; an answer setting a cookie is not stored (nginx's own rule); Node's
// Cache-Control is obeyed for redirects (a no-store one is not kept).

/** The search API's routes, answered from the edge cache (POST: nginx's cache key includes the body). */
export const EDGE_CACHED_API_PATTERN = '^/api/search-proxy/(?:search|suggest)$';
/** Larger than the search API's body limit (SEARCH_MAX_BODY, 16 KB): a body it accepts is in memory, so in the key. */
export const EDGE_CACHE_BODY_BUFFER = '32k';
/** The cache key of a request in release `id`: everything an answer may depend on, the release first. */
export const edgeCacheKey = (id: string, body: boolean) => `${quote(`${id}|`).slice(0, -1)}$http_x_forwarded_proto|$http_host|$request_uri${body ? '|$http_accept_encoding|$request_body' : '|$http_accept_encoding'}"`;

/** The http-level lines of the edge cache: where it is, how large, and which requests skip it. */
function edgeCacheHttp(prefix: string): string[] {
  return [
    `proxy_cache_path ${prefix}/tmp/edge-cache levels=1:2 keys_zone=komax_edge:16m max_size=256m inactive=10m use_temp_path=off;`,
    // A cookie, credentials or a query: possibly a visitor's own answer (a session, a preview): never cached.
    'map "$http_cookie$http_authorization$args" $edge_cache_skip {',
    '  default 1;',
    '  "" 0;',
    '}',
    // Of what Node answers on a page address, only a permanent redirect is kept.
    'map $upstream_status $edge_cache_not_redirect {',
    '  default 1;',
    '  "~(?:^|[ ,])30[18]$" 0;',
    '}',
  ];
}

/** The cache lines of the @app location: permanent redirects only (GET and HEAD), a minute. */
function edgeCacheApp(id: string): string[] {
  return [
    'proxy_cache komax_edge;',
    // A cache file is read by the request that hits it: never kept open (the open file cache would
    // fill with them: one per search ever asked, up to the workers' descriptor limit).
    'open_file_cache off;',
    `proxy_cache_key ${edgeCacheKey(id, false)};`,
    'proxy_cache_valid 301 308 1m;',
    'proxy_cache_bypass $edge_cache_skip;',
    // No proxy_cache_lock here: most answers on this path are not kept, and the lock would queue
    // identical requests (a customer-area shell asked by many at once) one behind the other.
    'proxy_no_cache $edge_cache_skip $edge_cache_not_redirect;',
  ];
}

/**
 * The search API's location: its answers cached for the release (they say no-store to browsers:
 * kept so). Proxied as @app proxies (the same lines: keep them alike); a POST is never re-sent.
 */
function edgeCacheApi(id: string, upstreams: number): string[] {
  return [
    `location ~ ${EDGE_CACHED_API_PATTERN} {`,
    '  proxy_pass http://komax_app;',
    '  proxy_http_version 1.1;',
    '  proxy_set_header Connection "";',
    '  proxy_set_header Host $http_host;',
    '  proxy_set_header X-Forwarded-For $remote_addr;',
    '  proxy_redirect off;',
    '  proxy_next_upstream error timeout;',
    `  proxy_next_upstream_tries ${upstreams + 1};`,
    '  proxy_connect_timeout 2s;',
    '  proxy_read_timeout 120s;',
    '  proxy_buffer_size 32k;',
    '  proxy_buffers 16 32k;',
    '  proxy_busy_buffers_size 64k;',
    `  client_body_buffer_size ${EDGE_CACHE_BODY_BUFFER};`,
    '  proxy_cache komax_edge;',
    '  open_file_cache off;',
    '  proxy_cache_methods GET HEAD POST;',
    `  proxy_cache_key ${edgeCacheKey(id, true)};`,
    '  proxy_cache_valid 200 10m;',
    '  proxy_ignore_headers Cache-Control Expires;',
    '  proxy_cache_bypass $edge_cache_skip;',
    '  proxy_no_cache $edge_cache_skip;',
    // One render of a query while many ask it; an answer that is not kept (a 503) holds the others at most briefly.
    '  proxy_cache_lock on;',
    '  proxy_cache_lock_timeout 2s;',
    '  add_header X-Edge-Cache $upstream_cache_status always;',
    '}',
  ];
}
// --- end edge cache --------------------------------------------------------------------------------

/** The release's per-route maps: fingerprint and CSP number per `host+path`, the numbered CSPs. */
function routeMaps(release: EdgeRelease | null, hosts: string[]) {
  // CSP header values of the release, numbered (a few dozen distinct ones for ~9,000 routes).
  const csps: string[] = [];
  const cspIndex = new Map<string, number>();
  const fingerprints: string[] = [];
  const cspOfRoute: string[] = [];
  let longestKey = 0;
  for (const host of hosts) {
    for (const [path, rule] of Object.entries(release!.hosts[host]!).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      // nginx matches map strings without regard to case; a route differing only in case is left to Node.
      const key = `${host}${path}`;
      longestKey = Math.max(longestKey, Buffer.byteLength(key));
      const header = rule.csp ? withHeaderOnlyDirectives(rule.csp) : FALLBACK_CSP;
      let n = cspIndex.get(header);
      if (n === undefined) {
        n = csps.length;
        csps.push(header);
        cspIndex.set(header, n);
      }
      fingerprints.push(`    ${quoteKey(key)} ${quote(rule.fingerprint)};`);
      cspOfRoute.push(`    ${quoteKey(key)} ${n};`);
    }
  }
  return { csps, fingerprints, cspOfRoute, longestKey };
}

/** The bodies of the locations nginx answers itself: prerendered pages, a host's own files, build assets. */
function locationBodies(root: string, clientDir: string, fallbackCsp: string) {
  // Everything nginx serves itself first asks: is this request one the files answer? Else Node.
  const toNode = [
    'error_page 418 = @app;',
    'if ($edge_bypass) { return 418; }',
  ];
  const page = [
    // The path as asked, kept before try_files moves $uri to the index.html (the maps read it).
    'set $edge_path $uri;',
    ...toNode,
    'if ($edge_fingerprint = "") { return 418; }',
    `root ${root}/$edge_site;`,
    // Our ETag is the page's fingerprint with the coding sent (as Node sends it: "<fp>-gzip" for
    // the .gz, "<fp>-br" for the .br); nginx's own (mtime-size) and Last-Modified are off, and an If-None-Match naming the
    // page in any coding gets its 304 here.
    'etag off;',
    'if_modified_since off;',
    'add_header Last-Modified "";',
    'if ($edge_not_modified) { return 304; }',
    'charset utf-8;',
    ...staticHeaders('$edge_csp', { 'Cache-Control': quote(CACHE_HTML), ETag: '\'"$edge_fingerprint$edge_etag_coding"\'', 'X-Render': 'prerendered' }),
    'try_files $uri/index.html @app;',
  ];
  const hostFile = (cache: string) => [
    ...toNode,
    'if ($edge_site = "") { return 418; }',
    `root ${root}/$edge_site;`,
    'charset utf-8;',
    // Validated by nginx's ETag (mtime-size, not Node's size-mtime: both change with the file).
    'if_modified_since off;',
    'add_header Last-Modified "";',
    ...staticHeaders(fallbackCsp, { 'Cache-Control': quote(cache) }),
    'try_files $uri @app;',
  ];
  const asset = (cache: string) => [
    'error_page 418 = @app;',
    'if ($request_method !~ ^(?:GET|HEAD)$) { return 418; }',
    `root ${clientDir};`,
    ...staticHeaders(fallbackCsp, { 'Cache-Control': quote(cache) }),
    'try_files $uri @app;',
  ];
  return { page, hostFile, asset };
}

/** The http block's settings before the maps: logging, temp paths, types, precompressed siblings, caches. */
function httpBasics(prefix: string, brotli: boolean, routeCount: number, longestKey: number, openFiles: number): string {
  return `  access_log off;
  server_tokens off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  types {
    text/html html;
    application/json json;
    application/xml xml;
    text/plain txt;
    text/javascript js mjs;
    text/css css;
    image/svg+xml svg;
    image/png png;
    image/x-icon ico;
    image/webp webp;
    image/avif avif;
    font/woff2 woff2;
    application/manifest+json webmanifest;
  }
  default_type application/octet-stream;
  charset_types text/plain text/css text/javascript;
  # The precompressed siblings the prerender and the build wrote: the .br to a client accepting br
  # when the brotli_static module is loaded (it answers before gzip_static), else the .gz. Node
  # compresses what it renders; nginx never compresses.
  gzip off;
${brotli ? '  brotli_static on;\n' : ''}  gzip_static on;
  gzip_vary on;
  # Descriptors of the release's files kept open, well below the workers' limit (worker_rlimit_nofile:
  # two per proxied connection besides); the edge cache's files are not kept (open_file_cache off there).
  open_file_cache max=${openFiles} inactive=60s;
  open_file_cache_valid 60s;
  open_file_cache_errors on;
  map_hash_max_size ${pow2(routeCount * 4 + 64)};
  map_hash_bucket_size ${Math.max(256, pow2(longestKey + 16))};
  client_max_body_size 64m;
  # --- edge cache (issue 31) ---
${indent(edgeCacheHttp(prefix), 2)}
  # --- end edge cache ---
`;
}

/** The maps that decide, per request, whether nginx answers from the files and with which headers. */
function httpMaps(m: { siteHosts: string[]; params: string[]; cookieKey: string | null; routes: ReturnType<typeof routeMaps>; fallbackCsp: string }): string {
  return `  geo $edge_dollar { default "$"; }

  map $host $edge_site {
    hostnames;
    default "";
${m.siteHosts.join('\n')}
  }
  # Each regex map has its empty value as an exact key: nginx looks exact keys up first, so a
  # request without a query, cookie or If-None-Match (most) runs no regex for it.
  map $args $edge_dynamic_args {
    default 0;
    "" 0;
    ${regexKey(dynamicArgsPattern(m.params))} 1;
  }
  map $http_cookie $edge_dynamic_cookie {
    default 0;
    "" 0;
${m.cookieKey ? `    ${regexKey(m.cookieKey)} 1;\n` : ''}  }
  # A target Node refuses or reads differently: Node decides.
  map $request_uri $edge_odd_target {
    default 0;
    ${regexKey(ODD_TARGET_PATTERN)} 1;
  }
  map "$request_method $edge_dynamic_args$edge_dynamic_cookie$edge_odd_target $http_x_forwarded_proto" $edge_bypass {
    default 1;
    "GET 000 " 0;
    "HEAD 000 " 0;
  }
  map $sent_http_content_encoding $edge_etag_coding {
    default "";
    gzip "-gzip";
    br "-br";
  }
  map $http_if_none_match $edge_not_modified {
    default $edge_etag_matches;
    "" 0;
  }
  map "$http_if_none_match|$edge_fingerprint" $edge_etag_matches {
    default 0;
    "~^\\"([^\\"]+?)(?:-gzip|-br)?\\"\\|\\1$" 1;
  }
  # The caller's request id when Node would take it over (request-id.ts), else one unique for this
  # nginx (time, worker, connection, request on it): nginx's own $request_id costs a call to
  # OpenSSL's random generator per request, a sixth of a static answer's work.
  map $http_x_request_id $edge_request_id {
    default "$msec-$pid-$connection-$connection_requests";
    "" "$msec-$pid-$connection-$connection_requests";
    "~^[A-Za-z0-9._:+=/-]{1,64}$" $http_x_request_id;
  }
  map "$edge_site$edge_path" $edge_fingerprint {
    default "";
${m.routes.fingerprints.join('\n')}
  }
  map "$edge_site$edge_path" $edge_csp_n {
    default "";
${m.routes.cspOfRoute.join('\n')}
  }
  map $edge_csp_n $edge_csp {
    default ${m.fallbackCsp};
${m.routes.csps.map((c, i) => `    ${i} ${quote(c)};`).join('\n')}
  }
`;
}

/** The Node upstreams and the server block: what goes to Node (@app, the cached search API) and what nginx answers. */
function serverBlocks(input: EdgeConfigInput, bodies: ReturnType<typeof locationBodies>, cacheId: string): string {
  // An instance is left out for 5 s after 3 failed connections (a killed one is refused at once,
  // and the request goes to the next meanwhile); one slow answer under load does not take it out.
  const upstreams = input.upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=3 fail_timeout=5s;`).join('\n');
  const { page, hostFile, asset } = bodies;
  return `  upstream komax_app {
${upstreams}
    keepalive 64;
    # Below Node's keep-alive timeout (5 s): nginx never sends a request (a POST, which it would
    # not retry) on a connection Node is closing.
    keepalive_timeout 4s;
  }

  server {
    listen ${input.listen.host}:${input.listen.port} default_server;
    server_name _;

    location @app {
      proxy_pass http://komax_app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # The client's address, overwritten (never appended to what a client sent).
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_redirect off;
      # A killed or restarting instance: the request goes to the next one (never a POST once sent).
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries ${input.upstreams.length + 1};
      # An on-demand page's head (its CSP lists every hash its route may need) is larger than nginx's 4 KB default.
      proxy_buffer_size 32k;
      proxy_buffers 16 32k;
      proxy_busy_buffers_size 64k;
      proxy_connect_timeout 2s;
      proxy_read_timeout 120s;
      # --- edge cache (issue 31) ---
${indent(edgeCacheApp(cacheId), 6)}
      # --- end edge cache ---
    }
    # --- edge cache (issue 31) ---
${indent(edgeCacheApi(cacheId, input.upstreams.length), 4)}
    # --- end edge cache ---
    location ^~ /_astro/ {
${indent(asset(CACHE_IMMUTABLE), 6)}
    }
    location ~ ^/[^/]+\\.(?:svg|ico|png|txt|webmanifest)$ {
${indent(asset('public, max-age=3600'), 6)}
    }
    location ^~ /builds/ {
${indent(hostFile('no-cache'), 6)}
    }
    location ~ ^/(?:sitemap\\.xml|.+/_payload\\.json)$ {
${indent(hostFile(CACHE_HTML), 6)}
    }
    location / {
${indent(page, 6)}
    }
  }
`;
}

/** The whole nginx.conf of the edge for one release (null: nothing published yet, Node answers all). */
export function nginxConfig(input: EdgeConfigInput): string {
  if (input.upstreams.length === 0) throw new Error('The edge needs at least one upstream');
  const { release, prefix } = input;
  const hosts = release ? Object.keys(release.hosts).sort() : [];
  const params = [...new Set([...input.dynamicParams, ...OPERATOR_PARAMS])];
  // Site host: an exact host or a subdomain of one (the longest wins), as resolveSiteHost does;
  // an unknown host is left to Node (it answers it for the main site, or refuses it).
  const siteHosts = hosts.map((h) => `    .${h} ${quoteKey(h)};`);
  const routes = routeMaps(release, hosts);
  const user = input.user ? `user ${input.user};\n` : '';
  const fallbackCsp = quote(FALLBACK_CSP);
  const root = release ? release.dir : `${prefix}/no-release`;
  const cookieKey = dynamicCookiePattern(input.dynamicCookies);
  // --- edge cache (issue 31): keyed by the release (no release: Node's own answers, still per address).
  const cacheId = release?.id ?? 'none';
  const brotli = input.brotliModule ? `load_module ${quote(input.brotliModule)};\n` : '';

  return `# Generated by src/server/edge/nginx-config.ts for release ${release?.id ?? '(none)'}: do not edit.
${brotli}${user}worker_processes ${input.workers ?? 'auto'};
${input.workerPriority ? `worker_priority ${input.workerPriority};\n` : ''}${input.workerNofile ? `worker_rlimit_nofile ${input.workerNofile};\n` : ''}daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 4096; }
# The maps' regexes compiled to machine code (off by default).
pcre_jit on;
http {
${httpBasics(prefix, !!input.brotliModule, routes.fingerprints.length, routes.longestKey, openFileCacheMax(input.workerNofile))}
${httpMaps({ siteHosts, params, cookieKey, routes, fallbackCsp })}
${serverBlocks(input, locationBodies(root, input.clientDir, fallbackCsp), cacheId)}}
`;
}
