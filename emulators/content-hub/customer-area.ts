import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HubExtension } from './server.ts';

/**
 * The customer area's settings in the content hub: addresses of the services that are not the
 * site's own routes (direct, wire-flow cloud, master-data services, campus), the page where a user
 * asks for access, the services announced but not open yet ("coming soon") and the support contact
 * shown with ticketing failures. Data:
 * `emulators/data/content/customer-area.json`, read on every query (edits apply at once).
 */

const here = dirname(fileURLToPath(import.meta.url));
export const CUSTOMER_AREA_FILE = join(here, '../data/content/customer-area.json');

export const customerAreaTypeDefs = /* GraphQL */ `
"Settings of the signed-in customer area (one record)."
type CustomerAreaSettings {
  "The direct service's address."
  directServiceUrl: String
  "The wire-flow cloud service's address (cloud users)."
  wireFlowCloudUrl: String
  "Master-data services 1 (mfpwm)."
  masterDataWmUrl: String
  "Master-data services 2 (mfpmds)."
  masterDataMdsUrl: String
  campusUrl: String
  "Site-relative path of the page where users ask for access to a service (main site)."
  requestAccessPath: String
  "Services announced but not open yet: serviceTicketing, inventory, wireFlow, delegatedAdmin, direct, masterDataWm, masterDataMds, campus."
  comingSoon: [String!]!
  "E-mail address of Komax service, shown with ticket, comment, close and upload failures."
  supportEmail: String
  "Telephone number of Komax service (digits, spaces and +), shown beside the e-mail address."
  supportPhone: String
}

extend type Query {
  customerAreaSettings: CustomerAreaSettings!
}
`;

interface RawSettings {
  directServiceUrl?: string | null;
  wireFlowCloudUrl?: string | null;
  masterDataWmUrl?: string | null;
  masterDataMdsUrl?: string | null;
  campusUrl?: string | null;
  requestAccessPath?: string | null;
  comingSoon?: string[];
  supportEmail?: string | null;
  supportPhone?: string | null;
}

/** Builds the customer-area extension of the content hub (`file` for tests). */
export function createCustomerAreaExtension(file = CUSTOMER_AREA_FILE): HubExtension {
  const read = (): RawSettings => JSON.parse(readFileSync(file, 'utf8')) as RawSettings;
  read(); // fail fast on a broken file
  return {
    typeDefs: customerAreaTypeDefs,
    resolvers: () => ({
      Query: {
        customerAreaSettings: () => {
          const s = read();
          return {
            directServiceUrl: s.directServiceUrl ?? null,
            wireFlowCloudUrl: s.wireFlowCloudUrl ?? null,
            masterDataWmUrl: s.masterDataWmUrl ?? null,
            masterDataMdsUrl: s.masterDataMdsUrl ?? null,
            campusUrl: s.campusUrl ?? null,
            requestAccessPath: s.requestAccessPath ?? null,
            comingSoon: s.comingSoon ?? [],
            supportEmail: s.supportEmail ?? null,
            supportPhone: s.supportPhone ?? null,
          };
        },
      },
    }),
  };
}

export const customerArea = createCustomerAreaExtension();
