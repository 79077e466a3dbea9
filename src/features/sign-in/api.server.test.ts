import { describe, expect, it } from 'vitest';
import type { APIContext } from 'astro';
import { getRegister } from './api.server.ts';

const ISSUER = 'http://localhost:4102/am/oauth2/realms/root/realms/alpha';
const sites = [
  { id: 'main', isMain: true, slug: '', domains: [{ host: 'localhost', slug: null }, { host: 'komax.example', slug: null }] },
  { id: 'events', isMain: false, slug: '', domains: [{ host: 'events.localhost', slug: null }, { host: 'events.komax.example', slug: null }] },
];

function register(address: string) {
  const request = new Request(address);
  const locals = { api: { system: { sites }, services: { identity: { issuer: ISSUER } } } };
  return getRegister({ request, url: new URL(address), locals } as unknown as APIContext);
}

/** The address the provider returns the new user to (its `goto`). */
const gotoOf = (res: Response) => new URL(res.headers.get('location')!).searchParams.get('goto');

describe('GET /api/mykomax/register', () => {
  it('returns the new user to the main site\'s localized /mykomax, never stored', async () => {
    const res = await register('http://localhost:4321/api/mykomax/register?locale=de-ch');
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('location')).toMatch(/^http:\/\/localhost:4102\/am\/XUI\/\?realm=alpha&authIndexType=service&authIndexValue=Registration&goto=/);
    expect(gotoOf(res)).toBe('http://localhost:4321/de-ch/mykomax');
  });

  it('asked on a sub-site\'s host, still returns to the main site (the sub-site has no customer area)', async () => {
    expect(gotoOf(await register('http://events.localhost:4321/api/mykomax/register?locale=en'))).toBe('http://localhost:4321/en/mykomax');
  });

  it('carries a return address of a configured site on, for the way back at logout', async () => {
    const back = 'http://events.localhost:4321/en/agenda';
    const res = await register(`http://localhost:4321/api/mykomax/register?locale=en&return=${encodeURIComponent(back)}`);
    expect(gotoOf(res)).toBe(`http://localhost:4321/en/mykomax?return=${encodeURIComponent(back)}`);
  });

  it('refuses a return address on any other host (400), and a bad locale', async () => {
    for (const back of ['https://evil.example/', 'http://events.localhost.evil.example:4321/en', 'http://events.localhost:9999/en', '/en']) {
      const res = await register(`http://localhost:4321/api/mykomax/register?locale=en&return=${encodeURIComponent(back)}`);
      expect(res.status, back).toBe(400);
      expect(await res.json()).toEqual({ error: 'return must be the address of a page of one of our sites' });
    }
    expect((await register('http://localhost:4321/api/mykomax/register?locale=english')).status).toBe(400);
  });
});
