import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { mapLocations } from './map.ts';
import { LocationEntrySchema, RawLocationsSchema } from './schema.ts';

const valid = {
  id: 'loc-1',
  name: 'Komax Service Center Wuppertal',
  type: 'service',
  address: { street: 'Lise-Meitner-Weg 5', postalCode: '42329', city: 'Wuppertal', countryCode: 'de' },
  phone: '+49 202 69 87 10',
  email: ' service.wuppertal@komax.example ',
  brands: [{ id: 'brand-lumeca', name: 'Lumeca' }],
  openingHours: [{ from: 'mon', to: 'fri', opens: '07:30', closes: '18:00' }],
  contacts: [{ name: 'Sabine Krüger', role: 'Service Manager', phone: '+49 202 69 87 10', email: 'sabine.krueger@komax.example' }],
  coordinates: { lat: 51.247, lon: 7.076 },
  updatedAt: '2026-02-17T10:47:16.000Z',
};

describe('locations schema', () => {
  it('accepts a complete entry and normalises the country code', () => {
    const out = v.parse(LocationEntrySchema, valid);
    expect(out.address.countryCode).toBe('DE');
  });

  it.each([
    ['an unknown type', { type: 'shop' }],
    ['a country that is not a code', { address: { ...valid.address, countryCode: 'Germany' } }],
    ['a latitude out of range', { coordinates: { lat: 91, lon: 0 } }],
    ['a longitude out of range', { coordinates: { lat: 0, lon: -181 } }],
    ['an unknown weekday', { openingHours: [{ from: 'mon', to: 'fry', opens: '08:00', closes: '17:00' }] }],
    ['a time that is not HH:MM', { openingHours: [{ from: 'mon', to: 'fri', opens: '8', closes: '17:00' }] }],
    ['an empty name', { name: '  ' }],
  ])('rejects %s', (_, change) => {
    expect(v.safeParse(LocationEntrySchema, { ...valid, ...change }).success).toBe(false);
  });

  it('checks the answer\'s shape only as a list (entries one by one in the map)', () => {
    expect(v.safeParse(RawLocationsSchema, { locations: [1, 'x'] }).success).toBe(true);
    expect(v.safeParse(RawLocationsSchema, { locations: null }).success).toBe(false);
  });
});

describe('mapLocations', () => {
  it('maps valid entries, trimming the contact fields', () => {
    const [entry] = mapLocations([valid]);
    expect(entry).toMatchObject({ id: 'loc-1', type: 'service', email: 'service.wuppertal@komax.example', address: { countryCode: 'DE' } });
    expect(entry!.contacts).toEqual([{ name: 'Sabine Krüger', role: 'Service Manager', phone: '+49 202 69 87 10', email: 'sabine.krueger@komax.example' }]);
  });

  it('leaves out (and reports) a broken entry and a duplicate id, keeping the others', () => {
    const warnings: string[] = [];
    const out = mapLocations([valid, { ...valid, id: 'loc-2', coordinates: { lat: 'x', lon: 0 } }, { ...valid, name: 'Duplicate' }, { ...valid, id: 'loc-3' }], (m) => warnings.push(m));
    expect(out.map((l) => l.id)).toEqual(['loc-1', 'loc-3']);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('loc-2');
    expect(warnings[1]).toContain('duplicate id loc-1');
  });

  it('drops (and reports) a malformed phone or e-mail address instead of linking it', () => {
    const warnings: string[] = [];
    const [entry] = mapLocations([{
      ...valid,
      phone: '+49 (202) 69-87',
      email: 'javascript:alert(1)',
      contacts: [{ name: 'A', role: '', phone: 'call me', email: 'a(at)b' }],
    }], (m) => warnings.push(m));
    expect(entry!.phone).toBeNull();
    expect(entry!.email).toBeNull();
    expect(entry!.contacts[0]).toEqual({ name: 'A', role: null, phone: null, email: null });
    expect(warnings).toHaveLength(4);
  });

  it('treats missing contact details as absent, without a warning', () => {
    const warnings: string[] = [];
    const [entry] = mapLocations([{ ...valid, phone: null, email: undefined, contacts: [{ name: 'B', role: null, phone: 'null', email: '' }] }], (m) => warnings.push(m));
    expect(entry!.phone).toBeNull();
    expect(entry!.contacts[0]!.phone).toBeNull();
    expect(warnings).toEqual([]);
  });
});
