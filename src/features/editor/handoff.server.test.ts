import type { APIContext } from 'astro';
import { describe, expect, it } from 'vitest';
import { hashPasswordSync } from '../../lib/crypto/password.ts';
import type { SystemData } from '../../site/types.ts';
import { testServices } from '../platform/testing.ts';
import { acceptHandoff, HANDOFF_PARAM, handoffToken, isHandoffFor, previewHandoffHandler } from './handoff.server.ts';
import { EDITOR_COOKIE, editorSessionValue } from './session.server.ts';

const HASH = hashPasswordSync('pw', { N: 2 ** 10, r: 8, p: 1 });
const OTHER_HASH = hashPasswordSync('other', { N: 2 ** 10, r: 8, p: 1 });
const EDITOR = `${EDITOR_COOKIE}=${editorSessionValue(HASH)}`;
const services = { ...testServices({ contentEndpoint: 'http://127.0.0.1:1/graphql', catalogueEndpoint: 'http://127.0.0.1:1/graphql' }), editorPasswordHash: HASH };
const system = {
  sites: [
    { id: 'site-main', slug: '', domains: [{ host: 'localhost', slug: null }, { host: 'www.komax.example', slug: null }] },
    { id: 'site-events-na', slug: '', domains: [{ host: 'events.localhost', slug: null }, { host: 'events.komax.example', slug: null }] },
  ],
} as unknown as SystemData;

function call(target: string | null, cookie?: string) {
  const url = new URL('http://localhost:4321/api/editor/preview-handoff');
  if (target !== null) url.searchParams.set('to', target);
  const request = new Request(url, { headers: cookie ? { cookie } : {} });
  return previewHandoffHandler({ request, url, params: {}, locals: { api: { system, services } } } as unknown as APIContext) as Response;
}

describe('handoff tokens', () => {
  it('are accepted for their host within a minute, under the hash they were made with', () => {
    const t = handoffToken(HASH, 'events.localhost', 1_000_000);
    expect(isHandoffFor(t, HASH, 'events.localhost', 1_000_000 + 59_000)).toBe(true);
    expect(isHandoffFor(t, HASH, 'EVENTS.localhost', 1_000_000)).toBe(true);
    expect(isHandoffFor(t, HASH, 'events.localhost', 1_000_000 + 61_000)).toBe(false);
    expect(isHandoffFor(t, HASH, 'partner.localhost', 1_000_000)).toBe(false);
    expect(isHandoffFor(t, OTHER_HASH, 'events.localhost', 1_000_000)).toBe(false);
    expect(isHandoffFor(`${t}x`, HASH, 'events.localhost', 1_000_000)).toBe(false);
  });
});

describe('acceptHandoff (the target host)', () => {
  it('turns a valid token into this host\'s editor cookie and drops it from the address', () => {
    const url = new URL(`http://events.localhost:4321/en/webinars?preview=DRAFT&${HANDOFF_PARAM}=${handoffToken(HASH, 'events.localhost')}`);
    const res = acceptHandoff(url, HASH)!;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/webinars?preview=DRAFT');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('set-cookie')).toContain(`${EDITOR_COOKIE}=${editorSessionValue(HASH)}; Max-Age=7776000; Path=/; HttpOnly; SameSite=Lax`);
  });
  it('drops a token for another host, a forged one or one after a password change, without a cookie', () => {
    for (const token of [handoffToken(HASH, 'partner.localhost'), 'forged.token', handoffToken(OTHER_HASH, 'events.localhost')]) {
      const res = acceptHandoff(new URL(`http://events.localhost:4321/en?${HANDOFF_PARAM}=${encodeURIComponent(token)}`), HASH)!;
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/en');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    expect(acceptHandoff(new URL(`http://events.localhost:4321/en?${HANDOFF_PARAM}=x`), undefined)!.headers.get('set-cookie')).toBeNull();
  });
  it('leaves requests without a token alone', () => {
    expect(acceptHandoff(new URL('http://events.localhost:4321/en?preview=DRAFT'), HASH)).toBeNull();
  });
});

describe('GET /api/editor/preview-handoff', () => {
  it('needs an editor session', async () => {
    const res = call('http://events.localhost:4321/en?preview=DRAFT');
    expect(res.status).toBe(401);
  });
  it('sends a signed-in editor to the page on the other host with a token for that host', () => {
    const res = call('http://events.localhost:4321/en/webinars?preview=DRAFT', EDITOR);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe('http://events.localhost:4321');
    expect(location.pathname).toBe('/en/webinars');
    expect(location.searchParams.get('preview')).toBe('DRAFT');
    expect(isHandoffFor(location.searchParams.get(HANDOFF_PARAM)!, HASH, 'events.localhost')).toBe(true);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
  it('never redirects anywhere but another site\'s origin (400)', async () => {
    for (const to of ['https://evil.example/en', '//evil.example/en', 'http://localhost:4321/en', 'http://events.localhost:9999/en', 'https://events.localhost:4321/en', 'javascript:alert(1)', '', 'x'.repeat(3000)]) {
      const res = call(to, EDITOR);
      expect(res.status, to).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/^to /);
    }
    expect(call(null, EDITOR).status).toBe(400);
  });
});
