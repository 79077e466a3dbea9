import { classifications as cachedClassifications, product as cachedProduct, serviceProduct as cachedServiceProduct } from '../../lib/catalogue/cached.ts';
import type { PageInjection } from '../../lib/content/index.ts';
import { getLogger } from '../../lib/log/index.ts';
import type { RequestContext } from '../../site/request.ts';
import type { LoadContext } from '../platform/context.ts';
import { availableClassificationIds } from './builders.ts';
import { catalogueContext } from './context.ts';
import { injectedEntry, type InjectedEntry } from './injection.ts';

/**
 * Loads the product or service a content page names (spec §3 `injection`) through the same cached
 * catalogue reads as its catalogue page, so the prerender fingerprints the page with them. Not
 * critical: an unknown slug ('No product found for slug'), a catalogue failure or an entry the
 * country does not offer leaves the page with its modules, and is logged. The catalogue lives on
 * the main site only, so other sites show no injection.
 */
export async function loadInjection(lc: LoadContext, req: RequestContext, pageId: string, injection: PageInjection | null): Promise<InjectedEntry | null> {
  if (!injection || !req.site.isMain) return null;
  const ctx = catalogueContext(lc.services.catalogue, req.locale.language);
  try {
    const [classifications, entry] = await Promise.all([
      cachedClassifications(lc.data, ctx),
      injection.kind === 'service'
        ? cachedServiceProduct(lc.data, ctx, injection.slug).then((detail) => ({ kind: 'service' as const, detail }))
        : cachedProduct(lc.data, ctx, injection.slug).then((detail) => ({ kind: 'product' as const, detail })),
    ]);
    const cc = req.country.countryCode;
    return injectedEntry(entry, cc, availableClassificationIds(classifications, cc));
  } catch (err) {
    getLogger('content-page').warn(`page ${pageId}: ${injection.kind} ${injection.slug} not shown: ${(err as Error).message}`);
    return null;
  }
}
