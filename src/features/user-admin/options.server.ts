import { formatLocale } from '../../i18n/index.ts';
import { localizedName } from '../../site/locale.ts';
import type { RequestContext } from '../../site/request.ts';
import type { Option } from './UserAdminList.tsx';

/** The country names of the system data in the page's language (sorted for it), and the Intl locale for dates. */
export function userAdminOptions(req: RequestContext): { countries: Option[]; numberLocale: string } {
  const numberLocale = formatLocale(req.locale.language, req.locale.country);
  const collator = new Intl.Collator(numberLocale);
  const countries = req.system.countries
    .filter((c) => !c.hidden && c.countryCode !== 'ALL')
    .map((c) => ({ code: c.countryCode, name: localizedName(c.localizations, req.locale, c.countryCode) }))
    .sort((a, b) => collator.compare(a.name, b.name));
  return { countries, numberLocale };
}
