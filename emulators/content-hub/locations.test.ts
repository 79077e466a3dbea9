import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoContentHub, type DemoContentHub } from '../testing.ts';
import { LOCATIONS_FILE, loadLocations, type RawLocation } from './locations.ts';
import { getLocations } from '../../src/lib/content/locations/index.ts';

let hub: DemoContentHub;
let endpoint: string;

beforeAll(async () => {
  hub = await startDemoContentHub();
  endpoint = hub.url;
});
afterAll(() => hub.close());

describe('the locations directory through the content client', () => {
  it('answers every demo entry with brands resolved from system data and roles in the asked language', async () => {
    const en = await getLocations({ config: { endpoint }, locales: ['en'], stage: 'PUBLISHED' });
    const de = await getLocations({ config: { endpoint }, locales: ['de-CH', 'de', 'en'], stage: 'PUBLISHED' });
    const raw = JSON.parse(readFileSync(LOCATIONS_FILE, 'utf8')) as RawLocation[];
    expect(en).toHaveLength(raw.length);
    expect(en.length).toBeGreaterThanOrEqual(40);
    expect(new Set(en.map((l) => l.address.countryCode)).size).toBeGreaterThanOrEqual(20);
    for (const type of ['subsidiary', 'partner', 'service', 'production']) expect(en.some((l) => l.type === type), type).toBe(true);
    const wuppertal = en.find((l) => l.address.city === 'Wuppertal')!;
    expect(wuppertal).toMatchObject({ type: 'service', address: { countryCode: 'DE', postalCode: '42329' }, brands: [{ id: 'brand-lumeca', name: 'Lumeca' }, { id: 'brand-tarnell', name: 'Tarnell' }, { id: 'brand-vexo', name: 'Vexo' }] });
    expect(wuppertal.contacts[0]!.role).toBe('Service Manager');
    expect(de.find((l) => l.id === wuppertal.id)!.contacts[0]!.role).toBe('Leiter Service');
    // Every entry is complete: nothing was dropped or emptied by the app's checks.
    for (const l of en) {
      expect(l.phone, l.name).not.toBeNull();
      expect(l.email, l.name).not.toBeNull();
      expect(l.brands.length, l.name).toBeGreaterThan(0);
      expect(l.openingHours.length, l.name).toBeGreaterThan(0);
      expect(l.contacts.length, l.name).toBeGreaterThan(0);
      for (const c of l.contacts) expect([c.phone, c.email], l.name).not.toContain(null);
    }
  });
});

describe('loadLocations', () => {
  const brands = new Set(['brand-lumeca']);
  const entry: RawLocation = {
    id: 'a', name: 'A', type: 'partner', address: { street: 's', postalCode: '1', city: 'c', countryCode: 'CH' }, brands: ['brand-lumeca'],
    openingHours: [{ from: 'mon', to: 'fri', opens: '08:00', closes: '17:00' }], contacts: [], coordinates: { lat: 1, lon: 2 },
  };
  const file = (list: unknown) => {
    const path = join(mkdtempSync(join(tmpdir(), 'kmx-locations-')), 'locations.json');
    writeFileSync(path, JSON.stringify(list));
    return path;
  };

  it('reads a valid file', () => {
    expect(loadLocations(file([entry]), brands)).toHaveLength(1);
  });

  it.each([
    ['a duplicate id', [entry, entry]],
    ['an unknown brand', [{ ...entry, brands: ['brand-x'] }]],
    ['an unknown type', [{ ...entry, type: 'shop' }]],
    ['a lower-case country code', [{ ...entry, address: { ...entry.address, countryCode: 'ch' } }]],
    ['coordinates out of range', [{ ...entry, coordinates: { lat: 100, lon: 0 } }]],
  ])('refuses %s, naming the entry', (_, list) => {
    expect(() => loadLocations(file(list), brands)).toThrow(/location a/);
  });
});
