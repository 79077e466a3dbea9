import { describe, expect, it } from 'vitest';
import { signValue } from '../../lib/crypto/signed.ts';
import { grantCookies, grantCookieHeader, grantsFromCookies, grantValue, isGrantFor, PASSWORD_GRANT_SECONDS } from './grant.server.ts';

const SECRET = 'test-grant-secret-0123456789abcdef';
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const cookie = (id: string, value: string) => `kmx_grant_${id}=${value}`;

describe('grant values', () => {
  it('are valid for their page until they expire', () => {
    const value = grantValue('page1', SECRET, 3600, NOW);
    expect(isGrantFor('page1', value, SECRET, NOW)).toBe(true);
    expect(isGrantFor('page1', value, SECRET, NOW + 3599_000)).toBe(true);
    expect(isGrantFor('page1', value, SECRET, NOW + 3600_000)).toBe(false);
  });

  it('are no grant for another page, under another secret, or altered', () => {
    const value = grantValue('page1', SECRET, 3600, NOW);
    expect(isGrantFor('page2', value, SECRET, NOW)).toBe(false);
    expect(isGrantFor('page1', value, 'another-secret-0123456789abcdef', NOW)).toBe(false);
    const [body, mac] = value.split('.') as [string, string];
    const forgedBody = Buffer.from(JSON.stringify({ page: 'page2', exp: NOW / 1000 + 3600 })).toString('base64url');
    expect(isGrantFor('page2', `${forgedBody}.${mac}`, SECRET, NOW)).toBe(false);
    expect(isGrantFor('page1', `${body}.${mac.slice(0, -2)}AA`, SECRET, NOW)).toBe(false);
    expect(isGrantFor('page1', 'not-a-grant', SECRET, NOW)).toBe(false);
  });
});

describe('grantsFromCookies', () => {
  it('collects the pages whose cookies hold valid grants for exactly them', () => {
    const header = [
      'locale=de-ch',
      cookie('page1', grantValue('page1', SECRET, 3600, NOW)),
      cookie('page2', grantValue('page3', SECRET, 3600, NOW)), // another page's grant under this name
      cookie('page4', grantValue('page4', SECRET, -1, NOW)), // expired
      cookie('page5', signValue({ page: 'page5' }, 'wrong-secret-0123456789abcdef', 3600, NOW)), // forged
      cookie('bad;id', 'x'),
    ].join('; ');
    expect([...grantsFromCookies(header, SECRET, NOW)]).toEqual(['page1']);
  });

  it('is empty without cookies', () => {
    expect(grantsFromCookies(null, SECRET, NOW).size).toBe(0);
  });
});

describe('grant cookies', () => {
  it('are HttpOnly, SameSite=Lax, scoped to the page path, with the grant lifetime, Secure outside localhost', () => {
    const [header, files] = grantCookies({ pageId: 'page1', path: '/en/events/internal-2025', ttlSeconds: PASSWORD_GRANT_SECONDS, secret: SECRET, url: new URL('https://www.komax.example/en/events/internal-2025'), now: NOW });
    expect(header).toMatch(/^kmx_grant_page1=[\w-]+\.[\w-]+; Max-Age=28800; Path=\/en\/events\/internal-2025; HttpOnly; SameSite=Lax; Secure$/);
    // The same grant for the downloads of the page.
    expect(files).toBe(header.replace('Path=/en/events/internal-2025', 'Path=/file'));
    const value = /^kmx_grant_page1=([^;]+)/.exec(header)![1]!;
    expect(isGrantFor('page1', value, SECRET, NOW)).toBe(true);
  });

  it('leave out Secure on localhost', () => {
    expect(grantCookieHeader({ pageId: 'p', value: 'v', path: '/en/x', maxAge: 60, url: new URL('http://events.localhost:4321/en/x') })).not.toContain('Secure');
  });

  it('refuse a page id or path that could break the header', () => {
    const url = new URL('http://localhost/');
    expect(() => grantCookieHeader({ pageId: 'a;b', value: 'v', path: '/en', maxAge: 1, url })).toThrow();
    expect(() => grantCookieHeader({ pageId: 'a', value: 'v', path: '/en; Domain=evil.example', maxAge: 1, url })).toThrow();
  });
});
