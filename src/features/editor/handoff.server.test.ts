import type { APIContext } from 'astro';
import { describe, expect, it } from 'vitest';
import { hashPasswordSync } from '../../lib/crypto/password.ts';
import { memorySharedState, type SharedState } from '../../lib/shared-state/index.ts';
import type { SystemData } from '../../site/types.ts';
import { testServices } from '../../../tests/support/services.ts';
import { editorAuthHandlers } from './auth.server.ts';
import { acceptHandoff, HANDOFF_PARAM, handoffToken, previewHandoffHandler, readHandoff } from './handoff.server.ts';
import { EDITOR_COOKIE, EDITOR_COOKIE_MAX_AGE, editorSession, newEditorSession, readEditorSession } from './session.server.ts';

const HASH = hashPasswordSync('pw', { N: 2 ** 10, r: 8, p: 1 });
const OTHER_HASH = hashPasswordSync('other', { N: 2 ** 10, r: 8, p: 1 });
const system = {
  sites: [
    { id: 'site-main', slug: '', domains: [{ host: 'localhost', slug: null }, { host: 'www.komax.example', slug: null }] },
    { id: 'site-events-na', slug: '', domains: [{ host: 'events.localhost', slug: null }, { host: 'events.komax.example', slug: null }] },
  ],
} as unknown as SystemData;
const servicesWith = (sharedState: SharedState) => ({ ...testServices({ contentEndpoint: 'http://127.0.0.1:1/graphql', catalogueEndpoint: 'http://127.0.0.1:1/graphql' }), editorPasswordHash: HASH, sharedState });

function call(target: string | null, cookie: string | undefined, state: SharedState) {
  const url = new URL('http://localhost:4321/api/editor/preview-handoff');
  if (target !== null) url.searchParams.set('to', target);
  const request = new Request(url, { headers: cookie ? { cookie } : {} });
  return previewHandoffHandler({ request, url, params: {}, locals: { api: { system, services: servicesWith(state) } } } as unknown as APIContext);
}

/** A signed-in editor: a session and its cookie. */
function editor() {
  const value = newEditorSession(HASH);
  return { value, cookie: `${EDITOR_COOKIE}=${value}`, session: readEditorSession(value, HASH)! };
}

/** The handoff token in the Location of the endpoint's 302. */
async function tokenFor(target: string, cookie: string, state: SharedState): Promise<string> {
  const res = await call(target, cookie, state);
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!).searchParams.get(HANDOFF_PARAM)!;
}

const arrive = (url: string, state: SharedState) => acceptHandoff(new URL(url), HASH, state);
const cookieSet = (res: Response | null) => res!.headers.get('set-cookie');

describe('handoff tokens', () => {
  it('are read for their exact host (host and port) within a minute, under the hash they were made with', () => {
    const { session } = editor();
    const t = handoffToken(HASH, 'events.localhost:4321', session, 1_000_000);
    expect(readHandoff(t, HASH, 'events.localhost:4321', 1_000_000 + 59_000)).toMatchObject({ host: 'events.localhost:4321', session: { sid: session.sid } });
    expect(readHandoff(t, HASH, 'EVENTS.localhost:4321', 1_000_000)).not.toBeNull();
    expect(readHandoff(t, HASH, 'events.localhost:4321', 1_000_000 + 61_000)).toBeNull();
    expect(readHandoff(t, HASH, 'partner.localhost:4321', 1_000_000)).toBeNull();
    expect(readHandoff(t, HASH, 'events.localhost:9999', 1_000_000)).toBeNull();
    expect(readHandoff(t, HASH, 'events.localhost', 1_000_000)).toBeNull();
    expect(readHandoff(t, OTHER_HASH, 'events.localhost:4321', 1_000_000)).toBeNull();
    expect(readHandoff(`${t}x`, HASH, 'events.localhost:4321', 1_000_000)).toBeNull();
  });
});

describe('acceptHandoff (the target host)', () => {
  it('turns a valid token into this host\'s cookie for the same session and drops it from the address', async () => {
    const state = memorySharedState();
    const { session } = editor();
    const res = (await arrive(`http://events.localhost:4321/en/webinars?preview=DRAFT&${HANDOFF_PARAM}=${handoffToken(HASH, 'events.localhost:4321', session)}`, state))!;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/webinars?preview=DRAFT');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const set = res.headers.get('set-cookie')!;
    expect(set).toMatch(new RegExp(`^${EDITOR_COOKIE}=[\\w.-]+; Max-Age=\\d+; Path=/; HttpOnly; SameSite=Lax$`));
    expect(Number(/Max-Age=(\d+)/.exec(set)![1])).toBeLessThanOrEqual(EDITOR_COOKIE_MAX_AGE);
    const value = /=([^;]+);/.exec(set)![1];
    expect(await editorSession(value, HASH, state)).toEqual(session);
  });

  it('is single use: the same token a second time sets no cookie', async () => {
    const state = memorySharedState();
    const { cookie } = editor();
    const token = await tokenFor('http://events.localhost:4321/en/webinars?preview=DRAFT', cookie, state);
    const url = `http://events.localhost:4321/en/webinars?preview=DRAFT&${HANDOFF_PARAM}=${encodeURIComponent(token)}`;
    expect(cookieSet(await arrive(url, state))).toMatch(new RegExp(`^${EDITOR_COOKIE}=`));
    const again = await arrive(url, state);
    expect(again!.status).toBe(302);
    expect(again!.headers.get('location')).toBe('/en/webinars?preview=DRAFT');
    expect(cookieSet(again)).toBeNull();
  });

  it('is valid only on the exact target host: another host or another port gets no cookie (and the token stays unused)', async () => {
    const state = memorySharedState();
    const { cookie } = editor();
    const token = encodeURIComponent(await tokenFor('http://events.localhost:4321/en', cookie, state));
    for (const elsewhere of ['http://partner.localhost:4321/en', 'http://events.localhost:9999/en', 'http://localhost:4321/en']) {
      const res = await arrive(`${elsewhere}?${HANDOFF_PARAM}=${token}`, state);
      expect(res!.status, elsewhere).toBe(302);
      expect(cookieSet(res), elsewhere).toBeNull();
    }
    expect(cookieSet(await arrive(`http://events.localhost:4321/en?${HANDOFF_PARAM}=${token}`, state))).not.toBeNull();
  });

  it('drops a forged token, one after a password change, and one whose session was logged out, without a cookie', async () => {
    const state = memorySharedState();
    const { session, cookie } = editor();
    const afterLogout = await tokenFor('http://events.localhost:4321/en', cookie, state);
    const out = await editorAuthHandlers().logout({ request: new Request('http://localhost:4321/api/editor-area-autentication/logout', { method: 'POST', headers: { cookie } }), url: new URL('http://localhost:4321/api/editor-area-autentication/logout'), locals: { api: { services: servicesWith(state) } } } as unknown as APIContext);
    expect(out.status).toBe(200);
    for (const token of ['forged.token', handoffToken(OTHER_HASH, 'events.localhost:4321', session), afterLogout]) {
      const res = await arrive(`http://events.localhost:4321/en?${HANDOFF_PARAM}=${encodeURIComponent(token)}`, state);
      expect(res!.status).toBe(302);
      expect(res!.headers.get('location')).toBe('/en');
      expect(cookieSet(res)).toBeNull();
    }
    expect(cookieSet(await acceptHandoff(new URL(`http://events.localhost:4321/en?${HANDOFF_PARAM}=x`), undefined, state))).toBeNull();
  });

  it('the cookie it set dies with a logout on the main host (the same session)', async () => {
    const state = memorySharedState();
    const { cookie } = editor();
    const token = await tokenFor('http://events.localhost:4321/en', cookie, state);
    const value = /=([^;]+);/.exec(cookieSet(await arrive(`http://events.localhost:4321/en?${HANDOFF_PARAM}=${encodeURIComponent(token)}`, state))!)![1];
    expect(await editorSession(value, HASH, state)).not.toBeNull();
    await editorAuthHandlers().logout({ request: new Request('http://localhost:4321/api/editor-area-autentication/logout', { method: 'POST', headers: { cookie } }), url: new URL('http://localhost:4321/api/editor-area-autentication/logout'), locals: { api: { services: servicesWith(state) } } } as unknown as APIContext);
    expect(await editorSession(value, HASH, state)).toBeNull();
  });

  it('leaves requests without a token alone', async () => {
    expect(await acceptHandoff(new URL('http://events.localhost:4321/en?preview=DRAFT'), HASH, memorySharedState())).toBeNull();
  });
});

describe('GET /api/editor/preview-handoff', () => {
  it('needs an editor session', async () => {
    const res = await call('http://events.localhost:4321/en?preview=DRAFT', undefined, memorySharedState());
    expect(res.status).toBe(401);
  });
  it('sends a signed-in editor to the page on the other host with a token for that host and session', async () => {
    const state = memorySharedState();
    const { cookie, session } = editor();
    const res = await call('http://events.localhost:4321/en/webinars?preview=DRAFT', cookie, state);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe('http://events.localhost:4321');
    expect(location.pathname).toBe('/en/webinars');
    expect(location.searchParams.get('preview')).toBe('DRAFT');
    expect(readHandoff(location.searchParams.get(HANDOFF_PARAM)!, HASH, 'events.localhost:4321')).toMatchObject({ session });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
  it('never redirects anywhere but another site\'s origin (400)', async () => {
    const { cookie } = editor();
    for (const to of ['https://evil.example/en', '//evil.example/en', 'http://localhost:4321/en', 'http://events.localhost:9999/en', 'https://events.localhost:4321/en', 'javascript:alert(1)', '', 'x'.repeat(3000)]) {
      const res = await call(to, cookie, memorySharedState());
      expect(res.status, to).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/^to /);
    }
    expect((await call(null, cookie, memorySharedState())).status).toBe(400);
  });
});
