import { contentQuery, type ContentContext } from '../content-service.ts';
import { CUSTOMER_AREA_SETTINGS } from './queries.ts';
import { RawCustomerAreaSettingsSchema } from './schema.ts';
import { mapCustomerArea, type CustomerAreaContent } from './map.ts';
import { getLogger } from '../../log/index.ts';

export type { CustomerAreaContent } from './map.ts';

const log = getLogger('content');

/** The customer area's settings record (not localized). */
export async function getCustomerAreaSettings(ctx: ContentContext): Promise<CustomerAreaContent> {
  const raw = await contentQuery(ctx, 'customerAreaSettings', CUSTOMER_AREA_SETTINGS, {}, RawCustomerAreaSettingsSchema);
  return mapCustomerArea(raw.customerAreaSettings, (m) => log.warn(m));
}
