import type { Site } from './types.ts';

/**
 * The main site (the one with `isMain`): the customer area, the callback and the editor live there,
 * and links from other sites to them go there. Undefined when the content hub names none; each
 * caller decides its fallback (usually the request's site).
 */
export function mainSite<S extends Pick<Site, 'isMain'>>(system: { sites: readonly S[] }): S | undefined {
  return system.sites.find((s) => s.isMain);
}
