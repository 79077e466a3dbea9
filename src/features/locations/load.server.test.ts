import { describe, expect, it } from 'vitest';
import type { KeyPart } from '../../lib/cache/data-cache.ts';
import type { LocationEntry, Page } from '../../lib/content/index.ts';
import type { LoadContext } from '../platform/context.ts';
import { modulesText } from '../content-page/search-text.ts';
import { withLocations } from './load.server.ts';

const ENTRY: LocationEntry = {
  id: 'loc-1', name: 'Komax Service Point München', type: 'service',
  address: { street: 'Ganghoferstrasse 70', postalCode: '80339', city: 'München', countryCode: 'DE' },
  phone: null, email: null, brands: [], openingHours: [], contacts: [{ name: 'Florian Huber', role: null, phone: null, email: null }],
  coordinates: { lat: 48.135, lon: 11.535 }, updatedAt: '2026-01-01T00:00:00.000Z',
};

/** A load context whose data source answers the locations key and records what was read. */
function context(read: KeyPart[][]): LoadContext {
  return {
    data: { get: async <T>(key: readonly KeyPart[]) => { read.push([...key]); if (key[1] !== 'locations') throw new Error(`unexpected ${key.join('/')}`); return [ENTRY] as T; } },
    content: { config: { endpoint: 'http://hub.invalid/graphql' }, locales: ['en'], stage: 'PUBLISHED' },
    services: {} as LoadContext['services'],
  };
}

const page = (modules: Page['modules']): Page => ({
  id: 'p', siteId: 'site-main', mainSiteOnly: false, slug: 'locations', path: '/locations', pageType: 'Content', injection: null, cmsType: 'Page', branch: null, theme: 'Default', countries: [],
  protection: 0, protectedBy: [], access: { id: 'p', protection: 0, isPublished: true, parents: [] }, languages: ['en'], contentLanguage: 'en', title: 'Locations', description: null, modules, updatedAt: '', isPublished: true,
});

describe('withLocations', () => {
  it('fills the directory module with the entries, read through the data source (so the prerender fingerprints them)', async () => {
    const read: KeyPart[][] = [];
    const source = page([{ type: 'richText', title: null, blocks: [] }, { type: 'locationsDirectory', title: 'Find us', text: null, locations: null }]);
    const out = await withLocations(context(read), source);
    expect(out.modules[1]).toEqual({ type: 'locationsDirectory', title: 'Find us', text: null, locations: [ENTRY] });
    expect(read).toEqual([['content', 'locations', 'PUBLISHED', 'en']]);
    // The cached page is not changed.
    expect(source.modules[1]).toMatchObject({ locations: null });
  });

  it('reads nothing for a page without a directory', async () => {
    const read: KeyPart[][] = [];
    const source = page([{ type: 'richText', title: null, blocks: [] }]);
    expect(await withLocations(context(read), source)).toBe(source);
    expect(read).toEqual([]);
  });

  it('puts names, cities and contact persons into the page\'s search text', async () => {
    const out = await withLocations(context([]), page([{ type: 'locationsDirectory', title: 'Find us', text: 'Everywhere', locations: null }]));
    expect(modulesText(out.modules)).toBe('Find us\nEverywhere\nKomax Service Point München, München\nFlorian Huber');
  });
});
