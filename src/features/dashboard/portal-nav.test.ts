import { describe, expect, it } from 'vitest';
import { PORTAL_NAV_ITEMS, portalNavItems, portalSection } from './portal-nav.ts';

describe('portal navigation: roles → items (issue 29 item 16)', () => {
  it('lists the portal pages in a fixed order', () => {
    expect(PORTAL_NAV_ITEMS).toEqual(['dashboard', 'tickets', 'inventory', 'wireFlow', 'userAdmin', 'account']);
  });

  it('without roles: the dashboard and the account settings only', () => {
    expect(portalNavItems([])).toEqual(['dashboard', 'account']);
  });

  // The role strings of spec §6, written out here, with the one item each adds.
  it.each([
    ['kmx_int_serviceticketing_active', 'tickets'],
    ['kmx_int_assetdb_active', 'inventory'],
    ['kmx_int_artemis_active', 'wireFlow'],
    ['kmx_delegatedadmin_extern', 'userAdmin'],
    ['kmx_delegatedadmin_intern', 'userAdmin'],
  ])('%s adds %s', (role, item) => {
    expect(portalNavItems([role])).toEqual(['dashboard', item, 'account']);
  });

  it('roles of services without a portal page add nothing', () => {
    const others = ['kmx_artemis_onpremuser', 'kmx_int_direct_active', 'kmx_int_direct_pending', 'kmx_int_mfpwm_active', 'kmx_int_mfpmds_active', 'kmx_int_lmsefront_active', 'kmx_int_lmsefront_invited'];
    expect(portalNavItems(others)).toEqual(['dashboard', 'account']);
  });

  it('similar-looking or differently cased roles add nothing', () => {
    expect(portalNavItems(['KMX_INT_SERVICETICKETING_ACTIVE', 'kmx_int_assetdb', 'kmx_delegatedadmin', 'kmx_int_artemis_active_x'])).toEqual(['dashboard', 'account']);
  });

  it('every role: every item, in order', () => {
    expect(portalNavItems(['kmx_delegatedadmin_intern', 'kmx_int_artemis_active', 'kmx_int_assetdb_active', 'kmx_int_serviceticketing_active'])).toEqual([...PORTAL_NAV_ITEMS]);
  });
});

describe('portalSection', () => {
  it('names the item of every customer-area page', () => {
    expect(portalSection('/mykomax')).toBe('dashboard');
    expect(portalSection('/mykomax/tickets/list')).toBe('tickets');
    expect(portalSection('/mykomax/tickets/newticket')).toBe('tickets');
    expect(portalSection('/mykomax/tickets/SR-100004')).toBe('tickets');
    expect(portalSection('/mykomax/inventory')).toBe('inventory');
    expect(portalSection('/mykomax/inventory/old')).toBe('inventory');
    expect(portalSection('/mykomax/wire-flow')).toBe('wireFlow');
    expect(portalSection('/mykomax/user-admin/u-1')).toBe('userAdmin');
    expect(portalSection('/MyKomax/Account')).toBe('account');
  });

  it('is null outside the portal sections', () => {
    expect(portalSection('/mykomax/logout')).toBeNull();
    expect(portalSection('/about-us')).toBeNull();
    expect(portalSection('')).toBeNull();
  });
});
