import { wakeIsland } from '../../../integrations/interaction/wake.ts';
import { BASKET_STORAGE_KEY } from './storage-key.ts';

/**
 * The basket's floating button, server-rendered outside the drawer island: a few lines of plain
 * script fill its count from the stored basket, so no framework loads for an empty basket. The
 * drawer island hydrates as soon as there is something in it (or when the basket changes).
 */

/** Dispatched on `document` by the store after every change of the basket; `detail.count` is the number of products. */
export const BASKET_CHANGED_EVENT = 'basket:changed';

/**
 * The number of products in a stored basket (`serializeBasket`'s `{ version: 1, groups }`), without
 * the store's full validation: 0 for anything unreadable (the store discards it when it loads).
 */
export function storedCount(raw: string | null): number {
  if (!raw) return 0;
  try {
    const stored = JSON.parse(raw) as { version?: unknown; groups?: unknown } | null;
    if (stored?.version !== 1 || !Array.isArray(stored.groups)) return 0;
    return stored.groups.reduce((n: number, g: { products?: unknown } | null) => n + (Array.isArray(g?.products) ? g.products.length : 0), 0);
  } catch {
    return 0;
  }
}

/** Shows the button with its count (label template from `data-label`, `{{count}}` filled), or hides it. */
export function renderBadge(toggle: HTMLElement, count: number): void {
  toggle.hidden = count === 0;
  const label = toggle.querySelector<HTMLElement>('[data-basket-label]');
  if (label) label.textContent = (toggle.dataset.label ?? '{{count}}').replace(/\{\{\s*count\s*\}\}/g, String(count));
}

function readStored(): string | null {
  try {
    return localStorage.getItem(BASKET_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Wires the badge of the page (the comparison page has none) and wakes the basket's islands when the basket holds something. */
export function initBadge(): void {
  const root = document.querySelector<HTMLElement>('[data-basket]');
  if (!root) return;
  const toggle = root.querySelector<HTMLElement>('[data-basket-toggle]');
  // The drawer, and the add buttons, whose state depends on what is stored.
  const islands = document.querySelectorAll('[data-basket] > astro-island, [data-basket-island] > astro-island');
  const update = (count: number) => {
    if (toggle) renderBadge(toggle, count);
    if (count > 0) islands.forEach(wakeIsland);
  };
  update(storedCount(readStored()));
  document.addEventListener(BASKET_CHANGED_EVENT, (e) => update((e as CustomEvent<{ count: number }>).detail.count));
  window.addEventListener('storage', (e) => { if (e.key === BASKET_STORAGE_KEY) update(storedCount(e.newValue)); });
  toggle?.addEventListener('click', () => root.querySelector<HTMLDialogElement>('dialog')?.showModal());
}
