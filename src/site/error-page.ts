import { parseLocaleSegment, UI_LANGUAGES } from './locale.ts';

/**
 * The generic error page (spec §2.6, §8) is rendered without the content hub (it may be the
 * reason for the error): its language and home link come from the URL, its texts from the
 * locale files, and the brand name is the site's when it is known, else this one.
 */
export const ERROR_BRAND = 'Komax';

/** Seconds a visitor (or crawler) is asked to wait after a 503. */
export const RETRY_AFTER_SECONDS = 60;

/** The URL's locale segment (`de`, `fr-ch`), or null when the path has none. */
function localeSegment(pathname: string): string | null {
  const first = pathname.split('/')[1] ?? '';
  return parseLocaleSegment(first) ? first.toLowerCase() : null;
}

/** The interface language of the error page: the URL's locale prefix when it is a UI language, else English. */
export function errorPageLanguage(pathname: string): (typeof UI_LANGUAGES)[number] {
  const segment = localeSegment(pathname);
  const language = segment ? parseLocaleSegment(segment)!.language : 'en';
  return (UI_LANGUAGES as readonly string[]).includes(language) ? (language as (typeof UI_LANGUAGES)[number]) : 'en';
}

/** Where "Go to home" leads when the site is unknown: the locale's home, else the root. */
export function errorPageHome(pathname: string): string {
  const segment = localeSegment(pathname);
  return segment ? `/${segment}` : '/';
}

/**
 * Whether an error (or one of its causes) says an upstream service is unavailable (timeout, no
 * connection, 5xx): it carries `unavailable: true`, as src/lib's ServiceError does.
 */
export function isServiceUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { unavailable?: unknown }).unavailable === true) return true;
  }
  return false;
}

/** 503 with Retry-After when an upstream service is down or too slow, 500 for any other error. */
export function errorPageStatus(err: unknown): { status: 500 | 503; retryAfter?: number } {
  return isServiceUnavailable(err) ? { status: 503, retryAfter: RETRY_AFTER_SECONDS } : { status: 500 };
}

/** The document title: the translated error breadcrumb title plus the brand name. */
export function errorPageTitle(breadcrumbTitle: string, brand: string | undefined): string {
  return `${breadcrumbTitle} | ${brand || ERROR_BRAND}`;
}
