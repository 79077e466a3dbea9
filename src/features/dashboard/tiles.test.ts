import { describe, expect, it } from 'vitest';
import { computeTiles, withReturn, type CustomerAreaSettings, type TilePaths } from './tiles.ts';
import { campusStatus, directStatus, roleStatuses, SERVICES, wireFlowUserType } from '../customer-area/roles.ts';

const settings: CustomerAreaSettings = {
  directServiceUrl: 'https://direct.example.test/',
  directRegistrationUrl: 'https://idp.example.test/am/XUI/?realm=alpha&authIndexType=service&authIndexValue=Registration',
  wireFlowCloudUrl: 'https://wireflow.example.test/',
  masterDataWmUrl: 'https://mdwm.example.test/',
  masterDataMdsUrl: 'https://mdmds.example.test/',
  campusUrl: 'https://campus.example.test/',
  requestAccessUrl: '/en/contact',
  comingSoon: [],
};
const paths: TilePaths = {
  tickets: '/de-ch/mykomax/tickets/list',
  inventory: '/de-ch/mykomax/inventory',
  userAdmin: '/de-ch/mykomax/user-admin',
  wireFlow: '/de-ch/mykomax/wire-flow',
  dashboardUrl: 'https://www.example.test/de-ch/mykomax',
};

const NONE = {
  serviceTicketing: 'unregistered', inventory: 'unregistered', wireFlow: 'unregistered', delegatedAdmin: 'unregistered',
  direct: 'unregistered', masterDataWm: 'unregistered', masterDataMds: 'unregistered', campus: 'unregistered',
} as const;

// Every role string of spec §6, written out here (not taken from the module under test), with the one status it gives.
const EACH_ROLE: [role: string, changes: Partial<Record<keyof typeof NONE, string>>][] = [
  ['kmx_int_serviceticketing_active', { serviceTicketing: 'active' }],
  ['kmx_int_assetdb_active', { inventory: 'active' }],
  ['kmx_delegatedadmin_extern', { delegatedAdmin: 'active' }],
  ['kmx_delegatedadmin_intern', { delegatedAdmin: 'active' }],
  ['kmx_int_artemis_active', { wireFlow: 'active' }],
  ['kmx_artemis_onpremuser', {}],
  ['kmx_int_direct_pending', { direct: 'pending' }],
  ['kmx_int_direct_active', { direct: 'active' }],
  ['kmx_int_mfpwm_active', { masterDataWm: 'active' }],
  ['kmx_int_mfpmds_active', { masterDataMds: 'active' }],
  ['kmx_int_lmsefront_active', { campus: 'active' }],
  ['kmx_int_lmsefront_invited', { campus: 'invited' }],
  ['kmx_int_lmsefront_inviteexpired', { campus: 'inviteexpired' }],
];

describe('role statuses (spec §4, §6)', () => {
  it('no roles: every service unregistered', () => {
    expect(roleStatuses([])).toEqual(NONE);
  });

  it.each(EACH_ROLE)('%s alone changes exactly its service', (role, changes) => {
    expect(roleStatuses([role])).toEqual({ ...NONE, ...changes });
  });

  it('unknown, similar-looking or differently cased roles give nothing', () => {
    expect(roleStatuses(['kmx_int_serviceticketing', 'KMX_INT_ASSETDB_ACTIVE', 'kmx_int_direct_active_x', 'x_kmx_int_lmsefront_active', 'kmx_delegatedadmin'])).toEqual(NONE);
  });

  it('direct: pending wins over active, active over nothing', () => {
    expect(directStatus(['kmx_int_direct_active', 'kmx_int_direct_pending'])).toBe('pending');
    expect(directStatus(['kmx_int_direct_pending', 'kmx_int_direct_active'])).toBe('pending');
    expect(directStatus(['kmx_int_direct_active'])).toBe('active');
    expect(directStatus([])).toBe('unregistered');
  });

  it('campus: active over invited over invite expired', () => {
    expect(campusStatus(['kmx_int_lmsefront_inviteexpired', 'kmx_int_lmsefront_invited', 'kmx_int_lmsefront_active'])).toBe('active');
    expect(campusStatus(['kmx_int_lmsefront_inviteexpired', 'kmx_int_lmsefront_invited'])).toBe('invited');
    expect(campusStatus(['kmx_int_lmsefront_inviteexpired'])).toBe('inviteexpired');
    expect(campusStatus(['kmx_int_lmsefront'])).toBe('unregistered');
  });

  it('delegated admin: either the internal or the external role', () => {
    expect(roleStatuses(['kmx_delegatedadmin_intern', 'kmx_delegatedadmin_extern']).delegatedAdmin).toBe('active');
  });

  it('wire-flow user type: onprem with the on-prem role, else cloud', () => {
    expect(wireFlowUserType(['kmx_int_artemis_active', 'kmx_artemis_onpremuser'])).toBe('onprem');
    expect(wireFlowUserType(['kmx_int_artemis_active'])).toBe('cloud');
    expect(wireFlowUserType([])).toBe('cloud');
  });
});

describe('computeTiles', () => {
  const byService = (roles: string[], s = settings) => Object.fromEntries(computeTiles(roles, s, paths).map((t) => [t.service, t]));

  it('one tile per service, in a fixed order', () => {
    expect(computeTiles([], settings, paths).map((t) => t.service)).toEqual([...SERVICES]);
    expect(SERVICES).toEqual(['serviceTicketing', 'inventory', 'wireFlow', 'delegatedAdmin', 'direct', 'masterDataWm', 'masterDataMds', 'campus']);
  });

  it('tile targets of spec §2 (localized paths) and the content hub addresses', () => {
    const t = byService([]);
    expect(t.serviceTicketing!.serviceUrl).toBe('/de-ch/mykomax/tickets/list');
    expect(t.inventory!.serviceUrl).toBe('/de-ch/mykomax/inventory');
    expect(t.delegatedAdmin!.serviceUrl).toBe('/de-ch/mykomax/user-admin');
    expect(t.wireFlow!.serviceUrl).toBe('/de-ch/mykomax/wire-flow');
    expect(t.wireFlow!.serviceUrlCloud).toBe('https://wireflow.example.test/');
    expect(t.direct!.serviceUrl).toBe('https://direct.example.test/');
    expect(t.masterDataWm!.serviceUrl).toBe('https://mdwm.example.test/');
    expect(t.masterDataMds!.serviceUrl).toBe('https://mdmds.example.test/');
    expect(t.campus!.serviceUrl).toBe('https://campus.example.test/');
    expect(t.campus!.requestAccessUrl).toBe('/en/contact');
  });

  it('the direct registration returns to the localized dashboard after sign-in', () => {
    const url = new URL(byService([]).direct!.registrationUrl!);
    expect(url.searchParams.get('goto')).toBe('https://www.example.test/de-ch/mykomax');
    expect(url.searchParams.get('authIndexValue')).toBe('Registration');
    expect(url.searchParams.get('realm')).toBe('alpha');
  });

  it('without a registration address the direct tile has none', () => {
    expect(byService([], { ...settings, directRegistrationUrl: null }).direct!.registrationUrl).toBeNull();
  });

  it('wire-flow tile carries the user type', () => {
    expect(byService(['kmx_int_artemis_active', 'kmx_artemis_onpremuser']).wireFlow!.userType).toBe('onprem');
    expect(byService(['kmx_int_artemis_active']).wireFlow!.userType).toBe('cloud');
    expect(byService(['kmx_int_artemis_active']).serviceTicketing!.userType).toBeUndefined();
  });

  it('coming soon from content, unless a role opens the service', () => {
    const soon = { ...settings, comingSoon: ['masterDataMds', 'direct', 'campus'] as CustomerAreaSettings['comingSoon'] };
    expect(byService([], soon).masterDataMds!.status).toBe('comingsoon');
    expect(byService(['kmx_int_mfpmds_active'], soon).masterDataMds!.status).toBe('active');
    expect(byService(['kmx_int_direct_pending'], soon).direct!.status).toBe('pending');
    expect(byService(['kmx_int_lmsefront_invited'], soon).campus!.status).toBe('invited');
    expect(byService([], soon).inventory!.status).toBe('unregistered');
  });

  it('noprocess (spec §4) for a service the user does not have and cannot ask for: no request-access address, or for direct no registration address', () => {
    const noRequest = { ...settings, requestAccessUrl: null };
    expect(byService([], noRequest).inventory!.status).toBe('noprocess');
    expect(byService([], noRequest).direct!.status).toBe('unregistered');
    expect(byService([], { ...settings, directRegistrationUrl: null }).direct!.status).toBe('noprocess');
    expect(byService([], { ...settings, directRegistrationUrl: null }).inventory!.status).toBe('unregistered');
    // A status from a role, and coming soon, stay what they are.
    expect(byService(['kmx_int_assetdb_active', 'kmx_int_lmsefront_inviteexpired'], noRequest).inventory!.status).toBe('active');
    expect(byService(['kmx_int_lmsefront_inviteexpired'], noRequest).campus!.status).toBe('inviteexpired');
    expect(byService([], { ...noRequest, comingSoon: ['masterDataMds'] }).masterDataMds!.status).toBe('comingsoon');
  });

  it('takes roles from any iterable once', () => {
    function* gen() { yield 'kmx_int_artemis_active'; yield 'kmx_artemis_onpremuser'; }
    const tiles = Object.fromEntries(computeTiles(gen(), settings, paths).map((t) => [t.service, t]));
    expect(tiles.wireFlow!.status).toBe('active');
    expect(tiles.wireFlow!.userType).toBe('onprem');
  });
});

describe('withReturn', () => {
  it('keeps the query and replaces an existing goto', () => {
    expect(withReturn('https://idp.test/x?a=1&goto=old', 'http://localhost:4321/en/mykomax')).toBe('https://idp.test/x?a=1&goto=http%3A%2F%2Flocalhost%3A4321%2Fen%2Fmykomax');
  });
});
