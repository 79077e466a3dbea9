import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HubExtension } from './server.ts';
import { pickLocale, type Localized } from './store.ts';

/**
 * The contacts and locations directory of the content hub: subsidiaries, partners, service and
 * production sites with address, contact persons, opening hours, brands (ids of the system data's
 * brands) and coordinates. Data: `emulators/data/content/locations.json`, read on every query
 * (edits apply at once), checked when the hub starts.
 */

const here = dirname(fileURLToPath(import.meta.url));
export const LOCATIONS_FILE = join(here, '../data/content/locations.json');

export const locationsTypeDefs = /* GraphQL */ `
enum LocationType { subsidiary partner service production }
enum LocationWeekday { mon tue wed thu fri sat sun }

type LocationAddress {
  street: String!
  postalCode: String!
  city: String!
  "ISO 3166-1 alpha-2"
  countryCode: String!
}

"Opening hours on the days from..to (inclusive), local time as HH:MM."
type LocationOpeningHours {
  from: LocationWeekday!
  to: LocationWeekday!
  opens: String!
  closes: String!
}

type LocationContact {
  name: String!
  "In the first of the requested locales the record has."
  role: String
  phone: String
  email: String
}

type LocationCoordinates {
  lat: Float!
  lon: Float!
}

"An entry of the contacts and locations directory."
type Location {
  id: ID!
  name: String!
  type: LocationType!
  address: LocationAddress!
  phone: String
  email: String
  "The group's brands represented here (system data brands)."
  brands: [Brand!]!
  openingHours: [LocationOpeningHours!]!
  contacts: [LocationContact!]!
  coordinates: LocationCoordinates!
  updatedAt: String!
}

extend type Query {
  "Every published entry of the locations directory, by country and name."
  locations: [Location!]!
}
`;

export interface RawLocation {
  id: string;
  name: string;
  type: 'subsidiary' | 'partner' | 'service' | 'production';
  address: { street: string; postalCode: string; city: string; countryCode: string };
  phone?: string | null;
  email?: string | null;
  brands: string[];
  openingHours: { from: string; to: string; opens: string; closes: string }[];
  contacts: { name: string; role?: Localized<string> | string | null; phone?: string | null; email?: string | null }[];
  coordinates: { lat: number; lon: number };
  updatedAt?: string;
}

const TYPES = new Set(['subsidiary', 'partner', 'service', 'production']);
const DAYS = new Set(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);

/** Reads and checks the directory; throws naming the offending entry. */
export function loadLocations(file: string, brandIds: ReadonlySet<string>): RawLocation[] {
  const list = JSON.parse(readFileSync(file, 'utf8')) as RawLocation[];
  if (!Array.isArray(list)) throw new Error(`${file}: expected an array`);
  const ids = new Set<string>();
  for (const l of list) {
    const where = `${file}: location ${l.id ?? '?'}`;
    if (!l.id || ids.has(l.id)) throw new Error(`${where}: missing or duplicate id`);
    ids.add(l.id);
    if (!TYPES.has(l.type)) throw new Error(`${where}: unknown type ${l.type}`);
    if (!/^[A-Z]{2}$/.test(l.address?.countryCode ?? '')) throw new Error(`${where}: countryCode must be two capital letters`);
    const { lat, lon } = l.coordinates ?? {};
    if (typeof lat !== 'number' || typeof lon !== 'number' || Math.abs(lat) > 90 || Math.abs(lon) > 180) throw new Error(`${where}: coordinates out of range`);
    for (const b of l.brands) if (!brandIds.has(b)) throw new Error(`${where}: unknown brand ${b}`);
    for (const h of l.openingHours) if (!DAYS.has(h.from) || !DAYS.has(h.to)) throw new Error(`${where}: unknown weekday in opening hours`);
  }
  return list;
}

/** Builds the locations extension of the content hub (`file` for tests). */
export function createLocationsExtension(file = LOCATIONS_FILE): HubExtension {
  return {
    typeDefs: locationsTypeDefs,
    resolvers: (h) => {
      const asset = (a: unknown) => (a && typeof a === 'object' && 'url' in a && typeof a.url === 'string' ? { ...a, url: h.abs(a.url) } : null);
      const brands = () => new Map(h.store.data.system.brands.map((b) => [String(b.id), b]));
      const read = () => loadLocations(file, new Set(brands().keys()));
      read(); // fail fast on a broken file
      return {
        Query: {
          locations: (_: unknown, __: unknown, ctx: { locales: string[] }) => {
            const byId = brands();
            const role = (r: RawLocation['contacts'][number]['role']) => (r == null ? null : typeof r === 'string' ? r : pickLocale(r, ctx.locales)?.value ?? null);
            return read()
              .map((l) => ({
                ...l,
                phone: l.phone ?? null,
                email: l.email ?? null,
                brands: l.brands.map((id) => byId.get(id)!).map((b) => ({ ...b, image: asset(b.image) })),
                contacts: l.contacts.map((c) => ({ name: c.name, role: role(c.role), phone: c.phone ?? null, email: c.email ?? null })),
                updatedAt: l.updatedAt ?? '2026-01-01T00:00:00.000Z',
              }))
              .sort((a, b) => a.address.countryCode.localeCompare(b.address.countryCode) || a.name.localeCompare(b.name));
          },
        },
      };
    },
  };
}

export const locations = createLocationsExtension();
