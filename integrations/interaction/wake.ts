/** Dispatched on an island element (or set as an attribute) to hydrate a `client:interaction` island now. */
export const HYDRATE_EVENT = 'island:hydrate';
/** Set by a script that may run before the directive started: the directive then hydrates at once. */
export const HYDRATE_ATTRIBUTE = 'data-hydrate';

/** Hydrates a `client:interaction` island without waiting for an interaction (see ./directive.ts). */
export function wakeIsland(island: Element | null): void {
  if (!island || island.hasAttribute(HYDRATE_ATTRIBUTE)) return;
  island.setAttribute(HYDRATE_ATTRIBUTE, '');
  island.dispatchEvent(new Event(HYDRATE_EVENT));
}
