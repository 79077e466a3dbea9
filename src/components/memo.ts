import { createHash } from 'node:crypto';

/**
 * Rendered fragments of the site chrome, kept while the prerender writes one release.
 *
 * The footer, the header's navigation bar, the user menu and the contact panel are the same
 * HTML on every page of a site × locale (the bar once more for each page it marks as current),
 * yet a full prerender rendered them 10,000 times: about half of a page's render. `<Memo>`
 * renders such a part once and the other pages of the same release reuse its HTML.
 *
 * Only the prerender memoises (an on-demand page, a draft preview or the editor's view always
 * renders everything), and only parts without islands: an island's HTML carries per-page
 * counters (React's id prefix) and the page's first one carries the island runtime, so a reused
 * copy could clash with the page's own islands. A part's scripts are fine: each appears once.
 *
 * The cache holds one release: a new release id empties it, so an edited navigation never meets
 * an old fragment, and a long-lived prerender thread never grows.
 */
let release: string | null = null;
const fragments = new Map<string, Promise<string>>();

/**
 * The cache key of a part in the release being prerendered, or null (render it as usual) outside
 * the prerender. `vary` names everything the part's HTML depends on besides the release.
 */
export function memoKey(releaseId: string | null | undefined, part: string, vary: readonly (string | number | boolean | null | undefined)[]): MemoKey | null {
  if (!releaseId) return null;
  return { release: releaseId, key: JSON.stringify([part, ...vary]) };
}

export interface MemoKey {
  release: string;
  key: string;
}

/** The part's HTML: rendered by `render` the first time its key is asked for, then reused. */
export function memoised({ release: releaseId, key }: MemoKey, render: () => Promise<string>): Promise<string> {
  if (releaseId !== release) {
    release = releaseId;
    fragments.clear();
  }
  let html = fragments.get(key);
  if (!html) {
    html = render();
    fragments.set(key, html);
    // A failed render is not kept: the next page tries again (and fails on its own).
    html.catch(() => fragments.delete(key));
  }
  return html;
}

const identities = new WeakMap<object, string>();

/**
 * A short digest of a record's content, computed once per object: the chrome of a site × locale
 * is one object shared by its routes (a render thread gets it once per chunk of routes), so a
 * route whose chrome differs never reuses another's fragment.
 */
export function identityOf(value: object | null | undefined): string {
  if (!value) return '-';
  let id = identities.get(value);
  if (!id) {
    id = createHash('sha1').update(JSON.stringify(value)).digest('base64url');
    identities.set(value, id);
  }
  return id;
}
