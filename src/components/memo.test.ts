import { describe, expect, it, vi } from 'vitest';
import { identityOf, memoised, memoKey } from './memo.ts';

describe('chrome memo', () => {
  it('has no key outside the prerender, so the part renders as usual', () => {
    expect(memoKey(undefined, 'footer', ['site-main', 'en'])).toBeNull();
    expect(memoKey('', 'footer', ['site-main', 'en'])).toBeNull();
  });

  it('renders a part once per key and release, and again for another key', async () => {
    const render = vi.fn(async () => `<footer>${render.mock.calls.length}</footer>`);
    const en = memoKey('release-a', 'footer', ['site-main', 'en'])!;
    const de = memoKey('release-a', 'footer', ['site-main', 'de'])!;
    expect(await memoised(en, render)).toBe('<footer>1</footer>');
    expect(await memoised(en, render)).toBe('<footer>1</footer>');
    expect(await memoised(de, render)).toBe('<footer>2</footer>');
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('pages rendering at the same time share the one render', async () => {
    const render = vi.fn(async () => 'bar');
    const key = memoKey('release-b', 'header-bar', [''])!;
    expect(await Promise.all([memoised(key, render), memoised(key, render), memoised(key, render)])).toEqual(['bar', 'bar', 'bar']);
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('a new release never meets a fragment of the old one', async () => {
    const key = (release: string) => memoKey(release, 'footer', ['site-main', 'en'])!;
    expect(await memoised(key('release-c'), async () => 'old navigation')).toBe('old navigation');
    expect(await memoised(key('release-d'), async () => 'new navigation')).toBe('new navigation');
    // Back on the old release id (a later run reusing nothing): rendered anew, not the new one's.
    expect(await memoised(key('release-c'), async () => 'rendered again')).toBe('rendered again');
  });

  it('a failed render is not kept: the next page renders the part itself', async () => {
    const key = memoKey('release-e', 'contact-panel', [])!;
    await expect(memoised(key, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(await memoised(key, async () => 'panel')).toBe('panel');
  });

  it('tells chromes apart by content, computing each object once', () => {
    const a = { topItems: [{ id: '1', title: 'About us' }] };
    const same = structuredClone(a);
    const other = { topItems: [{ id: '1', title: 'Über uns' }] };
    expect(identityOf(a)).toBe(identityOf(same));
    expect(identityOf(a)).not.toBe(identityOf(other));
    expect(identityOf(null)).toBe('-');
    const spy = vi.spyOn(JSON, 'stringify');
    identityOf(a);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});
