import { describe, expect, it } from 'vitest';
import { diffRoutes, hashOf, routeFingerprint } from './fingerprint.ts';

describe('hashOf', () => {
  it('is stable and short', () => {
    expect(hashOf({ a: 1, b: [2, 3] })).toBe(hashOf({ a: 1, b: [2, 3] }));
    expect(hashOf('x')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('changes with the value', () => {
    expect(hashOf({ title: 'About' })).not.toBe(hashOf({ title: 'About us' }));
    expect(hashOf(null)).not.toBe(hashOf({}));
  });
});

describe('routeFingerprint', () => {
  const base = routeFingerprint('build-1', 'https://komax.example/en/about', ['sys', 'header', 'footer', 'page']);

  it('is the same for the same inputs', () => {
    expect(routeFingerprint('build-1', 'https://komax.example/en/about', ['sys', 'header', 'footer', 'page'])).toBe(base);
  });

  it('changes with the app build id', () => {
    expect(routeFingerprint('build-2', 'https://komax.example/en/about', ['sys', 'header', 'footer', 'page'])).not.toBe(base);
  });

  it('changes with any record hash', () => {
    const hashes = ['sys', 'header', 'footer', 'page'];
    for (let i = 0; i < hashes.length; i++) {
      const changed = hashes.map((h, j) => (j === i ? `${h}-changed` : h));
      expect(routeFingerprint('build-1', 'https://komax.example/en/about', changed), `record ${i}`).not.toBe(base);
    }
  });

  it('changes when a record is added or removed', () => {
    expect(routeFingerprint('build-1', 'https://komax.example/en/about', ['sys', 'header', 'footer'])).not.toBe(base);
    expect(routeFingerprint('build-1', 'https://komax.example/en/about', ['sys', 'header', 'footer', 'page', 'extra'])).not.toBe(base);
  });

  it('differs between routes rendered from the same records', () => {
    expect(routeFingerprint('build-1', 'https://komax.example/de/about', ['sys', 'header', 'footer', 'page'])).not.toBe(base);
    expect(routeFingerprint('build-1', 'https://events.komax.example/en/about', ['sys', 'header', 'footer', 'page'])).not.toBe(base);
  });
});

describe('diffRoutes', () => {
  const previous = {
    '/en': { fingerprint: 'a' },
    '/en/about': { fingerprint: 'b' },
    '/en/old': { fingerprint: 'c' },
  };

  it('renders new and changed routes, keeps unchanged ones and removes vanished ones', () => {
    expect(diffRoutes(previous, { '/en': 'a', '/en/about': 'b2', '/en/new': 'd' })).toEqual({
      render: ['/en/about', '/en/new'],
      unchanged: ['/en'],
      removed: ['/en/old'],
    });
  });

  it('renders forced routes even when unchanged', () => {
    expect(diffRoutes(previous, { '/en': 'a', '/en/about': 'b', '/en/old': 'c' }, new Set(['/en/about']))).toEqual({
      render: ['/en/about'],
      unchanged: ['/en', '/en/old'],
      removed: [],
    });
  });

  it('renders everything on a first build', () => {
    expect(diffRoutes({}, { '/en': 'a', '/de': 'b' })).toEqual({ render: ['/en', '/de'], unchanged: [], removed: [] });
  });

  it('removes everything when no route is left', () => {
    expect(diffRoutes(previous, {})).toEqual({ render: [], unchanged: [], removed: ['/en', '/en/about', '/en/old'] });
  });
});
