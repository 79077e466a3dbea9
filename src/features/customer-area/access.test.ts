import { describe, expect, it } from 'vitest';
import { computeTiles, type CustomerAreaSettings } from '../dashboard/tiles.ts';
import { ROLES } from './roles.ts';
import { hasServiceAccess, SERVICE_TILES, type CustomerService } from './access.ts';

const NO_SETTINGS: CustomerAreaSettings = {
  directServiceUrl: null, directRegistrationUrl: null, wireFlowCloudUrl: null, masterDataWmUrl: null,
  masterDataMdsUrl: null, campusUrl: null, requestAccessUrl: null, comingSoon: [],
};
const PATHS = { tickets: '/t', inventory: '/i', userAdmin: '/u', wireFlow: '/w', dashboardUrl: 'http://localhost/en/mykomax' };

describe('hasServiceAccess', () => {
  it('opens the tickets pages with the service-ticketing role, not without it', () => {
    expect(hasServiceAccess([ROLES.serviceTicketing], 'tickets')).toBe(true);
    expect(hasServiceAccess(['kmx_int_serviceticketing_active'], 'tickets')).toBe(true);
    expect(hasServiceAccess([ROLES.inventory, ROLES.wireFlow, 'kmx_int_serviceticketing_pending', 'KMX_INT_SERVICETICKETING_ACTIVE'], 'tickets')).toBe(false);
    expect(hasServiceAccess([], 'tickets')).toBe(false);
  });

  it('opens the inventory pages with the asset-database role, not without it', () => {
    expect(hasServiceAccess(['kmx_int_assetdb_active'], 'inventory')).toBe(true);
    expect(hasServiceAccess([ROLES.serviceTicketing, ROLES.wireFlow], 'inventory')).toBe(false);
    expect(hasServiceAccess([], 'inventory')).toBe(false);
  });

  it('opens the wire-flow page with the wire-flow role (on-prem or cloud), not with the on-prem user type alone', () => {
    expect(hasServiceAccess(['kmx_int_artemis_active', 'kmx_artemis_onpremuser'], 'wireFlow')).toBe(true);
    expect(hasServiceAccess(['kmx_int_artemis_active'], 'wireFlow')).toBe(true);
    expect(hasServiceAccess(['kmx_artemis_onpremuser'], 'wireFlow')).toBe(false);
    expect(hasServiceAccess([], 'wireFlow')).toBe(false);
  });

  it('agrees with the dashboard: a page opens exactly when its tile is active, coming soon or not', () => {
    const roleSets = [[], Object.values(ROLES), [ROLES.serviceTicketing], [ROLES.inventory], [ROLES.wireFlow], [ROLES.wireFlowOnPrem], [ROLES.directActive, ROLES.campusActive]];
    const comingSoon: CustomerAreaSettings = { ...NO_SETTINGS, comingSoon: ['serviceTicketing', 'inventory', 'wireFlow'] };
    for (const roles of roleSets) {
      for (const settings of [NO_SETTINGS, comingSoon]) {
        const tiles = computeTiles(roles, settings, PATHS);
        for (const service of Object.keys(SERVICE_TILES) as CustomerService[]) {
          const tile = tiles.find((t) => t.service === SERVICE_TILES[service])!;
          expect(hasServiceAccess(roles, service), `${service} with ${roles.join(',') || 'no roles'}`).toBe(tile.status === 'active');
        }
      }
    }
  });
});
