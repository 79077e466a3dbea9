import { describe, expect, it } from 'vitest';
import { DELIVERY, deliveryPolicy, FEATURE_POLICIES } from './policies.ts';
import { FILTER_PARAMS } from '../../features/locations/filter.ts';
import { LIST_QUERY_PARAMS } from '../../features/editorial/paging.ts';
import { PREVIEW_COOKIE, PREVIEW_PARAM } from '../../features/draft-preview/mode.ts';

const none = new URLSearchParams();

describe('the features\' delivery policies', () => {
  it('make dynamic every query parameter a feature renders from, and nothing else', () => {
    // The list src/server/http/app-server.ts kept by hand before the registry, restating the features.
    expect([...DELIVERY.dynamicParams].sort()).toEqual(['brand', 'category', 'country', 'direct', 'editor-handoff', 'nextRelease', 'page', 'preview', 'q', 'type']);
    for (const p of [...FILTER_PARAMS, ...LIST_QUERY_PARAMS, PREVIEW_PARAM]) expect(DELIVERY.isDynamic(new URLSearchParams({ [p]: '' }), undefined)).toBe(true);
    expect(DELIVERY.isDynamic(new URLSearchParams({ utm_source: 'x', cache: 'bypass' }), undefined)).toBe(false);
  });

  it('finds the next-release and preview cookies in a Cookie header by name, and only those', () => {
    expect(DELIVERY.hasDynamicCookie(`${PREVIEW_COOKIE}=DRAFT`)).toBe(true);
    expect(DELIVERY.hasDynamicCookie(`locale=en; ${PREVIEW_COOKIE}=DRAFT`)).toBe(true);
    expect(DELIVERY.hasDynamicCookie('locale=en;nextRelease=')).toBe(true);
    expect(DELIVERY.hasDynamicCookie(`x${PREVIEW_COOKIE}=DRAFT; locale=en`)).toBe(false);
    expect(DELIVERY.hasDynamicCookie('xnextRelease=1')).toBe(false);
    expect(DELIVERY.hasDynamicCookie('locale=en')).toBe(false);
    expect(DELIVERY.hasDynamicCookie(undefined)).toBe(false);
    expect(DELIVERY.isDynamic(none, 'nextRelease=1')).toBe(true);
  });

  it('keep the customer area, the callback and the editor area out of the static files, in any case, and name the feature', () => {
    expect(DELIVERY.neverStatic('/MyKomax/account')).toBe('sign-in');
    expect(DELIVERY.neverStatic('/callback')).toBe('sign-in');
    expect(DELIVERY.neverStatic('/Editor')).toBe('editor');
    expect(DELIVERY.neverStatic('/mykomax-news')).toBeNull();
    expect(DELIVERY.neverStatic('/about/editor')).toBeNull();
  });

  it('are what a feature declares: a new policy needs no change in the server or the prerender', () => {
    const more = deliveryPolicy([...FEATURE_POLICIES, { feature: 'demo', dynamicParams: ['sort'], dynamicCookies: ['a.b'], neverStatic: (p) => p === '/demo' }]);
    expect(more.isDynamic(new URLSearchParams({ sort: 'asc' }), undefined)).toBe(true);
    expect(more.hasDynamicCookie('a.b=1')).toBe(true);
    // The cookie name is matched literally (a dot is not any character).
    expect(more.hasDynamicCookie('axb=1')).toBe(false);
    expect(more.neverStatic('/demo')).toBe('demo');
    expect(deliveryPolicy([]).isDynamic(new URLSearchParams({ page: '2' }), 'nextRelease=1')).toBe(false);
  });
});
