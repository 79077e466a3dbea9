import type { FeaturePolicy } from '../platform/feature-policy.ts';
import { isSignInPagePath } from './area.ts';

/**
 * The customer area and the sign-in callback (any case, any site): on the main site rendered on
 * demand for each visitor and never stored (spec customer-area §2); on other sites a 404, which a
 * static file would hide from the middleware.
 */
export const signInPolicy: FeaturePolicy = { feature: 'sign-in', neverStatic: isSignInPagePath };
