import type { FeaturePolicy } from './feature-policy.ts';

/**
 * The request flags every page reads (src/site/request.ts `requestFlags`): `?direct` and the
 * next-release preview (`?nextRelease`, or its cookie) change the data a page is rendered from.
 */
export const platformPolicy: FeaturePolicy = {
  feature: 'platform',
  dynamicParams: ['direct', 'nextRelease'],
  dynamicCookies: ['nextRelease'],
};
