import * as v from 'valibot';
import type { ContentContext } from '../../lib/content/index.ts';
import { contentLocaleChain, makeLocale, parseLocaleSegment } from '../../site/locale.ts';
import type { Locale } from '../../site/types.ts';
import type { ApiContext } from './context.ts';

/** A locale code as pages send it to the API: `en`, `de-ch`, `de-CH`. */
export const LocaleParam = v.pipe(v.string('lang is required'), v.regex(/^[a-z]{2}(?:-[a-z]{2})?$/i, 'lang must be a locale code such as en or de-ch'));

/** The locale of a code that passed {@link LocaleParam}. */
export function localeOf(code: string): Locale {
  const parsed = parseLocaleSegment(code)!;
  return makeLocale(parsed.language, parsed.country);
}

/** The content context of an API call in a locale (published stage). */
export function apiContentContext(api: ApiContext, locale: Locale): ContentContext {
  return { config: api.services.content, locales: contentLocaleChain(locale), stage: 'PUBLISHED' };
}
