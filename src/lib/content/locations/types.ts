/** The contacts and locations directory (domain types; the raw answer is checked in schema.ts). */

export const LOCATION_TYPES = ['subsidiary', 'partner', 'service', 'production'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface LocationAddress {
  street: string;
  postalCode: string;
  city: string;
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: string;
}

/** Open on the days `from`..`to` (inclusive, Monday first) from `opens` to `closes` (local HH:MM). */
export interface OpeningHours {
  from: Weekday;
  to: Weekday;
  opens: string;
  closes: string;
}

export interface LocationContactPerson {
  name: string;
  role: string | null;
  /** Digits, spaces and a leading + (it becomes a `tel:` link); null when missing or malformed. */
  phone: string | null;
  email: string | null;
}

/** An entry of the directory: a subsidiary, partner, service or production site. */
export interface LocationEntry {
  id: string;
  name: string;
  type: LocationType;
  address: LocationAddress;
  phone: string | null;
  email: string | null;
  /** The group's brands represented here (system data brands). */
  brands: { id: string; name: string }[];
  openingHours: OpeningHours[];
  contacts: LocationContactPerson[];
  coordinates: { lat: number; lon: number };
  updatedAt: string;
}
