import productCss from './product-view.css?inline';
import classificationCss from './classification-view.css?inline';
import serviceCss from './service-view.css?inline';
import type { CatalogueModel } from './model.ts';

/**
 * The styles of the one catalogue view a page renders (product, classification or service
 * product), inlined where the view starts: a page carries none of the other two views' styles.
 */
export function catalogueViewCss(kind: CatalogueModel['kind'] | 'not-found'): string | null {
  switch (kind) {
    case 'catalogue-product': return productCss;
    case 'catalogue-classification': return classificationCss;
    case 'catalogue-service': return serviceCss;
    default: return null;
  }
}
