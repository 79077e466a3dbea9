import type { CatalogueConfig, CatalogueContext } from '../../lib/catalogue/index.ts';
import { uiLanguage } from '../../site/locale.ts';

/** The catalogue context of a page language (the catalogue speaks the interface languages). */
export function catalogueContext(config: CatalogueConfig, language: string): CatalogueContext {
  return { config, language: uiLanguage(language) };
}
