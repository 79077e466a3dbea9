import { describe, expect, it } from 'vitest';
import { hashPasswordSync } from '../../lib/crypto/password.ts';
import type { PageContext } from '../platform/context.ts';
import { editorPage } from './page.server.ts';
import { memorySharedState, SharedStateError, type SharedState } from '../../lib/shared-state/index.ts';
import { errorPageStatus } from '../../site/error-page.ts';
import { EDITOR_COOKIE, newEditorSession, readEditorSession, revokeEditorSession } from './session.server.ts';

const HASH = hashPasswordSync('right', { N: 2 ** 10, r: 8, p: 1 });
const sharedState = memorySharedState();
const ctx = (opts: { isMain?: boolean; hash?: string | undefined } = {}) =>
  ({ request: { site: { isMain: opts.isMain ?? true } }, services: { editorPasswordHash: 'hash' in opts ? opts.hash : HASH, sharedState } }) as unknown as PageContext;

function post(body: string, client: string, cookie?: string) {
  const url = new URL('http://localhost:4321/en/editor?site=site-main&stage=DRAFT');
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (cookie) headers.cookie = cookie;
  return { request: new Request(url, { method: 'POST', headers, body }), url, clientAddress: client };
}

describe('the sign-in form of /{locale}/editor', () => {
  it('signs in and redirects (303) back to the same address with the cookie', async () => {
    const out = await editorPage(ctx(), post('intent=sign-in&password=right', 'a'));
    expect(out).toEqual({ kind: 'redirect', location: '/en/editor?site=site-main&stage=DRAFT', setCookie: expect.stringMatching(new RegExp(`^${EDITOR_COOKIE}=[\\w.-]+; Max-Age=7776000;`)) });
    const value = /=([^;]+);/.exec((out as { setCookie: string }).setCookie)![1];
    expect(readEditorSession(value, HASH)).toMatchObject({ sid: expect.any(String) });
  });

  it('shows the required, wrong-password and rate-limited states with their statuses', async () => {
    expect(await editorPage(ctx(), post('intent=sign-in&password=', 'b'))).toEqual({ kind: 'sign-in', status: 400, state: 'empty' });
    for (let i = 0; i < 5; i++) expect(await editorPage(ctx(), post('intent=sign-in&password=nope', 'b'))).toEqual({ kind: 'sign-in', status: 401, state: 'wrong' });
    expect(await editorPage(ctx(), post('intent=sign-in&password=right', 'b'))).toMatchObject({ kind: 'sign-in', status: 429, state: 'limited', retryAfterSeconds: expect.any(Number) });
  });

  it('is closed (503) without a configured hash and a 404 on another site', async () => {
    expect(await editorPage(ctx({ hash: undefined }), post('password=right', 'c'))).toEqual({ kind: 'sign-in', status: 503, state: 'closed' });
    expect(await editorPage(ctx({ isMain: false }), post('password=right', 'c'))).toEqual({ kind: 'not-found' });
  });

  it('refuses translation actions without a session, and takes them (303 back to the page) with one', async () => {
    expect(await editorPage(ctx(), post('intent=start&pageId=p1', 'd'))).toEqual({ kind: 'sign-in', status: 401, state: 'idle' });
    // The content hub is not reachable here: the action fails quietly (logged) and the page is shown again.
    const c = { ...ctx(), services: { editorPasswordHash: HASH, sharedState, content: { endpoint: 'http://127.0.0.1:9/graphql', timeouts: { connectTimeoutMs: 200, timeoutMs: 400 } } } } as unknown as PageContext;
    const session = newEditorSession(HASH);
    expect(await editorPage(c, post('intent=reset&pageId=p1', 'd', `${EDITOR_COOKIE}=${session}`))).toEqual({ kind: 'redirect', location: '/en/editor?site=site-main&stage=DRAFT#page-p1' });
    // Re-checked on every request: once revoked (a logout), the same cookie takes no action.
    await revokeEditorSession(readEditorSession(session, HASH)!, sharedState);
    expect(await editorPage(c, post('intent=reset&pageId=p1', 'd', `${EDITOR_COOKIE}=${session}`))).toEqual({ kind: 'sign-in', status: 401, state: 'idle' });
  });

  it('with the revocations not answering, a request with a valid cookie gets the 503 error page, never the area', async () => {
    const down: SharedState = { has: () => Promise.reject(new SharedStateError('Redis did not answer')), claim: () => Promise.reject(new SharedStateError('Redis did not answer')) };
    const c = { ...ctx(), services: { editorPasswordHash: HASH, sharedState: down } } as unknown as PageContext;
    const url = new URL('http://localhost:4321/en/editor');
    const out = await editorPage(c, { request: new Request(url, { headers: { cookie: `${EDITOR_COOKIE}=${newEditorSession(HASH)}` } }), url }).catch((e: unknown) => e);
    expect(errorPageStatus(out)).toEqual({ status: 503, retryAfter: 60 });
  });
});
