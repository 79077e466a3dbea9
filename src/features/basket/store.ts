import { atom, computed } from 'nanostores';
import { $measurement } from '../technical-data/measurement.ts';
import {
  addProduct, basketSlugs, BASKET_STORAGE_KEY, changeVariant, parseBasket, removeAllBySlug, removeByKey, removeClassification,
  serializeBasket, newKey, type Basket, type NewBasketProduct,
} from './basket.ts';
import { basketView, type BasketSummary } from './view.ts';
import { browserLogger } from '../platform/log.ts';
import { BASKET_CHANGED_EVENT } from './badge.ts';

const log = browserLogger('basket');

/** Client state of the comparison basket, shared by every island of the page. */

export const $basket = atom<Basket>([]);
export const $summaries = atom<Record<string, BasketSummary>>({});
/** Whether the basket was read from storage (islands render nothing basket-specific before). */
export const $basketReady = atom(false);
/** The last product added, for the notification; null once seen or when adding quietly. */
export const $lastAdded = atom<{ id: number; name: string } | null>(null);

const $config = atom({ language: 'en', prefix: '/en' });

/** The populated basket, rebuilt after every change of the basket, the data or the measurement system. */
export const $basketView = computed([$basket, $summaries, $measurement, $config], (basket, summaries, system, config) =>
  basketView(basket, summaries, system, config.prefix));

/** Tells the badge script (and the drawer island, which then hydrates) that the basket changed. */
function announce(basket: Basket): void {
  if (typeof document === 'undefined') return;
  const count = basket.reduce((n, g) => n + g.products.length, 0);
  document.dispatchEvent(new CustomEvent(BASKET_CHANGED_EVENT, { detail: { count } }));
}

function save(basket: Basket): void {
  $basket.set(basket);
  announce(basket);
  try {
    localStorage.setItem(BASKET_STORAGE_KEY, serializeBasket(basket));
  } catch {
    // Storage full or blocked: the basket lives on for this page.
  }
  void loadMissingSummaries();
}

let loaded = false;

/**
 * Reads the basket from storage once per page (the basket exists only on the public main site,
 * so only its islands call this). Unreadable storage is discarded, never fatal.
 */
export function loadBasket(config: { language: string; prefix: string }): void {
  $config.set(config);
  if (loaded || typeof window === 'undefined') return;
  loaded = true;
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(BASKET_STORAGE_KEY);
  } catch {
    raw = null;
  }
  const basket = parseBasket(raw);
  if (raw !== null && basket.length === 0) {
    try { localStorage.removeItem(BASKET_STORAGE_KEY); } catch { /* blocked storage */ }
  }
  $basket.set(basket);
  $basketReady.set(true);
  // Another tab changed the basket.
  window.addEventListener('storage', (e) => {
    if (e.key === BASKET_STORAGE_KEY) {
      $basket.set(parseBasket(e.newValue));
      void loadMissingSummaries();
    }
  });
  void loadMissingSummaries();
}

const inFlight = new Set<string>();

/** Fetches the data of products the view lacks; products the catalogue no longer knows leave the basket. */
export async function loadMissingSummaries(): Promise<void> {
  const known = $summaries.get();
  const missing = basketSlugs($basket.get()).filter((s) => !known[s] && !inFlight.has(s));
  if (missing.length === 0) return;
  missing.forEach((s) => inFlight.add(s));
  const { language } = $config.get();
  try {
    const res = await fetch(`/api/catalogue/basket?${new URLSearchParams({ language, slugs: missing.join(',') })}`);
    if (!res.ok) throw new Error(`basket data: HTTP ${res.status}`);
    const body = (await res.json()) as { products: BasketSummary[] };
    const next = { ...$summaries.get() };
    for (const p of body.products) next[p.slug] = p;
    $summaries.set(next);
    const gone = missing.filter((s) => !next[s]);
    if (gone.length) save(gone.reduce(removeAllBySlug, $basket.get()));
  } catch (err) {
    log.warn((err as Error).message);
  } finally {
    missing.forEach((s) => inFlight.delete(s));
  }
}

let notices = 0;

/** Adds a product; the notification shows it unless `notify` is false. */
export function addToBasket(p: NewBasketProduct & { name: string }, opts: { notify?: boolean; summary?: BasketSummary } = {}): void {
  if (opts.summary) $summaries.set({ ...$summaries.get(), [opts.summary.slug]: opts.summary });
  save(addProduct($basket.get(), p, newKey()));
  if (opts.notify !== false) $lastAdded.set({ id: ++notices, name: p.name });
}

export function removeFromBasket(key: string): void {
  save(removeByKey($basket.get(), key));
}

export function removeProductFromBasket(slug: string): void {
  save(removeAllBySlug($basket.get(), slug));
}

export function removeClassificationFromBasket(classificationSlug: string): void {
  save(removeClassification($basket.get(), classificationSlug));
}

export function changeBasketVariant(key: string, variantId: string | null): void {
  save(changeVariant($basket.get(), key, variantId));
}

/** Replaces the whole basket (a shared comparison link); no notification. */
export function replaceBasket(basket: Basket): void {
  save(basket);
}

export function dismissNotice(): void {
  $lastAdded.set(null);
}
