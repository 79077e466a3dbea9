/** Dispatched on an island element (or set as an attribute) to hydrate a `client:interaction` island now. */
export const HYDRATE_EVENT = 'island:hydrate';
/** Set by a script that may run before the directive started: the directive then hydrates at once. */
export const HYDRATE_ATTRIBUTE = 'data-hydrate';
/** Set by the directive when it starts hydrating an island (from then on it holds the island's clicks itself). */
export const HYDRATING_ATTRIBUTE = 'data-hydrating';
/**
 * Where the bootstrap (./bootstrap.ts) keeps the clicks it held back for an island before Astro's
 * island runtime arrived: `self[HELD_CLICKS]`, a map island → [target, click]; the directive
 * takes them over when it starts and replays them once the island is live.
 */
export const HELD_CLICKS = '__kmxHeld';

/** Hydrates a `client:interaction` island without waiting for an interaction (see ./directive.ts). */
export function wakeIsland(island: Element | null): void {
  if (!island || island.hasAttribute(HYDRATE_ATTRIBUTE)) return;
  island.setAttribute(HYDRATE_ATTRIBUTE, '');
  island.dispatchEvent(new Event(HYDRATE_EVENT));
}

/** Set by the loader a built page inlines in place of Astro's island runtime (./runtime.ts): imports the runtime module once. */
export const RUNTIME_LOADER = '__kmxLoad';
/** Set by the runtime module (./runtime-entry.ts): the full directive, which the inlined bootstrap hands islands to. */
export const FULL_DIRECTIVE = '__kmxDirective';
