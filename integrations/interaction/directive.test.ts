import { describe, expect, it, vi } from 'vitest';
import { interactionDirective, type DirectiveEnv, type IslandElement } from './directive.ts';
import { HYDRATE_ATTRIBUTE, HYDRATING_ATTRIBUTE, wakeIsland } from './wake.ts';

/** An island element: an event target with attributes and one child. */
class FakeIsland extends EventTarget implements IslandElement {
  attributes = new Set<string>();
  firstElementChild = new EventTarget();
  children: Element[] = [];
  hasAttribute(name: string): boolean { return this.attributes.has(name); }
  setAttribute(name: string): void { this.attributes.add(name); }
}

/** A load() whose hydration the test completes by hand, recording the order of what happens. */
function setup(value: unknown = '', attrs: string[] = []) {
  const el = new FakeIsland();
  for (const a of attrs) el.setAttribute(a);
  const log: string[] = [];
  let finish!: () => void;
  const hydrated = new Promise<void>((resolve) => { finish = resolve; });
  const load = vi.fn(async () => {
    log.push('load');
    return async () => { await hydrated; log.push('hydrated'); };
  });
  const env: DirectiveEnv = {
    document: new EventTarget(),
    afterHydration: () => { log.push('finish'); },
    replayClick: (target, original) => log.push(`replay ${(target as { id?: string }).id ?? '?'} ${original.type}`),
  };
  interactionDirective(load, { value }, el, env);
  return { el, env, load, log, finish };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('client:interaction', () => {
  it('loads nothing until the first interaction inside the island, then loads once', async () => {
    const { el, load } = setup();
    el.dispatchEvent(new Event('pointerover'));
    el.dispatchEvent(new Event('click'));
    await flush();
    expect(load).not.toHaveBeenCalled();
    el.dispatchEvent(new Event('focusin'));
    el.dispatchEvent(new Event('keydown'));
    el.dispatchEvent(new Event('pointerdown'));
    await flush();
    expect(load).toHaveBeenCalledTimes(1);
  });

  for (const type of ['pointerdown', 'focusin', 'keydown', 'touchstart']) {
    it(`hydrates on ${type}`, async () => {
      const { el, load } = setup();
      el.dispatchEvent(new Event(type));
      await flush();
      expect(load).toHaveBeenCalledTimes(1);
    });
  }

  it('holds a click that comes before the island is live and replays it on the same element afterwards', async () => {
    const { el, log, finish } = setup();
    el.dispatchEvent(new Event('pointerdown'));
    const button = Object.assign(new EventTarget(), { id: 'bell' });
    const later = vi.fn();
    el.addEventListener('click', later);
    // The fake has no tree: the click reaches the island as if it bubbled up from the button.
    el.dispatchEvent(Object.defineProperty(new Event('click', { cancelable: true }), 'target', { value: button }));
    await flush();
    expect(later).not.toHaveBeenCalled();
    expect(log).toEqual(['load']);
    finish();
    await flush();
    expect(log).toEqual(['load', 'hydrated', 'finish', 'replay bell click']);
    // Once live, clicks pass untouched.
    el.dispatchEvent(new Event('click'));
    expect(later).toHaveBeenCalledTimes(1);
  });

  it('cancels the held click, so neither its default nor the page\'s handlers act on the dead control', async () => {
    const { el } = setup();
    el.dispatchEvent(new Event('pointerdown'));
    const click = new Event('click', { cancelable: true });
    el.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
  });

  it('takes over the clicks the bootstrap held before it ran, replays them after its own, and marks the island as hydrating', async () => {
    const el = new FakeIsland();
    el.setAttribute(HYDRATE_ATTRIBUTE);
    const early = Object.assign(new EventTarget(), { id: 'early' });
    const heldBefore = new Map<EventTarget, [EventTarget, Event][]>([[el, [[early, new Event('click')]]]]);
    const log: string[] = [];
    let finish!: () => void;
    const hydrated = new Promise<void>((resolve) => { finish = resolve; });
    interactionDirective(async () => async () => { await hydrated; }, { value: '' }, el, {
      document: new EventTarget(), heldBefore, afterHydration: () => undefined,
      replayClick: (target) => log.push(`replay ${(target as { id?: string }).id}`),
    });
    expect(el.hasAttribute(HYDRATING_ATTRIBUTE)).toBe(true);
    expect(heldBefore.has(el)).toBe(false);
    const later = Object.assign(new EventTarget(), { id: 'later' });
    el.dispatchEvent(Object.defineProperty(new Event('click', { cancelable: true }), 'target', { value: later }));
    finish();
    await flush();
    expect(log).toEqual(['replay early', 'replay later']);
  });

  it('also hydrates on the document event named by `on`', async () => {
    const { env, load } = setup({ on: 'news-feed:open' });
    env.document.dispatchEvent(new Event('other'));
    await flush();
    expect(load).not.toHaveBeenCalled();
    env.document.dispatchEvent(new Event('news-feed:open'));
    await flush();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('can be woken by a script, before or after the directive started', async () => {
    const early = setup('', [HYDRATE_ATTRIBUTE]);
    await flush();
    expect(early.load).toHaveBeenCalledTimes(1);

    const late = setup();
    wakeIsland(late.el as unknown as Element);
    await flush();
    expect(late.load).toHaveBeenCalledTimes(1);
  });
});
