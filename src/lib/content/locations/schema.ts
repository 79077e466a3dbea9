import * as v from 'valibot';
import { LOCATION_TYPES, WEEKDAYS } from './types.ts';

/**
 * The raw locations answer (the boundary). The list is checked as a whole only for its shape; each
 * entry is checked by {@link LocationEntrySchema} in map.ts, so one broken entry is left
 * out (and reported) instead of taking the directory down.
 */
export const RawLocationsSchema = v.object({ locations: v.array(v.unknown()) });

const str = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200));
const nstr = v.nullish(v.string());
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/** An e-mail address and a phone of digits, spaces and a leading + (checked in map.ts; a malformed one is dropped). */
export const LocationEmailSchema = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email());
export const LocationPhoneSchema = v.pipe(v.string(), v.trim(), v.maxLength(40), v.regex(/^\+?[0-9][0-9 ]*[0-9]$/));

export const LocationEntrySchema = v.object({
  id: str,
  name: str,
  type: v.picklist(LOCATION_TYPES),
  address: v.object({
    street: str,
    postalCode: v.pipe(v.string(), v.trim(), v.maxLength(20)),
    city: str,
    countryCode: v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/)),
  }),
  phone: nstr,
  email: nstr,
  brands: v.array(v.object({ id: str, name: str })),
  openingHours: v.array(v.object({ from: v.picklist(WEEKDAYS), to: v.picklist(WEEKDAYS), opens: v.pipe(v.string(), v.regex(TIME)), closes: v.pipe(v.string(), v.regex(TIME)) })),
  contacts: v.array(v.object({ name: str, role: nstr, phone: nstr, email: nstr })),
  coordinates: v.object({
    lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
    lon: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
  }),
  updatedAt: v.string(),
});
export type RawLocationEntry = v.InferOutput<typeof LocationEntrySchema>;
