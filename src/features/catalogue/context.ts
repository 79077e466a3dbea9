import type { CatalogueConfig, CatalogueContext } from '../../lib/catalogue/index.ts';
import { UI_LANGUAGES } from '../../site/locale.ts';

/** The catalogue language of a page: its language when the catalogue speaks it, else English. */
export function catalogueLanguage(language: string): string {
  return (UI_LANGUAGES as readonly string[]).includes(language) ? language : 'en';
}

/** The catalogue context of a page language. */
export function catalogueContext(config: CatalogueConfig, language: string): CatalogueContext {
  return { config, language: catalogueLanguage(language) };
}
