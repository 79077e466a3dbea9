import { describe, expect, it } from 'vitest';
import { resolveSite } from './resolve-site.ts';
import type { Site } from './types.ts';

const site = (id: string, domains: Site['domains'], isMain = false): Site => ({
  id, name: id, technicalName: id, slug: '', isMain, internationalOnly: false, hideSideButtons: false, enableCutFont: false,
  theme: 'Default', mainSiteOnly: false, headerNavigationId: 'h', footerNavigationId: 'f', domains, addLanguages: [], dropLanguages: [],
});

describe('host suffix matching', () => {
  it('the most specific domain wins, whatever the order of the sites', () => {
    const main = site('main', [{ host: 'komax.example', slug: null }], true);
    const events = site('events', [{ host: 'events.komax.example', slug: null }]);
    expect(resolveSite([main, events], 'cdn.events.komax.example', undefined).site.id).toBe('events');
    expect(resolveSite([events, main], 'www.komax.example', undefined).site.id).toBe('main');
  });
});
