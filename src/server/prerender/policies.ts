import type { FeaturePolicy } from '../../features/platform/feature-policy.ts';
import { platformPolicy } from '../../features/platform/policy.ts';
import { locationsPolicy } from '../../features/locations/policy.ts';
import { editorialPolicy } from '../../features/editorial/policy.ts';
import { draftPreviewPolicy } from '../../features/draft-preview/policy.ts';
import { signInPolicy } from '../../features/sign-in/policy.ts';
import { editorPolicy } from '../../features/editor/policy.ts';

export type { FeaturePolicy } from '../../features/platform/feature-policy.ts';

/**
 * The features' delivery policies (each in `src/features/<feature>/policy.ts`): which requests
 * the static files cannot answer, which pages are never static. Beside the route sources
 * (sources.ts) because together they say what the prerender writes and when the server may use it;
 * the features' request-time steps are in request-hooks.ts. Read by src/server/http/app-server.ts,
 * collect.ts and src/middleware.ts, never restated there.
 */
export const FEATURE_POLICIES: readonly FeaturePolicy[] = [platformPolicy, locationsPolicy, editorialPolicy, draftPreviewPolicy, signInPolicy, editorPolicy];

/** What the registry's policies say together: built once, for the per-request checks. */
export interface DeliveryPolicy {
  /** Every query parameter that makes a page request dynamic. */
  dynamicParams: readonly string[];
  /** Every cookie that makes a page request dynamic. */
  dynamicCookies: readonly string[];
  /** Whether a raw Cookie header carries a cookie that makes a page request dynamic. */
  hasDynamicCookie(cookieHeader: string | undefined): boolean;
  /** Whether a request (its query and raw Cookie header) must be rendered on demand. */
  isDynamic(params: URLSearchParams, cookieHeader: string | undefined): boolean;
  /** Whether a page path (below locale and site slug) is never prerendered; the feature that says so, else null. */
  neverStatic(pagePath: string): string | null;
}

const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function deliveryPolicy(policies: readonly FeaturePolicy[] = FEATURE_POLICIES): DeliveryPolicy {
  const dynamicParams = [...new Set(policies.flatMap((p) => p.dynamicParams ?? []))];
  const dynamicCookies = [...new Set(policies.flatMap((p) => p.dynamicCookies ?? []))];
  // A cookie counts by name whatever its value (an empty one too), as the browser sent it.
  const cookiePattern = dynamicCookies.length ? new RegExp(`(?:^|;\\s*)(?:${dynamicCookies.map(escape).join('|')})=`) : null;
  const guards = policies.filter((p) => p.neverStatic);
  const hasDynamicCookie = (cookieHeader: string | undefined) => cookieHeader !== undefined && !!cookiePattern?.test(cookieHeader);
  return {
    dynamicParams,
    dynamicCookies,
    hasDynamicCookie,
    isDynamic: (params, cookieHeader) => dynamicParams.some((p) => params.has(p)) || hasDynamicCookie(cookieHeader),
    neverStatic: (pagePath) => guards.find((p) => p.neverStatic!(pagePath))?.feature ?? null,
  };
}

/** The registry's policies, for the server and the prerender. */
export const DELIVERY = deliveryPolicy();
