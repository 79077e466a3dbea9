import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FALLBACK_CSP, SECURITY_HEADERS, withHeaderOnlyDirectives } from '../http/headers.ts';
import { DELIVERY } from '../prerender/policies.ts';
import { ensureBrotliStatic, findProgram } from '../../../scripts/system-package.ts';
import { SEARCH_MAX_BODY } from '../../features/search/api.server.ts';
import { waitForPort } from './nginx.ts';
import { dynamicArgsPattern, dynamicCookiePattern, EDGE_CACHE_BODY_BUFFER, EDGE_CACHED_API_PATTERN, nginxConfig, ODD_TARGET_PATTERN, quote, workerNofileFrom, workerPriorityFrom, type EdgeConfigInput } from './nginx-config.ts';

const PAGE_CSP = "default-src 'self'; script-src 'self' 'sha256-abc='";
const input = (over: Partial<EdgeConfigInput> = {}): EdgeConfigInput => ({
  release: {
    id: 'mx00000000abcd',
    dir: '/srv/dist/static/releases/mx00000000abcd',
    main: 'localhost',
    hosts: {
      localhost: { '/en': { fingerprint: 'fpEn', csp: PAGE_CSP }, '/en/about-us': { fingerprint: 'fpAbout', csp: PAGE_CSP }, '/en/plain': { fingerprint: 'fpPlain', csp: null } },
      'events.localhost': { '/en': { fingerprint: 'fpEvents', csp: PAGE_CSP } },
    },
  },
  listen: { host: '127.0.0.1', port: 4321 },
  upstreams: [4320, 4319],
  clientDir: '/srv/dist/client',
  prefix: '/srv/.edge/4321',
  dynamicParams: DELIVERY.dynamicParams,
  dynamicCookies: DELIVERY.dynamicCookies,
  ...over,
});

describe('nginxConfig', () => {
  const conf = nginxConfig(input());

  it('maps each site host and its subdomains to its tree of the release, unknown hosts to Node', () => {
    expect(conf).toContain('    .localhost "localhost";');
    expect(conf).toContain('    .events.localhost "events.localhost";');
    expect(conf).toMatch(/map \$host \$edge_site \{\n {4}hostnames;\n {4}default "";/);
    expect(conf).toContain('root /srv/dist/static/releases/mx00000000abcd/$edge_site;');
  });

  it('gives each prerendered route its fingerprint and its own CSP with the header-only directives; a page without one the fallback', () => {
    expect(conf).toContain('"localhost/en/about-us" "fpAbout";');
    expect(conf).toContain('"events.localhost/en" "fpEvents";');
    const cspLine = (n: string) => new RegExp(`"localhost${n}" (\\d+);`).exec(conf)![1];
    const headerOf = (i: string) => new RegExp(`\\n {4}${i} "([^\\n]*)";`).exec(conf)![1]!.replace(/\\"/g, '"');
    expect(headerOf(cspLine('/en/about-us')!)).toBe(withHeaderOnlyDirectives(PAGE_CSP));
    expect(headerOf(cspLine('/en/plain')!)).toBe(FALLBACK_CSP);
    // Distinct policies are written once.
    expect(cspLine('/en')).toBe(cspLine('/en/about-us'));
  });

  it('sends the security headers on what nginx serves itself, and everything else to the upstreams with retries on a connection failure', () => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(conf).toContain(`add_header ${name} ${quote(value)} always;`);
    expect(conf).toContain('server 127.0.0.1:4320 max_fails=3 fail_timeout=5s;');
    expect(conf).toContain('server 127.0.0.1:4319 max_fails=3 fail_timeout=5s;');
    expect(conf).toContain('proxy_next_upstream error timeout;');
    expect(conf).toContain('keepalive_timeout 4s;');
    expect(conf).not.toMatch(/non_idempotent/);
    expect(conf).toContain('try_files $uri/index.html @app;');
    expect(conf).toContain('listen 127.0.0.1:4321 default_server;');
  });

  it('loads the brotli_static module when given (the .br siblings, ETag "<fp>-br" as from Node), else gzip only', () => {
    expect(conf).not.toMatch(/load_module|brotli_static on/);
    const br = nginxConfig(input({ brotliModule: '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so' }));
    expect(br.startsWith('# Generated')).toBe(true);
    expect(br).toMatch(/^load_module "\/usr\/lib\/nginx\/modules\/ngx_http_brotli_static_module\.so";$/m);
    expect(br).toContain('  brotli_static on;\n  gzip_static on;');
    expect(br).toMatch(/map \$sent_http_content_encoding \$edge_etag_coding \{[^}]*br "-br";/);
  });

  it('runs no regex for a request without a query, cookie, If-None-Match or request id (an exact "" key is looked up first), and compiles them (pcre_jit)', () => {
    for (const source of ['$args', '$http_cookie', '$http_if_none_match', '$http_x_request_id']) {
      expect(conf).toMatch(new RegExp(`map \\${source} \\S+ \\{[^}]*\\n {4}"" `));
    }
    expect(conf).toMatch(/^pcre_jit on;$/m);
    expect(conf).not.toMatch(/^[^#]*[^_]\$request_id/m);
  });

  it('serves nothing itself without a release', () => {
    const none = nginxConfig(input({ release: null }));
    expect(none).not.toContain('.localhost');
    expect(none).toContain('proxy_pass http://komax_app;');
  });

  it('gives the workers the nice value asked for (none by default), and reads it from EDGE_WORKER_PRIORITY with a clear error', () => {
    expect(conf).not.toContain('worker_priority');
    expect(nginxConfig(input({ workerPriority: 5 }))).toMatch(/^worker_priority 5;$/m);
    expect(nginxConfig(input({ workerPriority: 0 }))).not.toContain('worker_priority');
    expect(workerPriorityFrom(undefined, 5)).toBe(5);
    expect(workerPriorityFrom(' ', 5)).toBe(5);
    expect(workerPriorityFrom('-3', 5)).toBe(-3);
    expect(workerPriorityFrom('0', 5)).toBe(0);
    for (const bad of ['20', '1.5', 'high', '-21']) expect(() => workerPriorityFrom(bad, 5), bad).toThrow(/EDGE_WORKER_PRIORITY must be a whole number from -20 to 19/);
  });

  it('keeps release files open within the workers\' descriptor limit, and never the edge cache\'s files', () => {
    expect(conf).not.toMatch(/^worker_rlimit_nofile/m);
    expect(nginxConfig(input({ workerNofile: 20000 }))).toMatch(/^worker_rlimit_nofile 20000;$/m);
    const limits = (hard: string) => `Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 ${hard}                files\n`;
    expect(workerNofileFrom(limits('20000'))).toBe(20000);
    expect(workerNofileFrom(limits('1048576'))).toBe(32768);
    expect(workerNofileFrom(limits('unlimited'))).toBe(32768);
    expect(workerNofileFrom(null)).toBeNull();
    expect(workerNofileFrom('Max cpu time unlimited unlimited seconds')).toBeNull();
    expect(conf).toContain('open_file_cache max=8192 ');
    // Under a low limit the cache takes at most half of it.
    expect(nginxConfig(input({ workerNofile: 4096 }))).toContain('open_file_cache max=2048 ');
    expect(nginxConfig(input({ workerNofile: 20000 }))).toContain('open_file_cache max=8192 ');
    // Both cached locations (the search API and @app) read their cache files without keeping them.
    const cached = conf.split(/\n\s*location /).filter((block) => block.includes('proxy_cache komax_edge;'));
    expect(cached.length).toBe(2);
    for (const block of cached) expect(block).toContain('open_file_cache off;');
  });

  it('refuses a configuration without upstreams', () => {
    expect(() => nginxConfig(input({ upstreams: [] }))).toThrow(/at least one upstream/);
  });

  it('writes a literal dollar sign and quotes so nginx reads them as text', () => {
    expect(quote('a "b" $c\\')).toBe('"a \\"b\\" ${edge_dollar}c\\\\"');
    expect(() => quote('a\nb')).toThrow(/line break/);
  });
});

describe('the dynamic-request patterns', () => {
  const args = new RegExp(dynamicArgsPattern(DELIVERY.dynamicParams));
  const cookie = new RegExp(dynamicCookiePattern(DELIVERY.dynamicCookies)!);

  it('find a query the policies make dynamic, as DELIVERY.isDynamic does', () => {
    for (const query of [...DELIVERY.dynamicParams.flatMap((p) => [`${p}=1`, `a=b&${p}`, `${p}=`, `x=1&${p}=2&y=3`]), 'utm_source=x', 'pagex=1', 'xpage=1', 'q1=a']) {
      expect(args.test(query), query).toBe(DELIVERY.isDynamic(new URLSearchParams(query), undefined));
    }
    // An encoded name could be one of them once decoded: left to Node.
    expect(args.test('%70age=2')).toBe(true);
  });

  it('find a cookie the policies make dynamic, as DELIVERY.hasDynamicCookie does', () => {
    for (const header of [...DELIVERY.dynamicCookies.flatMap((c) => [`${c}=1`, `a=b; ${c}=`, `a=b;${c}=x`]), 'other=1', `x${DELIVERY.dynamicCookies[0]}=1`]) {
      expect(cookie.test(header), header).toBe(DELIVERY.hasDynamicCookie(header));
    }
  });

  it('leave odd request targets to Node', () => {
    const odd = new RegExp(ODD_TARGET_PATTERN);
    for (const t of ['/en/%2e%2e/x', '//en', '/en/./x', '/en/../x', '/en\\x']) expect(odd.test(t), t).toBe(true);
    for (const t of ['/en/about-us', '/en/about-us?utm=1', '/']) expect(odd.test(t), t).toBe(false);
  });
});

// nginx itself checks the configuration where it is installed (npm run start:edge installs it).
const nginx = process.env.NGINX_PATH ?? findProgram('nginx', ['/usr/sbin/nginx']);
describe.skipIf(!nginx)('nginx -t', () => {
  const prefix = mkdtempSync(join(tmpdir(), 'kmx-edge-conf-'));
  afterAll(() => rmSync(prefix, { recursive: true, force: true }));

  it('accepts the configuration', () => {
    for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, 'tmp', d), { recursive: true });
    writeFileSync(join(prefix, 'nginx.conf'), nginxConfig(input({ prefix, user: process.getuid?.() === 0 ? 'root' : undefined, workerPriority: 5 })));
    const run = spawnSync(nginx!, ['-t', '-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log')], { encoding: 'utf8' });
    expect(run.stderr).toContain('test is successful');
  });
});

describe('the edge cache (issue 31)', () => {
  const conf = nginxConfig(input());

  it('keys the search API by the release, the host, the address, the coding and the body, which must fit in memory', () => {
    expect(conf).toContain('proxy_cache_key "mx00000000abcd|$http_x_forwarded_proto|$http_host|$request_uri|$http_accept_encoding|$request_body";');
    expect(conf).toContain('proxy_cache_methods GET HEAD POST;');
    // A body the API accepts is read into memory, so $request_body (the key) is never empty for it.
    expect(Number.parseInt(EDGE_CACHE_BODY_BUFFER, 10) * 1024).toBeGreaterThan(SEARCH_MAX_BODY);
    const api = new RegExp(EDGE_CACHED_API_PATTERN);
    for (const p of ['/api/search-proxy/search', '/api/search-proxy/suggest']) expect(api.test(p), p).toBe(true);
    for (const p of ['/api/search-proxy/searchx', '/api/account/profile', '/en/search']) expect(api.test(p), p).toBe(false);
  });

  it('keeps of the pages Node answers only permanent redirects, for GET and HEAD', () => {
    const app = /location @app \{[^}]*\}/.exec(conf)![0];
    expect(app).toContain('proxy_cache_valid 301 308 1m;');
    expect(app).not.toContain('proxy_cache_methods');
    const status = new RegExp(/"~(.*)" 0;/.exec(conf.slice(conf.indexOf('$edge_cache_not_redirect {')))![1]!);
    for (const s of ['301', '308', '502, 301']) expect(status.test(s), s).toBe(true);
    for (const s of ['200', '302', '404', '3010', '301, 502']) expect(status.test(s), s).toBe(false);
  });
});

// The cache in nginx itself, in front of a stand-in upstream that counts what reaches it.
describe.skipIf(!nginx)('the edge cache in nginx', () => {
  const prefix = mkdtempSync(join(tmpdir(), 'kmx-edge-cache-'));
  let hits = 0;
  const upstream = createServer((req, res) => {
    hits++;
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const url = req.url ?? '';
      if (url.startsWith('/api/search-proxy/')) {
        res.writeHead(body.includes('fail') ? 503 : 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(`{"n":${hits}}`);
      } else if (url.endsWith('/')) {
        res.writeHead(301, { Location: url.slice(0, -1) }).end();
      } else if (url.includes('signed')) {
        res.writeHead(301, { Location: '/en', 'Set-Cookie': 'a=1' }).end();
      } else {
        res.writeHead(404, { 'Cache-Control': 'public, max-age=60' }).end('not found');
      }
    });
  });
  let edgePort = 0;
  let child: ReturnType<typeof spawn> | undefined;

  const start = async (id: string) => {
    child?.kill('SIGQUIT');
    if (child) await new Promise((ok) => child!.once('exit', ok));
    const conf = nginxConfig(input({ prefix, release: { ...input().release!, id }, listen: { host: '127.0.0.1', port: edgePort }, upstreams: [(upstream.address() as AddressInfo).port], user: process.getuid?.() === 0 ? 'root' : undefined }));
    writeFileSync(join(prefix, 'nginx.conf'), conf);
    child = spawn(nginx!, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log')], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      try {
        await send('GET', '/en/x');
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const send = (method: string, path: string, opts: { body?: string; headers?: Record<string, string> } = {}) => new Promise<{ status: number; body: string; cache: string | undefined }>((ok, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port: edgePort, method, path, headers: { host: 'localhost', ...(opts.body ? { 'content-type': 'application/json' } : {}), ...opts.headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body, cache: res.headers['x-edge-cache'] as string | undefined }));
    });
    req.on('error', fail);
    req.end(opts.body);
  });
  /** How many requests reached the upstream while `fn` ran. */
  const reached = async (fn: () => Promise<unknown>) => {
    const before = hits;
    await fn();
    return hits - before;
  };

  beforeAll(async () => {
    for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, 'tmp', d), { recursive: true });
    await new Promise<void>((ok) => upstream.listen(0, '127.0.0.1', ok));
    // A free port for nginx: one the system hands out, closed again.
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    edgePort = (probe.address() as AddressInfo).port;
    await new Promise((ok) => probe.close(ok));
    await start('mx00000000aaaa');
  });
  afterAll(async () => {
    child?.kill('SIGQUIT');
    if (child && child.exitCode === null) await new Promise((ok) => child!.once('exit', ok));
    upstream.close();
    rmSync(prefix, { recursive: true, force: true });
  });

  it('answers a repeated search from the cache, and a new body, host, coding or release from Node', async () => {
    const body = '{"localeCode":"en","siteSlug":"","query":"crimp"}';
    const first = await send('POST', '/api/search-proxy/search', { body });
    expect(first.cache).toBe('MISS');
    const again = await send('POST', '/api/search-proxy/search', { body });
    expect(again).toEqual({ status: 200, body: first.body, cache: 'HIT' });
    expect(await reached(() => send('POST', '/api/search-proxy/search', { body: body.replace('crimp', 'cable') }))).toBe(1);
    expect(await reached(() => send('POST', '/api/search-proxy/search', { body, headers: { host: 'events.localhost' } }))).toBe(1);
    expect(await reached(() => send('POST', '/api/search-proxy/search', { body, headers: { 'accept-encoding': 'gzip' } }))).toBe(1);
    expect(await reached(() => send('POST', '/api/search-proxy/suggest', { body }))).toBe(1);
    await start('mx00000000bbbb');
    expect(await reached(() => send('POST', '/api/search-proxy/search', { body }))).toBe(1);
    expect(await reached(() => send('POST', '/api/search-proxy/search', { body }))).toBe(0);
  });

  it('never keeps or serves a cached answer for a request with a cookie, credentials or a query', async () => {
    const body = '{"localeCode":"en","siteSlug":"","query":"private"}';
    for (const headers of [{ cookie: 'session=abc' }, { authorization: 'Bearer x' }] as Record<string, string>[]) {
      const opts = { headers };
      expect(await reached(() => send('POST', '/api/search-proxy/search', { body, ...opts }))).toBe(1);
      expect(await reached(() => send('POST', '/api/search-proxy/search', { body, ...opts }))).toBe(1);
    }
    expect(await reached(() => send('POST', '/api/search-proxy/search?nextRelease', { body }))).toBe(1);
    expect(await reached(() => send('POST', '/api/search-proxy/search?nextRelease', { body }))).toBe(1);
    // Nothing of those was stored for the plain request either.
    expect((await send('POST', '/api/search-proxy/search', { body })).cache).toBe('MISS');
  });

  it('does not keep a failed search', async () => {
    const body = '{"localeCode":"en","siteSlug":"","query":"fail"}';
    expect((await send('POST', '/api/search-proxy/search', { body })).status).toBe(503);
    expect(await reached(() => send('POST', '/api/search-proxy/search', { body }))).toBe(1);
  });

  it('keeps permanent redirects of pages, and nothing else Node answers for them', async () => {
    expect(await reached(() => send('GET', '/en/about-us/'))).toBe(1);
    expect(await reached(() => send('GET', '/en/about-us/'))).toBe(0);
    expect(await reached(() => send('HEAD', '/en/about-us/'))).toBe(0);
    // A 404 Node marks public for a minute: still Node's each time (only permanent redirects are kept).
    expect(await reached(() => send('GET', '/en/gone'))).toBe(1);
    expect(await reached(() => send('GET', '/en/gone'))).toBe(1);
    // A redirect that sets a cookie is a visitor's own.
    expect(await reached(() => send('GET', '/en/signed'))).toBe(1);
    expect(await reached(() => send('GET', '/en/signed'))).toBe(1);
    // With a cookie the cached redirect is not used.
    expect(await reached(() => send('GET', '/en/about-us/', { headers: { cookie: 'session=abc' } }))).toBe(1);
  });
});

// The generated configuration served by nginx: the codings a client accepts, the ETags and 304s Node gives.
const brotliModule = nginx ? ensureBrotliStatic(nginx) : null;
describe.skipIf(!nginx)('nginx serving a release with the generated configuration', () => {
  const prefix = mkdtempSync(join(tmpdir(), 'kmx-edge-serve-'));
  let port = 0;
  let child: ChildProcess | undefined;
  const dir = join(prefix, 'releases/mx00000000abcd');
  const page = '<p>about us</p>'.repeat(20);
  beforeAll(async () => {
    port = await new Promise<number>((ok) => { const s = createNetServer().listen(0, '127.0.0.1', () => { const p = (s.address() as AddressInfo).port; s.close(() => ok(p)); }); });
    mkdirSync(join(dir, 'localhost/en/about-us'), { recursive: true });
    writeFileSync(join(dir, 'localhost/en/about-us/index.html'), page);
    writeFileSync(join(dir, 'localhost/en/about-us/index.html.gz'), gzipSync(page));
    writeFileSync(join(dir, 'localhost/en/about-us/index.html.br'), brotliCompressSync(page));
    for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, 'tmp', d), { recursive: true });
    writeFileSync(join(prefix, 'nginx.conf'), nginxConfig(input({
      prefix, listen: { host: '127.0.0.1', port }, upstreams: [1], brotliModule, workers: 1,
      release: { ...input().release!, dir }, user: process.getuid?.() === 0 ? 'root' : undefined,
    })));
    child = spawn(nginx!, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log')], { stdio: 'inherit' });
    await waitForPort('127.0.0.1', port);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((ok) => child!.once('exit', ok));
      child.kill('SIGQUIT');
      await exited;
    }
    rmSync(prefix, { recursive: true, force: true });
  });
  const get = async (accept: string, headers: Record<string, string> = {}) => {
    const res = await new Promise<import('node:http').IncomingMessage>((ok, fail) => httpRequest({ port, host: '127.0.0.1', path: '/en/about-us', headers: { host: 'localhost', 'accept-encoding': accept, ...headers } }, ok).on('error', fail).end());
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    return { status: res.statusCode, encoding: res.headers['content-encoding'], etag: res.headers.etag, vary: res.headers.vary, body: Buffer.concat(chunks) };
  };

  it.skipIf(!brotliModule)('sends the .br to a client accepting br (ETag "<fp>-br", Vary), the .gz to one accepting only gzip, and 304 to a matching If-None-Match', async () => {
    const br = await get('gzip, deflate, br');
    expect([br.status, br.encoding, br.etag, br.vary]).toEqual([200, 'br', '"fpAbout-br"', 'Accept-Encoding']);
    expect(brotliDecompressSync(br.body).toString()).toBe(page);
    const gz = await get('gzip, br;q=0');
    expect([gz.status, gz.encoding, gz.etag]).toEqual([200, 'gzip', '"fpAbout-gzip"']);
    expect((await get('br', { 'if-none-match': '"fpAbout-br"' })).status).toBe(304);
  });

  it('echoes a caller\'s X-Request-Id Node would take over, else gives one of its own per request', async () => {
    const ids = async (headers: Record<string, string>) => {
      const res = await new Promise<import('node:http').IncomingMessage>((ok, fail) => httpRequest({ port, host: '127.0.0.1', path: '/en/about-us', headers: { host: 'localhost', ...headers } }, ok).on('error', fail).end());
      res.resume();
      return res.headers['x-request-id'];
    };
    expect(await ids({ 'x-request-id': 'trace-1.2:abc' })).toBe('trace-1.2:abc');
    const mine = [await ids({ 'x-request-id': 'not an id!' }), await ids({}), await ids({})];
    for (const id of mine) expect(id).toMatch(/^[A-Za-z0-9._:+=/-]{1,64}$/);
    expect(new Set(mine).size).toBe(3);
  });

  it('sends the .gz to a gzip client and the file itself to one accepting nothing, with or without the brotli module', async () => {
    const gz = await get('gzip');
    expect([gz.status, gz.encoding, gz.etag]).toEqual([200, 'gzip', '"fpAbout-gzip"']);
    // Any coding of the page's fingerprint revalidates it; another page's does not.
    expect((await get('gzip', { 'if-none-match': '"fpAbout"' })).status).toBe(304);
    expect((await get('gzip', { 'if-none-match': '"fpEn-gzip"' })).status).toBe(200);
    expect(gunzipSync(gz.body).toString()).toBe(page);
    const plain = await get('');
    expect([plain.status, plain.encoding, plain.etag, plain.body.toString()]).toEqual([200, undefined, '"fpAbout"', page]);
  });
});
