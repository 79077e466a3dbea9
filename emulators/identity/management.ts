// A tiny stand-in for identity management (IDM REST shape of the issue 10 contract) for unit
// tests: loopback, port 0, in memory. Never imported by app code.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeUser {
  _id: string;
  userName: string;
  givenName: string;
  sn: string;
  mail: string;
  telephoneNumber: string;
  postalAddress: string;
  postalCode: string;
  city: string;
  country: string;
  custom_company: string;
  custom_language: string;
  custom_internallyManaged: boolean;
  custom_mfaDevices: number;
  password: string;
}

export interface FakeRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface FakeManagement {
  /** Base URL, e.g. `http://127.0.0.1:PORT/openidm`. */
  url: string;
  users: Map<string, FakeUser>;
  /** Access token → user id; any other token is refused with 401. */
  tokens: Map<string, string>;
  requests: FakeRequest[];
  /** The next answer, instead of the emulation (status and raw body; a string is sent as is). */
  override: { status: number; body: unknown; delayMs?: number } | null;
  close(): Promise<void>;
}

export const fakeUser = (id: string, extra: Partial<FakeUser> = {}): FakeUser => ({
  _id: id, userName: `${id}@demo.komax.test`, givenName: 'Claire', sn: 'Customer', mail: `${id}@demo.komax.test`,
  telephoneNumber: '', postalAddress: '', postalCode: '', city: '', country: 'CH', custom_company: 'Demo AG', custom_language: 'en',
  custom_internallyManaged: false, custom_mfaDevices: 1, password: 'Komax-Demo-2026', ...extra,
});

const forbidden = (message: string, detail?: unknown) => ({ status: 403, body: { code: 403, reason: 'Forbidden', message, ...(detail ? { detail } : {}) } });
const failedPolicy = (property: string, policyRequirement: string, params?: Record<string, unknown>) =>
  forbidden('Failed policy validation', { result: false, failedPolicyRequirements: [{ property, policyRequirements: [{ policyRequirement, ...(params ? { params } : {}) }] }] });

/** A password check like the demo policy, enough for tests: length, a capital, a number. */
function passwordPolicy(password: string): { status: number; body: unknown } | null {
  if (password.length < 10) return failedPolicy('password', 'MIN_LENGTH', { minLength: 10 });
  if (!/[A-Z]/.test(password)) return failedPolicy('password', 'AT_LEAST_X_CAPITAL_LETTERS', { numCaps: 1 });
  if (!/[0-9]/.test(password)) return failedPolicy('password', 'AT_LEAST_X_NUMBERS', { numNums: 1 });
  return null;
}

const publicUser = ({ password: _password, ...rest }: FakeUser) => rest;

export async function startFakeManagement(users: FakeUser[] = []): Promise<FakeManagement> {
  const fake: FakeManagement = {
    url: '', users: new Map(users.map((u) => [u._id, u])), tokens: new Map(), requests: [], override: null,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
  const answer = (method: string, url: URL, headers: IncomingHttpHeaders, body: unknown): { status: number; body: unknown } => {
    const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
    const caller = token ? fake.tokens.get(token) : undefined;
    if (!caller) return { status: 401, body: { code: 401, reason: 'Unauthorized', message: 'Access Denied' } };
    const m = /^\/openidm\/managed\/alpha_user\/([^/]+)$/.exec(url.pathname);
    if (!m) return { status: 404, body: { code: 404, reason: 'Not Found', message: 'Resource not found' } };
    const id = decodeURIComponent(m[1]!);
    if (id !== caller) return forbidden('Access denied');
    const user = fake.users.get(id);
    if (!user) return { status: 404, body: { code: 404, reason: 'Not Found', message: `Object ${id} not found` } };
    if (method === 'GET') return { status: 200, body: publicUser(user) };
    if (method === 'DELETE') {
      fake.users.delete(id);
      return { status: 200, body: publicUser(user) };
    }
    if (method === 'POST' && url.searchParams.get('_action') === 'resetMfa') {
      user.custom_mfaDevices = 0;
      return { status: 200, body: { _id: id, custom_mfaDevices: 0 } };
    }
    if (method === 'PATCH' && Array.isArray(body)) {
      if (user.custom_internallyManaged) return forbidden('Internally managed account');
      const ops = body as { operation: string; field: string; value: string }[];
      const pw = ops.find((o) => o.field === '/password');
      if (pw) {
        if (headers['x-openidm-reauth-password'] !== user.password) return forbidden('Reauthentication failed');
        const refused = passwordPolicy(pw.value);
        if (refused) return refused;
        user.password = pw.value;
        return { status: 200, body: publicUser(user) };
      }
      for (const o of ops) {
        const attr = o.field.replace(/^\//, '');
        if ((attr === 'givenName' || attr === 'sn') && !o.value) return failedPolicy(attr, 'REQUIRED');
        if (attr === 'mail' && !/^[^@\s]+@[^@\s]+$/.test(o.value)) return failedPolicy(attr, 'VALID_EMAIL_ADDRESS_FORMAT');
      }
      for (const o of ops) (user as unknown as Record<string, unknown>)[o.field.replace(/^\//, '')] = o.value;
      return { status: 200, body: publicUser(user) };
    }
    return { status: 400, body: { code: 400, reason: 'Bad Request', message: 'Unsupported' } };
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: unknown = null;
      try { body = raw ? JSON.parse(raw) : null; } catch { body = raw; }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      fake.requests.push({ method: req.method ?? 'GET', url: `${url.pathname}${url.search}`, headers: req.headers, body });
      const send = (out: { status: number; body: unknown }) => {
        res.writeHead(out.status, { 'content-type': 'application/json' });
        res.end(typeof out.body === 'string' ? out.body : JSON.stringify(out.body));
      };
      const over = fake.override;
      if (over) {
        fake.override = null;
        if (over.delayMs) setTimeout(() => send(over), over.delayMs);
        else send(over);
        return;
      }
      send(answer(req.method ?? 'GET', url, req.headers, body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openidm`;
  return fake;
}
