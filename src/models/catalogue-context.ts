import type { CatalogueContext } from '../lib/catalogue/index.ts';
import { UI_LANGUAGES } from '../site/locale.ts';
import { serverEnv } from '../server/env.ts';

/** The catalogue language of a page: its language when the catalogue speaks it, else English. */
export function catalogueLanguage(language: string): string {
  return (UI_LANGUAGES as readonly string[]).includes(language) ? language : 'en';
}

/**
 * The catalogue context of a page language, from the environment (CATALOGUE_ENDPOINT). Plain
 * TypeScript without Vite features, so the prerender (run by Node) can use it too.
 */
export function catalogueContext(language: string): CatalogueContext {
  const env = serverEnv();
  return { config: { endpoint: env.CATALOGUE_ENDPOINT }, language: catalogueLanguage(language) };
}
