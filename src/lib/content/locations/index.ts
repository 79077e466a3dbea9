import { contentQuery, type ContentContext } from '../content-service.ts';
import { LOCATIONS } from './queries.ts';
import { RawLocationsSchema } from './schema.ts';
import { mapLocations } from './map.ts';
import type { LocationEntry } from './types.ts';
import { getLogger } from '../../log/index.ts';

export type { LocationEntry, LocationType, OpeningHours, Weekday, LocationContactPerson, LocationAddress } from './types.ts';
export { LOCATION_TYPES, WEEKDAYS } from './types.ts';

const log = getLogger('content');

/** Every entry of the contacts and locations directory (contact roles in the context's locale chain). */
export async function getLocations(ctx: ContentContext): Promise<LocationEntry[]> {
  const raw = await contentQuery(ctx, 'locations', LOCATIONS, {}, RawLocationsSchema);
  return mapLocations(raw.locations, (m) => log.warn(m));
}
