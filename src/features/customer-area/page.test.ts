import { describe, expect, it } from 'vitest';
import type { Site } from '../../site/types.ts';
import { customerAreaPage } from './page.ts';

const site = (id: string, isMain: boolean, slug = '') => ({ id, isMain, slug }) as Site;
const main = site('main', true);
const portal = site('brand-portal', false, 'brand-portal');

describe('customerAreaPage', () => {
  it("links the main site's customer area in the page's locale, whichever site the request resolved", () => {
    const page = customerAreaPage({ request: { system: { sites: [portal, main] }, site: portal, locale: { urlCode: 'de-ch' } } });
    expect(page.site).toBe(main);
    expect(page.links).toEqual({
      dashboard: '/de-ch/mykomax', account: '/de-ch/mykomax/account', tickets: '/de-ch/mykomax/tickets/list',
      inventory: '/de-ch/mykomax/inventory', userAdmin: '/de-ch/mykomax/user-admin', wireFlow: '/de-ch/mykomax/wire-flow',
    });
    expect(page.href('/mykomax/logout')).toBe('/de-ch/mykomax/logout');
    expect(page.services.newTicket).toBe('/de-ch/mykomax/tickets/newticket');
  });

  it("falls back to the request's site when no site is marked main", () => {
    const page = customerAreaPage({ request: { system: { sites: [portal] }, site: portal, locale: { urlCode: 'en' } } });
    expect(page.site).toBe(portal);
    expect(page.links.dashboard).toBe('/en/brand-portal/mykomax');
  });
});
