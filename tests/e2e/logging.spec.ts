import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { test, expect, raw, PORT, HUB, REVALIDATE_SECRET } from './fixtures/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test('every response carries a request id: a safe incoming one is echoed, anything else is replaced', async () => {
  const prerendered = await raw('/en', { headers: { 'x-request-id': 'e2e-echo-1' } });
  expect(prerendered.headers['x-render']).toBe('prerendered');
  expect(prerendered.headers['x-request-id']).toBe('e2e-echo-1');
  const onDemand = await raw('/en/no-such-page-for-logging', { headers: { 'x-request-id': 'e2e-echo-2' } });
  expect(onDemand.headers['x-render']).toBe('on-demand');
  expect(onDemand.headers['x-request-id']).toBe('e2e-echo-2');
  expect((await raw('/en')).headers['x-request-id']).toMatch(UUID);
  expect((await raw('/en', { headers: { 'x-request-id': `${'x'.repeat(80)}` } })).headers['x-request-id']).toMatch(UUID);
  expect((await raw('/en', { headers: { 'x-request-id': 'a b<c>' } })).headers['x-request-id']).toMatch(UUID);
});

test.describe('the production server (npm run serve) at LOG_LEVEL=debug', () => {
  // A second server over the same build and emulators, whose output the test reads.
  const port = PORT - 1;
  let server: ChildProcess;
  let out = '';
  const parsed: Record<string, unknown>[] = [];
  let pending = '';
  const lines = () => parsed;

  test.beforeAll(async () => {
    server = spawn(process.execPath, ['src/server/main.ts'], {
      env: {
        ...process.env, PORT: String(port), LOG_LEVEL: 'debug', LOG_FORMAT: '', CONTENT_LOG_LEVEL: '',
        // The catalogue is unreachable (port 1 refuses): a revalidation fails in its worker before it
        // writes anything, so this server never touches the tree the suite's server serves.
        CONTENT_ENDPOINT: HUB, CATALOGUE_ENDPOINT: 'http://127.0.0.1:1/graphql', PUBLIC_PORT: String(PORT), REVALIDATE_SECRET,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    server.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const text = pending + c.toString();
      const complete = text.split('\n');
      pending = complete.pop()!;
      // Every line is a JSON object (JSON.parse throws, and fails the test, on anything else).
      for (const l of complete) if (l) parsed.push(JSON.parse(l) as Record<string, unknown>);
    });
    await expect.poll(() => lines().some((l) => String(l.msg).startsWith('Serving on'))).toBe(true);
  });

  test.afterAll(() => {
    server?.kill();
  });

  const get = (path: string, headers: Record<string, string>, method = 'GET', body?: string) => new Promise<{ status: number; id: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false, headers: { host: `localhost:${port}`, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, id: String(res.headers['x-request-id']) }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
  const linesOf = async (reqId: string) => {
    await expect.poll(() => lines().some((l) => l.reqId === reqId && l.component === 'http')).toBe(true);
    return lines().filter((l) => l.reqId === reqId);
  };

  test('writes JSON lines that carry the request id, also from inside the built app, and no secrets', async () => {
    const secrets = { token: 'e2e-bearer-token-777', cookie: 'e2e-cookie-value-888' };
    const res = await get('/en/no-such-page-for-logging?password=e2e-pw-999', {
      'x-request-id': 'e2e-log-1', authorization: `Bearer ${secrets.token}`, cookie: `session=${secrets.cookie}`,
    });
    expect(res).toEqual({ status: 404, id: 'e2e-log-1' });
    const mine = await linesOf('e2e-log-1');
    // The content hub calls of the on-demand render (made by the app bundle) are logged with the id…
    expect(mine).toEqual(expect.arrayContaining([expect.objectContaining({ component: 'content', level: 'debug', levelValue: 100, msg: expect.stringMatching(/^pageByPath /) })]));
    // …and the request ends with its own line.
    expect(mine.at(-1)).toMatchObject({ component: 'http', level: 'info', method: 'GET', path: '/en/no-such-page-for-logging', status: 404 });
    for (const leaked of [secrets.token, secrets.cookie, 'e2e-pw-999']) expect(out).not.toContain(leaked);
  });

  test('a revalidation logs its worker lines with the id of its request and never the secret', async () => {
    const res = await get('/api/revalidate', { 'x-request-id': 'e2e-reval-1', 'x-revalidate-secret': REVALIDATE_SECRET, 'content-type': 'application/json' }, 'POST', JSON.stringify({ ids: ['no-such-id'] }));
    // The catalogue of this server is unreachable: a service down is a 503 (the previous release stays).
    expect(res).toEqual({ status: 503, id: 'e2e-reval-1' });
    const mine = await linesOf('e2e-reval-1');
    // Lines of the worker thread (its queries, the catalogue failure) and of the server carry the id.
    expect(mine).toEqual(expect.arrayContaining([
      expect.objectContaining({ thread: expect.any(Number), component: 'content', level: 'debug' }),
      expect.objectContaining({ thread: expect.any(Number), component: 'catalogue', level: 'error' }),
      expect.objectContaining({ component: 'revalidate', level: 'error', msg: expect.stringMatching(/^failed, the previous release \S+ stays live: /) }),
    ]));
    expect(out).not.toContain(REVALIDATE_SECRET);
  });
});
