import type { FeaturePolicy } from '../platform/feature-policy.ts';
import { FILTER_PARAMS } from './filter.ts';

/** The locations directory's filters: its static file is the unfiltered list. */
export const locationsPolicy: FeaturePolicy = { feature: 'locations', dynamicParams: FILTER_PARAMS };
