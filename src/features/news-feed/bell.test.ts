import { describe, expect, it } from 'vitest';
import { initBell } from './bell.ts';
import { NEWS_FEED_OPEN_EVENT } from '../platform/actions.ts';
import { LAST_READ_KEY } from './unread.ts';

/** The bell's server HTML as far as the script touches it: attributes and the two unread parts. */
function fakeBell() {
  const attrs = new Map([['aria-controls', 'news-feed'], ['aria-expanded', 'false']]);
  const unreadParts = [{ hidden: true }, { hidden: true }];
  const bell = {
    getAttribute: (n: string) => attrs.get(n) ?? null,
    setAttribute: (n: string, v: string) => { attrs.set(n, v); },
    querySelectorAll: () => unreadParts,
  } as unknown as HTMLElement;
  return { bell, attrs, unread: () => unreadParts.every((p) => !p.hidden) };
}

function env(firstId: string | null, lastRead: string | null, ok = true) {
  const doc = new EventTarget();
  const panel = new EventTarget();
  const win = new EventTarget();
  return {
    doc, panel, win,
    env: {
      fetch: (async () => new Response(JSON.stringify({ items: firstId ? [{ id: firstId }] : [] }), { status: ok ? 200 : 500 })) as typeof fetch,
      storage: { getItem: (k: string) => (k === LAST_READ_KEY ? lastRead : null) },
      document: Object.assign(doc, { getElementById: (id: string) => (id === 'news-feed' ? panel : null) }) as unknown as Document,
      window: win as unknown as Window,
    },
  };
}

describe('news bell script', () => {
  it('marks unread news when the newest item is not the last read one', async () => {
    const b = fakeBell();
    await initBell(b.bell, 'en', env('n2', 'n1').env);
    expect(b.unread()).toBe(true);
  });

  it('shows no marker when the newest item was read, the feed is empty or fails', async () => {
    for (const [first, read, ok] of [['n2', 'n2', true], [null, null, true], ['n2', null, false]] as const) {
      const b = fakeBell();
      await initBell(b.bell, 'en', env(first, read, ok).env);
      expect(b.unread(), `${first} ${read} ${ok}`).toBe(false);
    }
  });

  it('follows the panel: expanded while open, the marker gone once opened', async () => {
    const b = fakeBell();
    const e = env('n2', null);
    await initBell(b.bell, 'en', e.env);
    e.doc.dispatchEvent(new Event(NEWS_FEED_OPEN_EVENT));
    expect(b.attrs.get('aria-expanded')).toBe('true');
    expect(b.unread()).toBe(false);
    e.panel.dispatchEvent(new Event('close'));
    expect(b.attrs.get('aria-expanded')).toBe('false');
  });
});
