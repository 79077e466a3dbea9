import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BASKET_STORAGE_KEY, parseBasket } from './basket.ts';
import { BASKET_CHANGED_EVENT } from './badge.ts';

/** A minimal browser for the store: localStorage, window events and fetch. */
function browser(stored: Record<string, string> = {}, opts: { throwing?: boolean } = {}) {
  const data = new Map(Object.entries(stored));
  const storage = {
    getItem: (k: string) => { if (opts.throwing) throw new Error('SecurityError'); return data.get(k) ?? null; },
    setItem: (k: string, v: string) => { if (opts.throwing) throw new Error('QuotaExceededError'); data.set(k, v); },
    removeItem: (k: string) => { data.delete(k); },
  };
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('window', { addEventListener: () => {} });
  const doc = Object.assign(new EventTarget(), { cookie: '' });
  vi.stubGlobal('document', doc);
  const fetchMock = vi.fn(async (url: string) => {
    const slugs = new URL(url, 'http://x').searchParams.get('slugs')!.split(',');
    const products = slugs.filter((s) => s !== 'gone').map((s) => ({ slug: s, name: s.toUpperCase(), route: `/products/c/${s}`, imageUrl: null, classification: { slug: 'c', name: 'C' }, variants: [] }));
    return new Response(JSON.stringify({ products }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { data, fetchMock, document: doc };
}

async function freshStore() {
  vi.resetModules();
  return import('./store.ts');
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => vi.unstubAllGlobals());

describe('basket store', () => {
  it('discards unreadable storage and starts empty', async () => {
    const { data } = browser({ [BASKET_STORAGE_KEY]: '{broken' });
    const s = await freshStore();
    s.loadBasket({ language: 'en', prefix: '/en' });
    expect(s.$basket.get()).toEqual([]);
    expect(data.has(BASKET_STORAGE_KEY)).toBe(false);
  });

  it('survives storage that throws', async () => {
    browser({}, { throwing: true });
    const s = await freshStore();
    s.loadBasket({ language: 'en', prefix: '/en' });
    s.addToBasket({ slug: 'kappa-310', variantId: null, classificationSlug: 'c', name: 'Kappa 310' });
    expect(s.$basket.get()[0]!.products[0]!.slug).toBe('kappa-310');
  });

  it('saves every change under one key and rebuilds the view', async () => {
    const { data } = browser();
    const s = await freshStore();
    s.loadBasket({ language: 'en', prefix: '/en' });
    s.addToBasket({ slug: 'kappa-310', variantId: null, classificationSlug: 'c', name: 'Kappa 310' });
    s.addToBasket({ slug: 'alpha-550', variantId: null, classificationSlug: 'd', name: 'Alpha 550' });
    expect([...data.keys()]).toEqual([BASKET_STORAGE_KEY]);
    expect(parseBasket(data.get(BASKET_STORAGE_KEY)).map((g) => g.slug)).toEqual(['c', 'd']);
    await vi.waitFor(() => expect(s.$basketView.get()[0]!.products[0]!.name).toBe('KAPPA-310'));
    s.removeClassificationFromBasket('c');
    expect(parseBasket(data.get(BASKET_STORAGE_KEY)).map((g) => g.slug)).toEqual(['d']);
  });

  it('announces the number of products after every change (the badge script and the drawer island listen)', async () => {
    const { document } = browser();
    const counts: number[] = [];
    document.addEventListener(BASKET_CHANGED_EVENT, (e) => counts.push((e as CustomEvent<{ count: number }>).detail.count));
    const s = await freshStore();
    s.loadBasket({ language: 'en', prefix: '/en' });
    s.addToBasket({ slug: 'kappa-310', variantId: null, classificationSlug: 'c', name: 'Kappa 310' });
    s.addToBasket({ slug: 'alpha-550', variantId: null, classificationSlug: 'd', name: 'Alpha 550' });
    s.removeProductFromBasket('kappa-310');
    expect(counts).toEqual([1, 2, 1]);
  });

  it('notifies the last added product unless told not to', async () => {
    browser();
    const s = await freshStore();
    s.loadBasket({ language: 'en', prefix: '/en' });
    s.addToBasket({ slug: 'kappa-310', variantId: null, classificationSlug: 'c', name: 'Kappa 310' });
    expect(s.$lastAdded.get()?.name).toBe('Kappa 310');
    s.dismissNotice();
    s.addToBasket({ slug: 'kappa-320', variantId: null, classificationSlug: 'c', name: 'Kappa 320' }, { notify: false });
    expect(s.$lastAdded.get()).toBeNull();
  });

  it('drops products the catalogue no longer knows', async () => {
    const { fetchMock } = browser();
    const s = await freshStore();
    s.loadBasket({ language: 'de', prefix: '/de' });
    s.addToBasket({ slug: 'gone', variantId: null, classificationSlug: 'c', name: 'Gone' }, { notify: false });
    await vi.waitFor(() => expect(s.$basket.get()).toEqual([]));
    expect(fetchMock.mock.calls[0]![0]).toContain('language=de');
  });
});
