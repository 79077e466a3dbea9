import type { FeaturePolicy } from '../platform/feature-policy.ts';
import { PREVIEW_COOKIE, PREVIEW_PARAM } from './mode.ts';

/**
 * The preview parameter and cookie reach the middleware, which decides (an editor gets the DRAFT
 * stage; anyone else's stale cookie is cleared and the parameter ignored).
 */
export const draftPreviewPolicy: FeaturePolicy = { feature: 'draft-preview', dynamicParams: [PREVIEW_PARAM], dynamicCookies: [PREVIEW_COOKIE] };
