import { formatLocale } from '../../i18n/index.ts';
import { UI_LANGUAGES } from '../../site/locale.ts';
import { countryChoices } from '../../site/countries.ts';
import type { RequestContext } from '../../site/request.ts';
import type { Option } from './messages.ts';

/**
 * The account form's choices in the page's language: the countries of the system data (names
 * localized, sorted for the language) and the 11 interface languages; and the number locale.
 */
export function accountOptions(req: RequestContext): { countries: Option[]; languages: Option[]; numberLocale: string } {
  const numberLocale = formatLocale(req.locale.language, req.locale.country);
  const collator = new Intl.Collator(numberLocale);
  const countries = countryChoices(req.system.countries, req.locale, numberLocale);
  const names = new Intl.DisplayNames([req.locale.language, 'en'], { type: 'language' });
  const languages = UI_LANGUAGES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => collator.compare(a.name, b.name));
  return { countries, languages, numberLocale };
}
