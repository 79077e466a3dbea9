import { describe, expect, it } from 'vitest';
import { localeRedirect, pickSystemRedirect, redirectVariants, trailingSlashRedirect, withoutDirect } from './redirects.ts';

describe('trailingSlashRedirect', () => {
  it('answers 301 to the path without the trailing slash, keeping the query', () => {
    expect(trailingSlashRedirect('/en/about-us/', '?a=1')).toEqual({ status: 301, location: '/en/about-us?a=1' });
    expect(trailingSlashRedirect('/en//', '')).toEqual({ status: 301, location: '/en' });
  });

  it('leaves the root and clean paths alone', () => {
    expect(trailingSlashRedirect('/', '')).toBeNull();
    expect(trailingSlashRedirect('/en/about-us', '?a=1')).toBeNull();
  });

  it('never redirects to another host', () => {
    // new URL('/.//evil.example/', base).pathname is '//evil.example/': a Location of '//evil.example' leaves the site.
    for (const path of ['//evil.example/', '///evil.example/x/']) {
      const location = trailingSlashRedirect(path, '')!.location;
      expect(location.startsWith('/')).toBe(true);
      expect(location.startsWith('//')).toBe(false);
      expect(new URL(location, 'https://komax.example').host).toBe('komax.example');
    }
  });

  it('redirects a path made of slashes only to the root', () => {
    expect(trailingSlashRedirect('//', '')).toEqual({ status: 301, location: '/' });
  });
});

describe('localeRedirect', () => {
  it('answers 302 when the locale is written differently from the resolved one', () => {
    expect(localeRedirect('/DE/x/y', '?q=1', 'de')).toEqual({ status: 302, location: '/de/x/y?q=1' });
    expect(localeRedirect('/de-CH', '', 'de-ch')).toEqual({ status: 302, location: '/de-ch' });
  });

  it('is null when the locale is already written as resolved', () => {
    expect(localeRedirect('/de-ch/x', '', 'de-ch')).toBeNull();
  });
});

describe('redirectVariants', () => {
  it('lists the path, and the path with its query when there is one', () => {
    expect(redirectVariants('/en/old', '')).toEqual(['/en/old']);
    expect(redirectVariants('/en/old', '?')).toEqual(['/en/old']);
    expect(redirectVariants('/en/old', '?id=4')).toEqual(['/en/old', '/en/old?id=4']);
  });
});

describe('pickSystemRedirect', () => {
  it('takes the longest previousUrl', () => {
    const matches = [
      { previousUrl: '/en/old', target: '/en/new' },
      { previousUrl: '/en/old?id=4', target: '/en/new-4' },
      { previousUrl: '/en/ol', target: '/en/nope' },
    ];
    expect(pickSystemRedirect(matches)).toBe(matches[1]);
    expect(pickSystemRedirect([...matches].reverse())).toBe(matches[1]);
  });

  it('is null without matches', () => {
    expect(pickSystemRedirect([])).toBeNull();
  });
});

describe('withoutDirect', () => {
  it('removes the direct flag and keeps the rest of the query', () => {
    expect(withoutDirect('?id=42&direct=true')).toBe('?id=42');
    expect(withoutDirect('?direct&x=1')).toBe('?x=1');
    expect(withoutDirect('?a=1&direct=true&b=2')).toBe('?a=1&b=2');
  });

  it('gives an empty string when nothing is left', () => {
    expect(withoutDirect('?direct=true')).toBe('');
    expect(withoutDirect('')).toBe('');
  });
});
