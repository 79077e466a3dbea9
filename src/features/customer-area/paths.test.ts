import { describe, expect, it } from 'vitest';
import { localizedPath } from '../../site/paths.ts';
import {
  CUSTOMER_AREA_PATHS, customerAreaCanonicalPath, isCustomerAreaPagePath, isCustomerAreaPath, newTicketForMachine, servicePaths, ticketPath,
} from './paths.ts';

describe('CUSTOMER_AREA_PATHS', () => {
  it('are the routes of spec customer-area §2, localized like every page', () => {
    expect(Object.values(CUSTOMER_AREA_PATHS).map((p) => localizedPath({ slug: '' }, { urlCode: 'de-ch' }, p))).toEqual([
      '/de-ch/mykomax', '/de-ch/mykomax/account', '/de-ch/mykomax/tickets/list', '/de-ch/mykomax/inventory', '/de-ch/mykomax/user-admin', '/de-ch/mykomax/wire-flow',
    ]);
  });
});

describe('servicePaths', () => {
  it("are the services' pages in the page's locale, a ticket's and a machine's new ticket built from them", () => {
    const paths = servicePaths({ slug: '' }, { urlCode: 'de-ch' });
    expect(paths).toEqual({
      dashboard: '/de-ch/mykomax', ticketList: '/de-ch/mykomax/tickets/list', newTicket: '/de-ch/mykomax/tickets/newticket', ticketBase: '/de-ch/mykomax/tickets',
      inventory: '/de-ch/mykomax/inventory', inventoryOld: '/de-ch/mykomax/inventory/old', wireFlow: '/de-ch/mykomax/wire-flow',
    });
    expect(ticketPath(paths, 'SR 1/2')).toBe('/de-ch/mykomax/tickets/SR%201%2F2');
    expect(newTicketForMachine(paths, 'M&1')).toBe('/de-ch/mykomax/tickets/newticket?machine=M%261');
  });
});

describe('customer-area paths', () => {
  it('are /{locale}/mykomax and below, in any case', () => {
    for (const p of ['/en/mykomax', '/de-ch/mykomax/account', '/en/MyKomax', '/EN/MYKOMAX/tickets/list']) expect(isCustomerAreaPath(p), p).toBe(true);
    for (const p of ['/en', '/en/mykomaxx', '/en/about/mykomax', '/mykomax', '/api/mykomax/session', '/english/mykomax']) expect(isCustomerAreaPath(p), p).toBe(false);
  });

  it('page paths below the locale', () => {
    expect(isCustomerAreaPagePath('/mykomax')).toBe(true);
    expect(isCustomerAreaPagePath('/MyKomax/account')).toBe(true);
    expect(isCustomerAreaPagePath('/about-us/mykomax')).toBe(false);
    expect(isCustomerAreaPagePath('')).toBe(false);
  });

  it('a differently cased path has a lowercase canonical spelling; ids keep their case', () => {
    expect(customerAreaCanonicalPath('/en/MyKomax')).toBe('/en/mykomax');
    expect(customerAreaCanonicalPath('/DE-CH/MYKOMAX/Account')).toBe('/de-ch/mykomax/account');
    expect(customerAreaCanonicalPath('/en/mykomax/Tickets/AbC1')).toBe('/en/mykomax/tickets/AbC1');
    expect(customerAreaCanonicalPath('/en/mykomax')).toBeNull();
    expect(customerAreaCanonicalPath('/en/mykomax/tickets/AbC1')).toBeNull();
    expect(customerAreaCanonicalPath('/en/About')).toBeNull();
  });


  it('every fixed route segment is lowercased, logout and the old inventory included', () => {
    expect(customerAreaCanonicalPath('/en/MyKomax/Logout')).toBe('/en/mykomax/logout');
    expect(customerAreaCanonicalPath('/en/mykomax/Inventory/OLD')).toBe('/en/mykomax/inventory/old');
    expect(customerAreaCanonicalPath('/en/mykomax/User-Admin/AbC')).toBe('/en/mykomax/user-admin/AbC');
    expect(customerAreaCanonicalPath('/en/mykomax/Tickets/NewTicket')).toBe('/en/mykomax/tickets/newticket');
  });
});
