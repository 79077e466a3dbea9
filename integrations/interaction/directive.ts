/**
 * `client:interaction`: hydrates an island on the visitor's first interaction inside it, and loses
 * nothing of that interaction:
 * - the first `pointerdown`, `focusin`, `keydown` or `touchstart` inside the island starts loading;
 * - keystrokes go on reaching the server-rendered controls natively meanwhile (an uncontrolled
 *   input keeps what was typed; the island reads the DOM value when it mounts);
 * - a click that arrives before the island is live is held back (its default and the page's own
 *   handlers would act on a dead control) and dispatched again on the same element once the
 *   island has hydrated, so a button or link works at the first click.
 *
 * Options (`client:interaction={{ visible: true, on: 'news-feed:open' }}`): `visible` also
 * hydrates when the island scrolls into view; `on` names a document event that also hydrates it.
 * Code outside the island may wake it with `wakeIsland(el)` (./wake.ts).
 *
 * Astro bundles this file into the page (its hashes are part of the CSP), so it imports nothing
 * heavy and touches no framework.
 */

import { HELD_CLICKS, HYDRATE_ATTRIBUTE, HYDRATE_EVENT, HYDRATING_ATTRIBUTE } from './wake.ts';

type DirectiveHydrate = () => Promise<void>;
type DirectiveLoad = () => Promise<DirectiveHydrate>;
export interface InteractionOptions {
  visible?: boolean;
  on?: string;
}

/** Events that count as the visitor's first interaction inside the island. */
export const INTERACTION_EVENTS = ['pointerdown', 'focusin', 'keydown', 'touchstart'] as const;
export { HYDRATE_ATTRIBUTE, HYDRATE_EVENT } from './wake.ts';

/** The smallest element surface the directive needs (lets it run against fakes in unit tests). */
export interface IslandElement extends EventTarget {
  hasAttribute(name: string): boolean;
  setAttribute(name: string, value: string): void;
  readonly firstElementChild: EventTarget | null;
  readonly children: ArrayLike<Element> | Iterable<Element>;
}

/** The part of `window`/`document` the directive uses. */
export interface DirectiveEnv {
  document: EventTarget;
  IntersectionObserver?: typeof IntersectionObserver;
  /** Makes sure the framework has finished hydrating before held clicks are replayed. */
  afterHydration?: (el: IslandElement) => void | Promise<void>;
  /** Dispatches the held-back click again on its target. */
  replayClick?: (target: EventTarget, original: Event) => void;
  /** Clicks the bootstrap held back before this directive ran (./bootstrap.ts), per island. */
  heldBefore?: Map<EventTarget, [EventTarget, Event][]>;
}

function optionsOf(value: unknown): InteractionOptions {
  return typeof value === 'object' && value !== null ? (value as InteractionOptions) : {};
}

function defaultReplay(target: EventTarget, original: Event): void {
  if ('isConnected' in target && !(target as Node).isConnected) return;
  const m = original as MouseEvent;
  target.dispatchEvent(new MouseEvent('click', {
    bubbles: true, cancelable: true, composed: true, detail: m.detail, button: m.button,
    clientX: m.clientX, clientY: m.clientY, ctrlKey: m.ctrlKey, shiftKey: m.shiftKey, altKey: m.altKey, metaKey: m.metaKey,
  }));
}

/**
 * React hydrates an island in a transition, so it may still be dehydrated when `hydrate()`
 * resolves; a discrete event on a dehydrated root makes React finish hydrating synchronously. The
 * held click must not be that event: for a checkbox or radio the browser flips `checked` before
 * dispatching, React would record the flipped state while hydrating and see no change. So an
 * inert discrete event (`reset`, not bubbling, aimed at the island's first element, where no
 * component listens; a synthetic `reset` resets no form) completes the hydration first. React
 * looks for the root above the event's target, so the island element itself would not do.
 */
function finishHydration(el: IslandElement): void {
  el.firstElementChild?.dispatchEvent(new Event('reset'));
}

/** The directive against an explicit environment; the default export binds it to the browser. */
export function interactionDirective(load: DirectiveLoad, options: { value: unknown }, el: IslandElement, env: DirectiveEnv): void {
  const opts = optionsOf(options.value);
  const held: [EventTarget, Event][] = [];
  let started = false;
  let io: IntersectionObserver | null = null;

  const hold = (e: Event) => {
    if (!e.target) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    held.push([e.target, e]);
  };

  const start = async () => {
    if (started) return;
    started = true;
    // From here this directive holds the island's clicks; the bootstrap's held ones join them.
    el.setAttribute(HYDRATING_ATTRIBUTE, '');
    const before = env.heldBefore?.get(el);
    if (before) {
      held.push(...before.splice(0));
      env.heldBefore!.delete(el);
    }
    for (const type of INTERACTION_EVENTS) el.removeEventListener(type, start, { capture: true });
    el.removeEventListener(HYDRATE_EVENT, start);
    if (opts.on) env.document.removeEventListener(opts.on, start);
    io?.disconnect();
    el.addEventListener('click', hold, { capture: true });
    try {
      const hydrate = await load();
      await hydrate();
      await (env.afterHydration ?? finishHydration)(el);
    } finally {
      el.removeEventListener('click', hold, { capture: true });
      for (const [target, original] of held.splice(0)) (env.replayClick ?? defaultReplay)(target, original);
    }
  };

  if (el.hasAttribute(HYDRATE_ATTRIBUTE)) {
    void start();
    return;
  }
  for (const type of INTERACTION_EVENTS) el.addEventListener(type, start, { capture: true, passive: true });
  el.addEventListener(HYDRATE_EVENT, start);
  if (opts.on) env.document.addEventListener(opts.on, start);
  if (opts.visible && env.IntersectionObserver) {
    io = new env.IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void start();
    });
    for (const child of Array.from(el.children)) io.observe(child);
  }
}

export default function interaction(load: DirectiveLoad, options: { name: string; value: unknown }, el: HTMLElement): void {
  const heldBefore = (self as unknown as Record<string, Map<EventTarget, [EventTarget, Event][]> | undefined>)[HELD_CLICKS];
  interactionDirective(load, options, el, { document, IntersectionObserver: window.IntersectionObserver, heldBefore });
}
