import { formatLocale } from '../../i18n/index.ts';
import { countryChoices } from '../../site/countries.ts';
import type { RequestContext } from '../../site/request.ts';
import type { Option } from './UserAdminList.tsx';

/** The country names of the system data in the page's language (sorted for it), and the Intl locale for dates. */
export function userAdminOptions(req: RequestContext): { countries: Option[]; numberLocale: string } {
  const numberLocale = formatLocale(req.locale.language, req.locale.country);
  return { countries: countryChoices(req.system.countries, req.locale, numberLocale), numberLocale };
}
