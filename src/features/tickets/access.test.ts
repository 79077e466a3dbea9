import { describe, expect, it } from 'vitest';
import { hasServiceAccess } from './access.ts';

describe('hasServiceAccess', () => {
  it('opens each service with its exact role only', () => {
    expect(hasServiceAccess(['kmx_int_serviceticketing_active'], 'tickets')).toBe(true);
    expect(hasServiceAccess(['kmx_int_assetdb_active'], 'inventory')).toBe(true);
    expect(hasServiceAccess(['kmx_int_artemis_active', 'kmx_artemis_onpremuser'], 'wireFlow')).toBe(true);
    expect(hasServiceAccess(['kmx_artemis_onpremuser'], 'wireFlow')).toBe(false);
    expect(hasServiceAccess(['kmx_int_serviceticketing_pending', 'KMX_INT_SERVICETICKETING_ACTIVE'], 'tickets')).toBe(false);
    expect(hasServiceAccess([], 'inventory')).toBe(false);
  });
});
