/**
 * Who may see what: page protection as the site enforces it. The content hub only stores each
 * page's own protection (spec §3 Page: 0 none, 1 password, 2 CIAM role); a page below a
 * protected page is protected too, and a file is as private as the pages that link it.
 */

export type Protection = 0 | 1 | 2;

/**
 * Page ids whose protection the caller has passed (a password grant or a CIAM role for that
 * page). An anonymous visitor holds none: pass {@link NO_GRANTS}.
 */
export type Grants = ReadonlySet<string>;

export const NO_GRANTS: Grants = new Set<string>();

/** One page (or entry) of a parent chain. */
export interface AccessNode {
  id: string;
  protection: number;
  isPublished: boolean;
}

/** An entry with its parent chain, nearest parent first. */
export interface EntryAccess extends AccessNode {
  parents: readonly AccessNode[];
}

function level(n: number): Protection {
  return n === 1 || n === 2 ? n : n > 2 ? 2 : 0;
}

/**
 * The protection a visitor meets: the entry's own, else that of its nearest protected ancestor.
 * @example effectiveProtection({ id: 'c', protection: 0, isPublished: true, parents: [{ id: 'p', protection: 1, isPublished: true }] }) // 1
 */
export function effectiveProtection(entry: EntryAccess): Protection {
  if (entry.protection > 0) return level(entry.protection);
  for (const p of entry.parents) if (p.protection > 0) return level(p.protection);
  return 0;
}

/** Ids of every protected page in the chain (the entry first): a caller needs a grant for each. */
export function protectingPages(entry: EntryAccess): string[] {
  return [entry, ...entry.parents].filter((n) => n.protection > 0).map((n) => n.id);
}

/** Published and neither the entry nor any ancestor protected: anyone may see it. */
export function isVisitorVisible(entry: EntryAccess): boolean {
  return entry.isPublished && effectiveProtection(entry) === 0;
}

/** Published, and the caller holds a grant for every protected page in its chain. */
export function isGranted(entry: EntryAccess, grants: Grants): boolean {
  return entry.isPublished && protectingPages(entry).every((id) => grants.has(id));
}

/**
 * Whether a file may be served, and how: 'public' when at least one visitor-visible entry links
 * it (it may then be cached publicly), 'granted' when only entries the caller holds grants for
 * link it (a private answer), null otherwise (a file linked only from protected or unpublished
 * pages, or from nothing at all, does not exist for the caller).
 */
export function fileAccess(usedBy: readonly EntryAccess[], grants: Grants): 'public' | 'granted' | null {
  if (usedBy.some(isVisitorVisible)) return 'public';
  if (usedBy.some((u) => isGranted(u, grants))) return 'granted';
  return null;
}

/** A protected page of a chain: its id, its own level and how far up the chain it sits (0 = the entry itself). */
export interface Protector {
  id: string;
  protection: 1 | 2;
  /** 0 for the entry itself, 1 for its parent, 2 for the grandparent … */
  depth: number;
}

/** What a visitor meets at an entry (see {@link checkAccess}). */
export type AccessCheck =
  /** Neither the entry nor an ancestor is protected, or the caller holds every grant: show it. */
  | { kind: 'open' }
  /** A protected page of the chain whose grant the caller lacks: ask for its password or role. */
  | { kind: 'locked'; by: Protector }
  /** Not published: nobody sees it here. */
  | { kind: 'unpublished' };

/**
 * The protection check of a page request, pure: open when every protected page of the chain is
 * granted, else locked by the OUTERMOST protected page the caller has no grant for (its grant,
 * scoped to its path, also covers the pages below it; a page protected again below it asks next).
 * @example checkAccess(entry('child', 0, [node('parent', 1)]), new Set()) // { kind: 'locked', by: { id: 'parent', protection: 1, depth: 1 } }
 * @example checkAccess(entry('child', 0, [node('parent', 1)]), new Set(['parent'])) // { kind: 'open' }
 */
export function checkAccess(entry: EntryAccess, grants: Grants): AccessCheck {
  if (!entry.isPublished) return { kind: 'unpublished' };
  const chain = [entry, ...entry.parents];
  for (let depth = chain.length - 1; depth >= 0; depth--) {
    const n = chain[depth]!;
    if (n.protection > 0 && !grants.has(n.id)) return { kind: 'locked', by: { id: n.id, protection: level(n.protection) as 1 | 2, depth } };
  }
  return { kind: 'open' };
}

/**
 * The site-relative path of the ancestor `depth` levels up from a page path (0 = the page itself):
 * a page's path is the chain of its ancestors' slugs, so the ancestor's path is a prefix of it.
 * @example ancestorPath('/events/internal-2025/x4m9q2tz', 1) // '/events/internal-2025'
 */
export function ancestorPath(pagePath: string, depth: number): string {
  const segments = pagePath.split('/').filter(Boolean);
  return `/${segments.slice(0, Math.max(0, segments.length - depth)).join('/')}`.replace(/^\/$/, '');
}
