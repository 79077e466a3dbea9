import type { FeaturePolicy } from '../platform/feature-policy.ts';
import { LIST_QUERY_PARAMS } from './paging.ts';

/** The story overview and the media release list: their static file is the unfiltered first page. */
export const editorialPolicy: FeaturePolicy = { feature: 'editorial', dynamicParams: LIST_QUERY_PARAMS };
