/**
 * The part of `client:interaction` a built page inlines (Astro's directive script), in place of
 * Astro's island runtime: until a visitor interacts, a page needs neither. The runtime (the
 * `astro-island` element) and the full directive (./directive.ts) are one module file
 * (./runtime.ts builds it), imported by the loader Astro inlines where its runtime was
 * (`self[RUNTIME_LOADER]`, ./runtime.ts) at the first of:
 * - a `pointerdown`, `focusin`, `keydown` or `touchstart` inside a `client:interaction` island
 *   (the island is marked with `data-hydrate`, so the directive hydrates it as soon as it runs);
 * - an island woken by a script (`wakeIsland`, ./wake.ts), scrolled into view (`visible`) or
 *   named by a document event (`on`);
 * - an island of another directive on the page (the loader sees those itself).
 * A click inside a marked island before the directive runs is held back (its default and the
 * page's handlers would act on a dead control) and handed to the directive, which replays it once
 * the island is live (`self[HELD_CLICKS]`). Keystrokes reach the server-rendered controls natively.
 *
 * Only for `astro build`: `astro dev` inlines Astro's runtime and ./directive.ts as they are.
 */
import { FULL_DIRECTIVE, HELD_CLICKS, HYDRATE_ATTRIBUTE, HYDRATE_EVENT, HYDRATING_ATTRIBUTE, RUNTIME_LOADER } from './wake.ts';

type Load = () => Promise<() => Promise<void>>;
type Directive = (load: Load, options: { name: string; value: unknown }, el: HTMLElement) => void;

const EVENTS = ['pointerdown', 'focusin', 'keydown', 'touchstart'];
const ISLAND = 'astro-island[client="interaction"]';

const g = self as unknown as Record<string, unknown>;
const held = (g[HELD_CLICKS] ??= new Map()) as Map<EventTarget, [EventTarget, Event][]>;
const loadRuntime = () => (g[RUNTIME_LOADER] as (() => void) | undefined)?.();

const islandOf = (target: EventTarget | null): Element | null | undefined => (target as Element | null)?.closest?.(ISLAND);

function wake(el: Element): void {
  el.setAttribute(HYDRATE_ATTRIBUTE, '');
  loadRuntime();
}

for (const type of EVENTS) {
  document.addEventListener(type, (e) => {
    const el = islandOf(e.target);
    if (el && !el.hasAttribute(HYDRATING_ATTRIBUTE)) wake(el);
  }, true); // (document-level touch listeners are passive anyway)
}
document.addEventListener('click', (e) => {
  const el = islandOf(e.target);
  if (!el || !el.hasAttribute(HYDRATE_ATTRIBUTE) || el.hasAttribute(HYDRATING_ATTRIBUTE)) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  held.set(el, [...(held.get(el) ?? []), [e.target!, e]]);
}, true);
// wakeIsland's event does not bubble; a capturing listener on the document still sees it.
document.addEventListener(HYDRATE_EVENT, (e) => {
  if (islandOf(e.target)) loadRuntime();
}, true);

/** The islands' own options, once the document is parsed (this script runs inline, while it is): `visible`, `on`, or already woken. */
function scan(): void {
  const io = new IntersectionObserver((entries, observer) => {
    for (const entry of entries) {
      const el = islandOf(entry.target);
      if (entry.isIntersecting && el) {
        // Once the runtime comes, the directive watches the other islands itself.
        observer.disconnect();
        wake(el);
      }
    }
  });
  for (const el of document.querySelectorAll(ISLAND)) {
    if (el.hasAttribute(HYDRATE_ATTRIBUTE)) loadRuntime();
    // Astro writes `opts` on every island: {"name":…,"value":<the directive's value>}.
    const value = (JSON.parse(el.getAttribute('opts')!) as { value?: { visible?: boolean; on?: string } }).value;
    if (value?.on) document.addEventListener(value.on, () => wake(el), { once: true });
    if (value?.visible) for (const child of el.children) io.observe(child);
  }
}
document.addEventListener('DOMContentLoaded', scan);

/** What Astro registers as `Astro.interaction`: the full directive, which arrives with the runtime. */
const directive: Directive = (load, options, el) => (g[FULL_DIRECTIVE] as Directive)(load, options, el);
export default directive;
