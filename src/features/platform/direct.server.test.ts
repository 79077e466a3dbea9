import { describe, expect, it } from 'vitest';
import { makeLocale } from '../../site/locale.ts';
import { contentContextFor } from './context.ts';
import { directTarget } from './direct.server.ts';
import { routeRequest } from './run-data.server.ts';
import { useDemoWorld } from '../../../tests/support/services.ts';
import { mainSite } from '../../site/main-site.ts';

const world = useDemoWorld();

/** Where `{path}?direct=true&utm=x` on the main site (localhost:4321) leads, in a locale. */
function direct(path: string, locale = makeLocale('en', null)) {
  const { services, system } = world;
  const site = mainSite(system)!;
  const req = routeRequest(system, 'localhost', site, locale, path);
  const url = new URL(`http://localhost:4321${req.page.pagePath ? `/${locale.urlCode}${req.page.pagePath}` : ''}?direct=true&utm=x`);
  return directTarget(contentContextFor(services.content, system, site, locale), req, url);
}

describe('directTarget: ?direct on a page id of any of the four page types (spec 2.2, §7)', () => {
  it('a content page', async () => {
    expect(await direct('/cm5r53ew6rj1bhlq8eyuynngt')).toBe('/en/trade-fair-2026?utm=x');
  });

  it('a story and a media release, whichever path carried the id', async () => {
    expect(await direct('/c0gxt6zphx7muyzx2jgb1k8tf')).toBe('/en/stories/carpatia-doubles-crimping-output?utm=x');
    expect(await direct('/stories/c0gxt6zphx7muyzx2jgb1k8tf', makeLocale('de', 'CH'))).toBe('/de-ch/stories/carpatia-doubles-crimping-output?utm=x');
    expect(await direct('/media-releases/c1xrdka1mslyaz2zpt9zebg3e')).toBe('/en/media-releases/annual-results-2025?utm=x');
  });

  it('a story contact', async () => {
    expect(await direct('/cw5up5iphlrslb0s9titcibhp')).toBe('/en/stories/contacts/nadine-steiner?utm=x');
  });

  it('a page of a site on its own host: absolute, on its local host here', async () => {
    expect(await direct('/cmxo8o8abd6oj4mvvfyywi5uj')).toBe('http://events.localhost:4321/en/trade-shows?utm=x');
  });

  it('no page of any type: null (the route answers as without ?direct)', async () => {
    expect(await direct('/c0000000000000000000000000')).toBeNull();
    expect(await direct('/about-us')).toBeNull();
  });
});
