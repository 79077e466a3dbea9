// Issue 28 item 3: an editor session revoked on logout is refused on every instance. Two
// "instances" are two services objects, each with its own connection to one real redis-server.
import { randomBytes } from 'node:crypto';
import type { APIContext, APIRoute } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPasswordSync } from '../../lib/crypto/password.ts';
import { rateLimiter } from '../../lib/http/rate-limit.ts';
import { memorySharedState, type SharedState } from '../../lib/shared-state/index.ts';
import { redisConnection, redisSharedState, type RedisConnection } from '../../lib/shared-state/redis.ts';
import { ensureRedisServer, freePort, startRedis, type RunningRedis } from '../../../tests/support/redis.ts';
import { errorPageStatus } from '../../site/error-page.ts';
import type { PageContext } from '../platform/context.ts';
import { translationState } from './api.server.ts';
import { editorAuthHandlers, SESSION_UNCHECKED_MESSAGE, SIGN_IN_LIMIT } from './auth.server.ts';
import { acceptHandoff, handoffToken, redeemHandoff } from './handoff.server.ts';
import { editorPage } from './page.server.ts';
import { EDITOR_COOKIE, newEditorSession, readEditorSession } from './session.server.ts';

const HASH = hashPasswordSync('right-password', { N: 2 ** 10, r: 8, p: 1 });
const SAME_ORIGIN = { origin: 'http://localhost:4321', 'sec-fetch-site': 'same-origin' };
const server = ensureRedisServer();

/** One instance's answer to an editor API call. */
async function call(handler: APIRoute, state: SharedState, opts: { body?: unknown; cookie?: string } = {}) {
  const url = 'http://localhost:4321/api/editor-area-autentication';
  const headers: Record<string, string> = { ...SAME_ORIGIN, 'content-type': 'application/json' };
  if (opts.cookie) headers.cookie = `${EDITOR_COOKIE}=${opts.cookie}`;
  const request = new Request(url, { method: 'POST', headers, body: JSON.stringify(opts.body ?? {}) });
  const services = { editorPasswordHash: HASH, sharedState: state, content: { endpoint: 'http://127.0.0.1:9/graphql' } };
  const res = await handler({ request, url: new URL(url), locals: { api: { services } }, clientAddress: '10.0.0.1', params: { pageId: '../x' } } as unknown as APIContext);
  return { status: res.status, headers: res.headers, body: JSON.parse(await res.text()) as Record<string, unknown> };
}

/** Whether an instance lets a cookie through its editor check (the bad page id is the 400 behind it; 401 when refused). */
const passes = async (state: SharedState, cookie: string) => {
  const { status } = await call(translationState, state, { cookie });
  expect([400, 401]).toContain(status);
  return status === 400;
};

/** Signs in on one instance, logs out on another, and asks a third whether the cookie still opens anything. */
async function logoutAcross([a, b, c]: SharedState[]) {
  const { signIn, logout } = editorAuthHandlers(rateLimiter(SIGN_IN_LIMIT));
  const cookie = (await call(signIn, a!, { body: { input: 'right-password' } })).body.hashedPassword as string;
  const before = await passes(c!, cookie);
  expect((await call(logout, b!, { cookie })).status).toBe(200);
  return { before, after: await passes(c!, cookie), recheck: (await call(signIn, c!, { body: { hash: cookie } })).body };
}

describe.skipIf('skip' in server)('editor sessions over Redis (a real redis-server)', () => {
  let redis: RunningRedis;
  const opened: RedisConnection[] = [];
  const prefix = `test-${randomBytes(6).toString('hex')}:`;
  /** A new instance: its own connection to the one Redis. */
  const instance = (url = redis.url): SharedState => {
    const connection = redisConnection({ url, commandTimeoutMs: 30_000, connectTimeoutMs: 10_000, prefix });
    opened.push(connection);
    return redisSharedState(connection);
  };

  beforeAll(async () => {
    redis = await startRedis((server as { path: string }).path);
  });
  afterAll(async () => {
    await Promise.all(opened.map((c) => c.close()));
    await redis?.stop();
  });

  it('a session revoked on logout on one instance is refused on every other', async () => {
    expect(await logoutAcross([instance(), instance(), instance()])).toEqual({ before: true, after: false, recheck: { success: false } });
  });

  it('(with each instance\'s own memory, the other instances still let it through: the gap Redis closes)', async () => {
    expect(await logoutAcross([memorySharedState(), memorySharedState(), memorySharedState()])).toEqual({ before: true, after: true, recheck: { success: true } });
  });

  it('a handoff token is used once across instances', async () => {
    const [a, b] = [instance(), instance()];
    const session = readEditorSession(newEditorSession(HASH), HASH)!;
    const token = handoffToken(HASH, 'events.localhost:4321', session);
    expect(await redeemHandoff(token, HASH, 'events.localhost:4321', a)).toMatchObject({ sid: session.sid });
    expect(await redeemHandoff(token, HASH, 'events.localhost:4321', b)).toBeNull();
  });

  describe('with Redis not reachable, every editor check fails closed', () => {
    let down: SharedState;
    const cookie = newEditorSession(HASH);
    beforeAll(async () => {
      down = instance(`redis://127.0.0.1:${await freePort()}`);
    });

    it('editor APIs answer 503 with a clear message, never the session', async () => {
      const res = await call(translationState, down, { cookie });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ success: false, error: 'session-store-unavailable', message: SESSION_UNCHECKED_MESSAGE });
    });

    it('the editor page and a handoff arriving on another host get the 503 error page', async () => {
      const url = new URL('http://localhost:4321/en/editor');
      const ctx = { request: { site: { isMain: true } }, services: { editorPasswordHash: HASH, sharedState: down } } as unknown as PageContext;
      const page = await editorPage(ctx, { request: new Request(url, { headers: { cookie: `${EDITOR_COOKIE}=${cookie}` } }), url }).catch((e: unknown) => e);
      expect(errorPageStatus(page)).toEqual({ status: 503, retryAfter: 60 });
      const token = handoffToken(HASH, 'events.localhost:4321', readEditorSession(cookie, HASH)!);
      const handoff = await acceptHandoff(new URL(`http://events.localhost:4321/en?editor-handoff=${token}`), HASH, down).catch((e: unknown) => e);
      expect(errorPageStatus(handoff)).toEqual({ status: 503, retryAfter: 60 });
    });
  });
});
