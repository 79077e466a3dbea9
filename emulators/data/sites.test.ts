import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mapSystemData } from '../../src/lib/content/map.ts';
import { siteLanguages } from '../../src/site/locale.ts';

// The demo sites' special language handling, as spec public-site §2.2 lists it: one site adds
// French; the North America events site adds Spanish and drops German; the brand portal drops
// German; one German-titled site drops English.
const raw = JSON.parse(readFileSync(new URL('content/system.json', import.meta.url), 'utf8')) as Parameters<typeof mapSystemData>[0];
const system = mapSystemData(raw);
const languagesOf = (id: string) => siteLanguages(system.sites.find((s) => s.id === id)!, system.languages);
const STANDARD = ['cs', 'de', 'en', 'hu', 'ja', 'pt', 'ro', 'sk', 'zh'];

describe('the demo sites\' languages (spec §2.2)', () => {
  it('French is no standard language: exactly one site, the main site, adds it', () => {
    expect(system.languages.find((l) => l.languageCode === 'fr')?.standard).toBe(false);
    expect(system.sites.filter((s) => s.addLanguages.includes('fr')).map((s) => s.id)).toEqual(['site-main']);
    expect(languagesOf('site-main')).toEqual([...STANDARD, 'fr'].sort());
    expect(system.sites.filter((s) => languagesOf(s.id).includes('fr')).map((s) => s.id)).toEqual(['site-main']);
  });

  it('the events site adds Spanish and drops German, the brand portal drops German, the German-titled site drops English', () => {
    expect(languagesOf('site-events-na')).toEqual([...STANDARD.filter((l) => l !== 'de'), 'es'].sort());
    expect(languagesOf('site-brand-portal')).toEqual(STANDARD.filter((l) => l !== 'de'));
    expect(system.sites.find((s) => s.id === 'site-lehrstellen')?.name).toBe('Komax Lehrstellen');
    expect(languagesOf('site-lehrstellen')).toEqual(STANDARD.filter((l) => l !== 'en'));
    expect(languagesOf('site-partner')).toEqual(STANDARD);
  });
});
