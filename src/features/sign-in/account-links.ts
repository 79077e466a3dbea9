import { originFor } from '../../site/links.ts';
import { preferredLocale } from '../../site/locale.ts';
import { localizedPath } from '../../site/paths.ts';
import { CUSTOMER_AREA_PATHS } from '../customer-area/paths.ts';
import type { Locale, Site, SystemData } from '../../site/types.ts';
import { mainSite } from '../../site/main-site.ts';

/** The logout page of the customer area (spec customer-area §2). */
export const LOGOUT_PATH = '/mykomax/logout';
/** The registration redirect (src/pages/api/mykomax/register.ts). */
export const REGISTER_API_PATH = '/api/mykomax/register';

export interface AccountLinks {
  login: string;
  register: string;
  dashboard: string;
  tickets: string;
  account: string;
  direct: string;
  logout: string;
}

/**
 * The header user menu's targets. The customer area lives on the main site only (a sub-site's own
 * `/en/mykomax` is its 404 page): on the main site's host the links are root-relative, on any other
 * host they are absolute URLs of the main site's host (from the site configuration). The page's
 * return address is added in the browser (user-menu.ts, `withReturn`), so one rendering of the
 * menu serves every page of a site. The locale is the page's when the main site offers it, else the
 * main site's nearest one (a sub-site may add a language the main site lacks: `/es` → `/en/mykomax`).
 * @example accountLinks({ system, site: events, locale: en, here: new URL('http://events.localhost:4321/en') }).login
 *   // 'http://localhost:4321/en/mykomax'
 */
export function accountLinks(ctx: { system: Pick<SystemData, 'sites' | 'languages' | 'countries'>; site: Site; locale: Pick<Locale, 'urlCode'>; here: URL }): AccountLinks {
  const main = mainSite(ctx.system) ?? ctx.site;
  const origin = originFor(main, ctx.here);
  const locale = main.id === ctx.site.id ? ctx.locale : preferredLocale(ctx.locale.urlCode, main, ctx.system);
  const area = (path: string) => `${origin}${localizedPath(main, locale, path)}`;
  return {
    login: area(CUSTOMER_AREA_PATHS.dashboard),
    register: `${origin}${REGISTER_API_PATH}?locale=${encodeURIComponent(locale.urlCode)}`,
    dashboard: area(CUSTOMER_AREA_PATHS.dashboard),
    tickets: area(CUSTOMER_AREA_PATHS.tickets),
    account: area(CUSTOMER_AREA_PATHS.account),
    direct: `${area(CUSTOMER_AREA_PATHS.dashboard)}#direct`,
    logout: area(LOGOUT_PATH),
  };
}
