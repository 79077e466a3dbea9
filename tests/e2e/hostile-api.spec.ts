import { readdirSync, readFileSync, statSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKeyPairSync } from 'node:crypto';
import { importJWK, SignJWT, type JWK } from 'jose';
import { expect, test } from '@playwright/test';
import { editorCookieHeader } from './fixtures/editor.ts';
import { DEMO_PASSWORD, DEMO_USERS, ISSUER } from './fixtures/identity.ts';
import { signIn } from '../../emulators/identity/login-flow.ts';
import { PORT, REVALIDATE_SECRET } from './fixtures/index.ts';

// Hostile input against every API endpoint (issue 15): the endpoints come from the route table
// (src/pages/api/** and the routes the server owns itself), and an endpoint without a case below
// fails the suite. Per endpoint and method: wrong methods (405 with Allow), wrong media types (415),
// oversize bodies declared or chunked (413, answered before the body is read), malformed JSON,
// wrong types, missing and extra fields, unicode and NUL bytes, very long values, and missing or
// forged credentials (access tokens with a wrong signature, expired, for another audience or
// issuer; a forged editor cookie; a wrong revalidation secret). Every answer is below 500, a
// refusal is JSON with a clear message, and no answer carries a stack trace, a file path or an
// upstream's address. Requests come from their own loopback addresses (127.0.x.y), so the
// per-client rate limits they run into never touch the other suites' budget (127.0.0.1).

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const API_DIR = join(ROOT, 'src/pages/api');
/** Routes the node server answers itself, before Astro (src/server/): they have no file in src/pages/api. */
const SERVER_ROUTES = ['/api/revalidate'];

type Auth = 'none' | 'bearer' | 'editor' | 'secret';
type BodyKind = 'json' | 'json+form' | 'json+multipart' | 'form+json' | 'report' | 'none';

interface MethodCase {
  auth: Auth;
  /** What the method takes as a body (`none`: nothing; any body is 413). */
  body: BodyKind;
  /** Its declared limit in bytes (as in the handler's limits). */
  maxBytes?: number;
  /**
   * A body of the right shape whose fields the suite spoils one by one (wrong types, missing, extra,
   * NUL, unicode, very long). Chosen so that it changes nothing (an unknown story, an invalid form).
   */
  sample?: Record<string, unknown>;
  /** A valid body would start work (a revalidation run): only variants that must be refused are sent. */
  sideEffects?: true;
}

interface RouteCase {
  /** A concrete path of the route (its parameters filled in). */
  path: string;
  methods: Partial<Record<'GET' | 'POST' | 'PATCH' | 'DELETE', MethodCase>>;
}

const READ: MethodCase = { auth: 'none', body: 'none' };

/** One case per route pattern (the file's path below src/pages/api, or a server route). */
const CASES: Record<string, RouteCase> = {
  '/api/account': { path: '/api/account', methods: { DELETE: { auth: 'bearer', body: 'none' } } },
  '/api/account/mfa-reset': { path: '/api/account/mfa-reset', methods: { POST: { auth: 'bearer', body: 'json', maxBytes: 1024 } } },
  '/api/account/password': { path: '/api/account/password', methods: { POST: { auth: 'bearer', body: 'json', maxBytes: 8192, sample: { currentPassword: 'x', newPassword: 'y' } } } },
  '/api/account/profile': { path: '/api/account/profile', methods: { GET: { auth: 'bearer', body: 'none' }, PATCH: { auth: 'bearer', body: 'json', maxBytes: 8192, sample: { givenName: 'Ada', sn: 'Lovelace' } } } },
  '/api/catalogue/basket': { path: '/api/catalogue/basket?language=en&slugs=kappa-310', methods: { GET: READ } },
  '/api/catalogue/comparison': { path: '/api/catalogue/comparison?language=en&slugs=kappa-310', methods: { GET: READ } },
  '/api/csp-report': { path: '/api/csp-report', methods: { POST: { auth: 'none', body: 'report', maxBytes: 16 * 1024, sample: { 'csp-report': { 'document-uri': 'http://localhost/en', 'violated-directive': 'script-src', 'blocked-uri': 'inline' } } } } },
  '/api/draft-proxy/graphql': { path: '/api/draft-proxy/graphql', methods: { POST: { auth: 'editor', body: 'json', maxBytes: 32 * 1024, sample: { query: 'query PageByPath { x }', variables: {}, locales: ['en'] } } } },
  '/api/editor-area-autentication': { path: '/api/editor-area-autentication', methods: { POST: { auth: 'none', body: 'json', maxBytes: 4096, sample: { hash: 'not-a-session' } } } },
  '/api/editor-area-autentication/logout': { path: '/api/editor-area-autentication/logout', methods: { POST: { auth: 'none', body: 'form+json', maxBytes: 4096 } } },
  '/api/editor/preview-handoff': { path: '/api/editor/preview-handoff?to=https%3A%2F%2Fevil.example%2F', methods: { GET: { auth: 'editor', body: 'none' } } },
  '/api/forms/[kind]': { path: '/api/forms/contact', methods: { POST: { auth: 'none', body: 'json+form', maxBytes: 32 * 1024, sample: { lang: 'en', firstName: 'Ada', email: 'not-an-address' } } } },
  '/api/investors/calendar/[page]/[event].ics': { path: '/api/investors/calendar/nosuchpage/no-event.ics?l=en', methods: { GET: READ } },
  '/api/mykomax/register': { path: '/api/mykomax/register?locale=en', methods: { GET: READ } },
  '/api/mykomax/session': { path: '/api/mykomax/session', methods: { GET: { auth: 'bearer', body: 'none' } } },
  '/api/news-feed': { path: '/api/news-feed?lang=en', methods: { GET: READ } },
  '/api/protected-pages/grant': { path: '/api/protected-pages/grant', methods: { POST: { auth: 'bearer', body: 'json', maxBytes: 1024, sample: { pageId: 'nosuchpage0000000000000', path: '/en/no-such-page' } } } },
  '/api/search-proxy/search': { path: '/api/search-proxy/search', methods: { POST: { auth: 'none', body: 'json', maxBytes: 16 * 1024, sample: { localeCode: 'en', query: 'crimp', siteSlug: 'main', page: 1 } } } },
  '/api/search-proxy/suggest': { path: '/api/search-proxy/suggest', methods: { POST: { auth: 'none', body: 'json', maxBytes: 16 * 1024, sample: { localeCode: 'en', query: 'cri' } } } },
  '/api/site-navigation/editor/[siteId]': { path: '/api/site-navigation/editor/site-main?lang=en&stage=DRAFT', methods: { GET: { auth: 'editor', body: 'none' } } },
  '/api/site-navigation/public/[siteId]': { path: '/api/site-navigation/public/site-main?lang=en', methods: { GET: READ } },
  '/api/story-feedback': { path: '/api/story-feedback', methods: { POST: { auth: 'none', body: 'json', maxBytes: 16 * 1024, sample: { lang: 'en', storySlug: 'no-such-story-hostile', firstName: 'Ada', lastName: 'L', company: 'K', country: 'CH', message: 'Hi' } } } },
  '/api/ticketing/download/[link]': { path: '/api/ticketing/download/forged.link', methods: { GET: READ } },
  '/api/ticketing/graphql': { path: '/api/ticketing/graphql', methods: { POST: { auth: 'bearer', body: 'json+multipart', maxBytes: 1024 * 1024, sample: { query: '{ viewer { id } }', variables: {} } } } },
  '/api/translation/reset/[pageId]': { path: '/api/translation/reset/nosuchpage', methods: { POST: { auth: 'editor', body: 'json', maxBytes: 1024 } } },
  '/api/translation/start/[pageId]': { path: '/api/translation/start/nosuchpage', methods: { POST: { auth: 'editor', body: 'json', maxBytes: 1024 } } },
  '/api/translation/state/[pageId]': { path: '/api/translation/state/nosuchpage', methods: { GET: { auth: 'editor', body: 'none' } } },
  '/api/user-admin/invitations': { path: '/api/user-admin/invitations', methods: { POST: { auth: 'bearer', body: 'json', maxBytes: 8192, sample: { email: 'x@example.com', orguid: 'org', applications: [] } } } },
  '/api/user-admin/organisations': { path: '/api/user-admin/organisations', methods: { GET: { auth: 'bearer', body: 'none' } } },
  '/api/user-admin/users': { path: '/api/user-admin/users?page=1', methods: { GET: { auth: 'bearer', body: 'none' } } },
  '/api/user-admin/users/[id]': { path: '/api/user-admin/users/nosuchuser', methods: { GET: { auth: 'bearer', body: 'none' }, DELETE: { auth: 'bearer', body: 'none' } } },
  '/api/user-admin/users/[id]/access/[application]': { path: '/api/user-admin/users/nosuchuser/access/eshop', methods: { POST: { auth: 'bearer', body: 'json', maxBytes: 8192, sample: { action: 'grant' } } } },
  '/api/user-admin/users/[id]/organisations/[orguid]': { path: '/api/user-admin/users/nosuchuser/organisations/nosuchorg', methods: { DELETE: { auth: 'bearer', body: 'none' } } },
  '/api/revalidate': { path: '/api/revalidate', methods: { POST: { auth: 'secret', body: 'json', maxBytes: 64 * 1024, sample: { ids: [''], slugs: ['Not Kebab'], all: 'yes' }, sideEffects: true } } },
};

/** The route patterns of src/pages/api (file path without extension; `index` is its folder). */
function apiRoutes(dir = API_DIR): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...apiRoutes(full));
    else if (/\.(ts|js|mjs)$/.test(name) && !/\.test\.ts$/.test(name)) {
      const route = `/api/${relative(API_DIR, full).replace(/\\/g, '/').replace(/\.(ts|js|mjs)$/, '').replace(/(^|\/)index$/, '')}`;
      out.push(route.replace(/\/$/, ''));
    }
  }
  return out.sort();
}

// ---- raw HTTP from a chosen loopback address ----------------------------------------------------

let nextAddress = 0;
/** A fresh client address (127.<10 + worker>.x.y): its own rate-limit bucket on the server. */
const freshClient = () => {
  nextAddress++;
  const worker = Number(process.env.TEST_WORKER_INDEX ?? 0) % 200;
  return `127.${10 + worker}.${Math.floor(nextAddress / 250) % 256}.${(nextAddress % 250) + 1}`;
};

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; text: string }

/**
 * One request from `from`. `body` as a string or Buffer (sent with its Content-Length), or
 * `chunks` (sent chunked, without a length); `declare` sends that Content-Length but only the
 * first 64 KiB, and the answer must come before the rest.
 */
function send(from: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: string | Buffer; chunks?: number; declare?: number } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // Same-origin (Astro refuses cross-site form posts before any handler).
    const headers: Record<string, string> = { host: `localhost:${PORT}`, origin: `http://localhost:${PORT}`, ...opts.headers };
    if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
    if (opts.declare !== undefined) headers['content-length'] = String(opts.declare);
    let answered = false;
    let failure: Error | null = null;
    // Keep-alive, as browsers and curl: the server reads and drops what follows an early answer
    // instead of closing the connection under the client (which could lose the answer).
    const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: from } as ConstructorParameters<typeof Agent>[0]);
    const req = httpRequest({ host: '127.0.0.1', port: PORT, path, method, headers, agent, localAddress: from }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }); req.destroy(); agent.destroy(); });
      res.on('error', reject);
    });
    // A server that answered early closes the connection while the rest is still being sent
    // (EPIPE, ECONNRESET): what counts is the answer that came first.
    req.on('error', (err) => { failure ??= err; });
    req.on('close', () => { if (!answered) { agent.destroy(); reject(failure ?? new Error('closed without an answer')); } });
    if (opts.body !== undefined) req.end(opts.body);
    else if (opts.declare !== undefined) req.write(Buffer.alloc(Math.min(opts.declare, 64 * 1024), 0x20));
    else if (opts.chunks !== undefined) {
      // Chunked: 64 KiB at a time until the answer arrives (or all were sent).
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let left = opts.chunks;
      const pump = () => {
        while (left > 0) {
          left--;
          if (!req.write(chunk)) { req.once('drain', pump); return; }
        }
        req.end();
      };
      req.once('response', () => { left = 0; });
      pump();
    } else req.end();
  });
}

/** What no answer may hold: a stack frame, a file path of this machine, an upstream's address. */
function expectNoLeak(answer: Answer, what: string): void {
  expect(answer.text, `${what}: stack trace`).not.toMatch(/\n\s+at .+\(|at (?:async )?[\w.<>]+ \(/);
  expect(answer.text, `${what}: file path`).not.toMatch(/\/(?:home|work|srv|usr|tmp|var|opt)\/[\w.-]+\/|node_modules|file:\/\/|[A-Z]:\\\\/);
  expect(answer.text, `${what}: upstream address`).not.toMatch(new RegExp(`127\\.0\\.0\\.1:(?:${PORT - 203}|${PORT - 202}|${PORT - 201}|${PORT - 200})|ECONNREFUSED|localhost:(?:${PORT - 203}|${PORT - 201}|${PORT - 200})`));
}

/** A refusal: the expected status range, JSON with a clear message, and no leak. */
function expectRefusal(answer: Answer, what: string, status?: number | number[]): void {
  expectNoLeak(answer, what);
  expect(answer.status, `${what}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
  if (status !== undefined) expect([status].flat(), `${what}: ${answer.text.slice(0, 200)}`).toContain(answer.status);
  if (answer.status < 400) return;
  const type = String(answer.headers['content-type'] ?? '');
  if (type.startsWith('application/json')) {
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    // The editor sign-in's refusal of a wrong password is the spec's bare `{ success: false }` (401).
    if (answer.status === 401 && body.success === false && Object.keys(body).length === 1) return;
    // GraphQL answers (the tickets proxy) carry theirs in errors[].message.
    const graphQL = Array.isArray(body.errors) ? (body.errors as { message?: unknown }[]).map((e) => e?.message) : [];
    // Identity management's policy refusals (account password and profile) are codes per field, which the screens translate.
    const policy = Array.isArray(body.failures) ? (body.failures as { code?: unknown }[]).map((f) => f?.code) : [];
    const message = [body.message, body.error, ...graphQL, ...policy, ...Object.values((body.fields ?? {}) as Record<string, unknown>)].find((m) => typeof m === 'string' && m.length > 0);
    expect(message, `${what}: a clear message in ${answer.text.slice(0, 200)}`).toBeTruthy();
  } else {
    expect(answer.text.length, `${what}: a message (${type})`).toBeGreaterThan(0);
  }
}

// ---- credentials -------------------------------------------------------------------------------

/** The identity emulator's signing key (its data folder of this run), to sign tokens its JWKS vouches for. */
function providerKey(): JWK {
  const file = fileURLToPath(new URL(`../../dist-e2e-identity-${PORT}/keys.json`, import.meta.url));
  return (JSON.parse(readFileSync(file, 'utf8')) as { jwk: JWK }).jwk;
}

async function token(opts: { key?: JWK; aud?: string; iss?: string; exp?: number; sub?: string } = {}): Promise<string> {
  const jwk = opts.key ?? providerKey();
  const key = await importJWK(jwk, 'RS256');
  return new SignJWT({ scope: 'openid profile email' })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid ?? 'k', typ: 'at+jwt' })
    .setIssuer(opts.iss ?? ISSUER)
    .setAudience(opts.aud ?? 'kmx-web')
    .setSubject(opts.sub ?? 'hostile-nobody')
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 300)
    .sign(key);
}

/** Tokens that must never pass: a forged signature (our own key), expired, for another audience or issuer, garbage. */
async function forgedTokens(): Promise<Record<string, string>> {
  const own = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as JWK;
  const real = providerKey();
  return {
    'wrong signature': await token({ key: { ...own, kid: real.kid } }),
    expired: await token({ exp: Math.floor(Date.now() / 1000) - 3600 }),
    'wrong audience': await token({ aud: 'someone-else' }),
    'wrong issuer': await token({ iss: 'http://evil.example/am/oauth2/realms/root/realms/alpha' }),
    'alg none': `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'x', aud: 'kmx-web', iss: ISSUER, exp: 9_999_999_999 })).toString('base64url')}.`,
    garbage: 'not.a.token',
  };
}

/** The headers that get a request past the endpoint's guard (a token the verifier accepts for an unknown user). */
/**
 * A real access token of a demo customer (signed in once per worker through the provider's login
 * form): our APIs ask the provider whether a token is active, so a token it never issued is
 * refused (401) before any body is read, and could not prove the body limits and validation.
 */
let customerToken: Promise<string> | null = null;

async function credentials(auth: Auth): Promise<Record<string, string>> {
  switch (auth) {
    case 'bearer': {
      customerToken ??= signIn({ issuer: ISSUER, redirectUri: `http://localhost:${PORT}/en/callback`, username: DEMO_USERS.customer, password: DEMO_PASSWORD }).then((t) => t.access_token);
      return { authorization: `Bearer ${await customerToken}` };
    }
    case 'editor': return { cookie: editorCookieHeader() };
    case 'secret': return { 'x-revalidate-secret': REVALIDATE_SECRET };
    case 'none': return {};
  }
}

const typesOf = (kind: BodyKind): string[] => ({
  json: ['application/json'], 'json+form': ['application/json', 'application/x-www-form-urlencoded'], 'json+multipart': ['application/json', 'multipart/form-data'],
  'form+json': ['application/x-www-form-urlencoded', 'application/json'], report: ['application/csp-report', 'application/reports+json'], none: [],
})[kind];

// ---- the suite ---------------------------------------------------------------------------------

test.describe.configure({ mode: 'parallel' });

test('every API route of the route table has a hostile-input case, and every case a route', () => {
  const routes = [...apiRoutes(), ...SERVER_ROUTES].sort();
  expect(routes.length).toBeGreaterThan(25);
  expect(routes.filter((r) => !CASES[r]), 'routes without a case in tests/e2e/hostile-api.spec.ts').toEqual([]);
  expect(Object.keys(CASES).filter((r) => !routes.includes(r)), 'cases without a route').toEqual([]);
});

for (const [route, c] of Object.entries(CASES)) {
  const methods = Object.keys(c.methods) as (keyof RouteCase['methods'])[];
  test.describe(route, () => {
    test('other methods: 405 with Allow naming exactly the route\'s methods', async () => {
      const from = freshClient();
      // PUT is taken by no route: the Allow header it gets lists what the route takes.
      const put = await send(from, 'PUT', c.path, { headers: { 'content-type': 'application/json' }, body: '{}' });
      expectRefusal(put, `PUT ${route}`, 405);
      const allow = String(put.headers.allow ?? '').split(/,\s*/).filter((m) => m && m !== 'HEAD').sort();
      expect(allow, `${route}: Allow header against the case's methods (a method without a case?)`).toEqual([...methods].sort());
      for (const method of ['GET', 'POST', 'PATCH', 'DELETE'].filter((m) => !methods.includes(m as never))) {
        const other = await send(from, method, c.path);
        expectRefusal(other, `${method} ${route}`, 405);
      }
    });

    for (const method of methods) {
      const mc = c.methods[method]!;
      const types = typesOf(mc.body);

      test(`${method}: missing or forged credentials are refused`, async () => {
        test.skip(mc.auth === 'none', 'a public endpoint');
        const from = freshClient();
        const body = mc.body === 'none' ? undefined : JSON.stringify(mc.sample ?? {});
        const headers: Record<string, string> = body ? { 'content-type': 'application/json' } : {};
        const missing = await send(from, method, c.path, { headers, body });
        expectRefusal(missing, `${method} ${route} without credentials`, mc.auth === 'secret' ? 401 : [401, 403]);
        if (mc.auth === 'bearer') {
          for (const [why, forged] of Object.entries(await forgedTokens())) {
            const res = await send(from, method, c.path, { headers: { ...headers, authorization: `Bearer ${forged}` }, body });
            expectRefusal(res, `${method} ${route} with a token (${why})`, 401);
          }
        }
        if (mc.auth === 'editor') {
          for (const cookie of ['kmx_editor=forged', `${editorCookieHeader()}x`, `${editorCookieHeader().slice(0, -4)}AAAA`]) {
            const res = await send(from, method, c.path, { headers: { ...headers, cookie }, body });
            expectRefusal(res, `${method} ${route} with a forged editor cookie`, 401);
          }
        }
        if (mc.auth === 'secret') {
          const res = await send(from, method, c.path, { headers: { ...headers, 'x-revalidate-secret': `${REVALIDATE_SECRET}x` }, body });
          expectRefusal(res, `${method} ${route} with a wrong secret`, 401);
        }
      });

      test(`${method}: bodies of another type or over the limit are refused (415 / 413) before they are read`, async () => {
        test.skip(method === 'GET', 'GET takes no body');
        const from = freshClient();
        const auth = await credentials(mc.auth);
        if (types.length === 0) {
          // Takes no body: any body is over its limit of 0 bytes.
          const res = await send(from, method, c.path, { headers: { ...auth, 'content-type': 'application/json' }, body: '{"a":1}' });
          expectRefusal(res, `${method} ${route} with a body`, 413);
          const big = await send(from, method, c.path, { headers: { ...auth, 'content-type': 'application/json' }, declare: 50 * 1024 * 1024 });
          expectRefusal(big, `${method} ${route} with a declared 50 MB body`, 413);
          return;
        }
        for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/jsonx'].filter((t) => !types.includes(t.split(';')[0]!))) {
          const res = await send(from, method, c.path, { headers: { ...auth, 'content-type': type }, body: 'a=1' });
          expectRefusal(res, `${method} ${route} as ${type}`, 415);
        }
        const noType = await send(from, method, c.path, { headers: auth, body: '{}' });
        expectRefusal(noType, `${method} ${route} without a Content-Type`, 415);
        const type = types[0]!;
        const over = await send(from, method, c.path, { headers: { ...auth, 'content-type': type }, body: Buffer.alloc(mc.maxBytes! + 1, 0x20) });
        expectRefusal(over, `${method} ${route}: ${mc.maxBytes! + 1} bytes`, 413);
        // 50 MB declared: answered while only 64 KiB were sent.
        const declared = await send(from, method, c.path, { headers: { ...auth, 'content-type': type }, declare: 50 * 1024 * 1024 });
        expectRefusal(declared, `${method} ${route}: 50 MB declared`, 413);
        // Chunked, no length: refused once it passes the limit (at most 8 MB are sent; the server drops up to 16 MiB after the limit before it cuts the connection).
        const chunked = await send(from, method, c.path, { headers: { ...auth, 'content-type': type }, chunks: Math.min(128, Math.ceil((mc.maxBytes! * 4) / 65536) + 1) });
        expectRefusal(chunked, `${method} ${route}: chunked over the limit`, 413);
      });

      test(`${method}: malformed JSON, wrong types, missing and extra fields, NUL, unicode and very long values get a clear 4xx, never a 5xx`, async () => {
        // The JSON type the endpoint takes (application/json, or a CSP report's own JSON type).
        const jsonType = types.find((t) => /^application\/(?:json|csp-report|reports\+json)$/.test(t));
        test.skip(!jsonType || !mc.sample, 'takes no JSON to check');
        const auth = await credentials(mc.auth);
        // Each request from its own client: the endpoint's rate limit never hides what it answers.
        const post = (body: string) => send(freshClient(), method, c.path, { headers: { ...auth, 'content-type': jsonType! }, body });
        const raws = ['{', '{"a":', '[1,2', 'nul\u0000l', '\u0000', '{"a":"\ud800"}', 'null', '42', '"text"', '[]', '{}'.repeat(3), '\ufeff{}'];
        for (const raw of raws.filter((r) => !(mc.sideEffects && r === '\ufeff{}'))) {
          const res = await post(raw);
          expectRefusal(res, `${method} ${route} body ${JSON.stringify(raw)}`);
          if (raw === '\ufeff{}') {
            // A byte order mark is refused, or ignored as RFC 8259 §8.1 allows: then the body is `{}`,
            // which an endpoint whose fields are all optional (a profile PATCH) takes as nothing to change.
            if (res.status < 400) expect(res.status, `${method} ${route}: a BOM is refused or ignored`).toBe((await post('{}')).status);
          } else if (!['{"a":"\ud800"}'].includes(raw)) expect(res.status, `${method} ${route} body ${JSON.stringify(raw)}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        }
        const sample = mc.sample ?? {};
        const variants: [string, unknown][] = [['extra field', { ...sample, extra: 'x' }], ['prototype pollution', JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')]];
        if (!mc.sideEffects) variants.push(['missing fields', {}]);
        for (const field of Object.keys(sample)) {
          const { [field]: _dropped, ...rest } = sample;
          if (!mc.sideEffects) variants.push([`without ${field}`, rest]);
          for (const wrong of [42, true, null, [], {}, ['a'], -1.5e308]) variants.push([`${field} = ${JSON.stringify(wrong)}`, { ...sample, [field]: wrong }]);
          for (const text of ['\u0000', 'a\u0000b', 'Zürich 東京 🙂 \u202e', '\ud83d', '<script>alert(1)</script>', '../../etc/passwd', 'x'.repeat(Math.max(0, (mc.maxBytes ?? 4096) - 200))]) {
            variants.push([`${field} = ${JSON.stringify(text).slice(0, 40)}`, { ...sample, [field]: text }]);
          }
        }
        for (const [what, value] of variants) {
          const res = await post(JSON.stringify(value));
          expectRefusal(res, `${method} ${route} ${what}`);
          if (mc.sideEffects) expect(res.status, `${method} ${route} ${what}`).toBe(400);
        }
        // A value longer than the limit: 413, never parsed.
        const long = await post(JSON.stringify({ ...sample, long: 'x'.repeat(mc.maxBytes! + 10) }));
        expectRefusal(long, `${method} ${route} with a very long value`, 413);
      });
    }
  });
}

test.describe('rate limits of the endpoints that write', () => {
  /** Posts until a 429 arrives (at most `limit + 1` times), from one fresh client. */
  async function burst(path: string, limit: number, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ answers: number; limited: Answer }> {
    const from = freshClient();
    for (let i = 1; i <= limit + 1; i++) {
      const res = await send(from, init.method ?? 'POST', path, { headers: init.headers, body: init.body });
      if (res.status === 429) return { answers: i, limited: res };
    }
    throw new Error(`${path}: no 429 after ${limit + 1} requests`);
  }

  const cases: [string, number, { method?: string; headers?: Record<string, string>; body?: string }][] = [
    ['/api/story-feedback', 10, { headers: { 'content-type': 'application/json' }, body: '{"lang":"en"}' }],
    ['/api/forms/contact', 10, { headers: { 'content-type': 'application/json' }, body: '{"lang":"en"}' }],
    ['/api/protected-pages/grant', 30, {}],
    ['/api/user-admin/invitations', 60, { headers: { 'content-type': 'application/json' }, body: '{}' }],
    ['/api/account/password', 20, { headers: { 'content-type': 'application/json' }, body: '{}' }],
    ['/api/translation/start/nosuchpage', 30, {}],
    ['/api/editor-area-autentication/logout', 30, {}],
    ['/api/revalidate', 10, { headers: { 'x-revalidate-secret': 'wrong' } }],
  ];
  for (const [path, limit, init] of cases) {
    test(`${path}: ${limit} requests per client, then 429 with Retry-After and a clear message`, async () => {
      const { answers, limited } = await burst(path, limit, init);
      expect(answers).toBe(limit + 1);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.text).toMatch(/Too many|try again/i);
      expectNoLeak(limited, path);
    });
  }

  test('editor sign-in: 5 failed passwords per client and minute, then 429', async () => {
    const from = freshClient();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(from, 'POST', '/api/editor-area-autentication', { headers: { 'content-type': 'application/json' }, body: '{"input":"wrong-password"}' })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

test('a 50 MB JSON body to the search proxy is refused at once, and the server does not hold it', async () => {
  const from = freshClient();
  const declared = await send(from, 'POST', '/api/search-proxy/search', { headers: { 'content-type': 'application/json' }, declare: 50 * 1024 * 1024 });
  expect(declared.status).toBe(413);
  expect(JSON.parse(declared.text)).toEqual({ error: 'too-large', message: 'The request body is too large: at most 16,384 bytes.' });
  // Sent whole (chunked, 12 MB): the answer is the same 413, and the search keeps answering.
  const chunked = await send(from, 'POST', '/api/search-proxy/search', { headers: { 'content-type': 'application/json' }, chunks: 192 });
  expect(chunked.status).toBe(413);
  const ok = await send(freshClient(), 'POST', '/api/search-proxy/search', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ localeCode: 'en', query: 'crimp' }) });
  expect(ok.status).toBeLessThan(500);
});
