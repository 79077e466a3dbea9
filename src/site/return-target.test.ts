import { describe, expect, it } from 'vitest';
import { MAX_RETURN_LENGTH, returnTarget, signOutReturnUri, siteHosts, siteOrigins, withReturn } from './return-target.ts';

const main = { domains: [{ host: 'localhost', slug: null }, { host: 'komax.example', slug: null }] };
const portal = { domains: [{ host: 'localhost', slug: 'brand-portal' }, { host: 'komax.example', slug: 'brand-portal' }] };
const events = { domains: [{ host: 'events.localhost', slug: null }, { host: 'events.komax.example', slug: null }] };
const partner = { domains: [{ host: 'partner.localhost', slug: null }, { host: 'www.wirepro-partner.example', slug: null }] };
const sites = [main, portal, events, partner];

const LOCAL = ['http://localhost:4321', 'http://events.localhost:4321', 'http://partner.localhost:4321'];

describe('siteOrigins: the hosts of the site configuration', () => {
  it('every host once', () => {
    expect(siteHosts(sites)).toEqual(['localhost', 'komax.example', 'events.localhost', 'events.komax.example', 'partner.localhost', 'www.wirepro-partner.example']);
  });

  it('locally: the loopback hosts, with the page\'s port', () => {
    expect(siteOrigins(siteHosts(sites), new URL('http://events.localhost:4321/en'))).toEqual(LOCAL);
  });

  it('in production: the public hosts, with the page\'s scheme and no port', () => {
    expect(siteOrigins(siteHosts(sites), new URL('https://komax.example/en/mykomax'))).toEqual(['https://komax.example', 'https://events.komax.example', 'https://www.wirepro-partner.example']);
  });
});

describe('returnTarget: only pages of the configured sites', () => {
  it('accepts a page of a configured host, without its fragment', () => {
    expect(returnTarget('http://events.localhost:4321/en/agenda?x=1#top', LOCAL)).toBe('http://events.localhost:4321/en/agenda?x=1');
    expect(returnTarget('http://partner.localhost:4321/de', LOCAL)).toBe('http://partner.localhost:4321/de');
  });

  it('ignores foreign hosts, look-alikes, other ports and schemes', () => {
    for (const raw of [
      'https://evil.example/',
      'http://events.localhost.evil.example:4321/en',
      'http://evilevents.localhost:4321/en',
      'http://events.localhost:9999/en',
      'https://events.localhost:4321/en',
      'javascript:alert(1)//http://events.localhost:4321',
      'data:text/html,hi',
      '//evil.example/en',
      '/en/about-us',
      'http://user:pw@events.localhost:4321/en',
      'http://events.localhost:4321@evil.example/en',
      ' ',
      '',
    ]) expect(returnTarget(raw, LOCAL), raw).toBeNull();
    expect(returnTarget(null, LOCAL)).toBeNull();
    expect(returnTarget(undefined, LOCAL)).toBeNull();
  });

  it('ignores an address longer than the limit', () => {
    const long = `http://events.localhost:4321/en/${'a'.repeat(MAX_RETURN_LENGTH)}`;
    expect(returnTarget(long, LOCAL)).toBeNull();
  });
});

describe('signOutReturnUri', () => {
  it('is the root of the return address\'s host (the provider returns only to registered roots)', () => {
    expect(signOutReturnUri('http://events.localhost:4321/en/agenda?x=1')).toBe('http://events.localhost:4321/');
    expect(signOutReturnUri('https://www.wirepro-partner.example/de')).toBe('https://www.wirepro-partner.example/');
  });
});

describe('withReturn: a link into another origin names the current page', () => {
  const here = new URL('http://events.localhost:4321/en/agenda#program');

  it('adds the page (without fragment) to a link to the main site, keeping the link\'s own query and fragment', () => {
    expect(withReturn('http://localhost:4321/en/mykomax#direct', here))
      .toBe('http://localhost:4321/en/mykomax?return=http%3A%2F%2Fevents.localhost%3A4321%2Fen%2Fagenda#direct');
    const register = new URL(withReturn('http://localhost:4321/api/mykomax/register?locale=en', here));
    expect(register.searchParams.get('locale')).toBe('en');
    expect(register.searchParams.get('return')).toBe('http://events.localhost:4321/en/agenda');
  });

  it('replaces a return address the link already carries', () => {
    expect(new URL(withReturn('http://localhost:4321/en/mykomax?return=https%3A%2F%2Fevil.example', here)).searchParams.getAll('return'))
      .toEqual(['http://events.localhost:4321/en/agenda']);
  });

  it('leaves same-origin links alone', () => {
    expect(withReturn('/en/mykomax', new URL('http://localhost:4321/en'))).toBe('/en/mykomax');
    expect(withReturn('http://localhost:4321/en/mykomax', new URL('http://localhost:4321/en/brand-portal'))).toBe('http://localhost:4321/en/mykomax');
  });
});
