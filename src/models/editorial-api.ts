import * as v from 'valibot';
import { getSystemData, type ContentContext } from '../lib/content/index.ts';
import { contentLocaleChain, makeLocale, parseLocaleSegment } from '../site/locale.ts';
import type { Locale, SystemData } from '../site/types.ts';
import { cacheKey, DataCache, type CacheMode } from '../server/data-cache.ts';
import { serverEnv } from '../server/env.ts';

/**
 * What the editorial API routes share: they run outside the page middleware (no `locals`), so
 * they build their content context from the `lang` they are given and keep their own data cache.
 */
export const apiCache = new DataCache();

/** A locale code as pages send it: `en`, `de-ch`, `de-CH`. */
export const LocaleParam = v.pipe(v.string('lang is required'), v.regex(/^[a-z]{2}(?:-[a-z]{2})?$/i, 'lang must be a locale code such as en or de-ch'));

export function localeOf(code: string): Locale {
  const parsed = parseLocaleSegment(code)!;
  return makeLocale(parsed.language, parsed.country);
}

export function apiContentContext(locale: Locale): ContentContext {
  const env = serverEnv();
  return { config: { endpoint: env.CONTENT_ENDPOINT }, locales: contentLocaleChain(locale), stage: 'PUBLISHED' };
}

export function apiSystemData(mode: CacheMode = 'use'): Promise<SystemData> {
  const ctx = apiContentContext(makeLocale('en', null));
  return apiCache.get(cacheKey(['systemData'], false), () => getSystemData(ctx), mode);
}

/** A JSON response that is never stored by shared caches unless `cacheControl` says so. */
export function json(body: unknown, status = 200, cacheControl = 'no-store'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': cacheControl } });
}
