import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCookie, readCookie, serializeCookie, writeCookie } from './cookies.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('parseCookie', () => {
  it('finds a cookie by its exact name and decodes it', () => {
    expect(parseCookie('locale=de-ch; testing=true; measurement=Imperial', 'measurement')).toBe('Imperial');
    expect(parseCookie('xlocale=fr; locale=de%2Dch', 'locale')).toBe('de-ch');
    expect(parseCookie('a=1;b=2', 'b')).toBe('2');
  });

  it('is undefined for a missing cookie and keeps a value that is not URI-encoded', () => {
    expect(parseCookie('', 'locale')).toBeUndefined();
    expect(parseCookie('locale=en', 'loc')).toBeUndefined();
    expect(parseCookie('x=100%', 'x')).toBe('100%');
  });
});

describe('serializeCookie', () => {
  it('encodes the value and sets path, SameSite and lifetime; Secure only on https', () => {
    expect(serializeCookie('locale', 'de ch', 60, false)).toBe('locale=de%20ch; Max-Age=60; Path=/; SameSite=Lax');
    expect(serializeCookie('testing', 'true', 60, true)).toBe('testing=true; Max-Age=60; Path=/; SameSite=Lax; Secure');
  });
});

describe('readCookie / writeCookie', () => {
  it('use document.cookie and the page protocol', () => {
    const doc = { cookie: 'measurement=Metric' };
    vi.stubGlobal('document', doc);
    vi.stubGlobal('location', { protocol: 'https:' });
    expect(readCookie('measurement')).toBe('Metric');
    writeCookie('measurement', 'Imperial', 10);
    expect(doc.cookie).toBe('measurement=Imperial; Max-Age=10; Path=/; SameSite=Lax; Secure');
  });
});
