import { describe, expect, it } from 'vitest';
import { ancestorPath, checkAccess, effectiveProtection, fileAccess, isVisitorVisible, NO_GRANTS, protectingPages, type AccessNode, type EntryAccess } from './access.ts';

const node = (id: string, protection = 0, isPublished = true): AccessNode => ({ id, protection, isPublished });
const entry = (id: string, protection = 0, parents: AccessNode[] = [], isPublished = true): EntryAccess => ({ id, protection, isPublished, parents });

describe('effectiveProtection', () => {
  it('is the page\'s own protection when it has one', () => {
    expect(effectiveProtection(entry('p', 1))).toBe(1);
    expect(effectiveProtection(entry('p', 2, [node('parent', 1)]))).toBe(2);
  });

  it('is inherited from the nearest protected ancestor', () => {
    expect(effectiveProtection(entry('child', 0, [node('parent', 1)]))).toBe(1);
    expect(effectiveProtection(entry('grandchild', 0, [node('child'), node('parent', 2), node('root', 1)]))).toBe(2);
  });

  it('is 0 when neither the page nor any ancestor is protected', () => {
    expect(effectiveProtection(entry('p', 0, [node('a'), node('b')]))).toBe(0);
  });
});

describe('protectingPages', () => {
  it('lists every protected page of the chain, the page first', () => {
    expect(protectingPages(entry('c', 2, [node('b'), node('a', 1)]))).toEqual(['c', 'a']);
    expect(protectingPages(entry('c'))).toEqual([]);
  });
});

describe('isVisitorVisible', () => {
  it('needs a published page without protection in its chain', () => {
    expect(isVisitorVisible(entry('p'))).toBe(true);
    expect(isVisitorVisible(entry('p', 0, [], false))).toBe(false);
    expect(isVisitorVisible(entry('p', 1))).toBe(false);
    expect(isVisitorVisible(entry('child', 0, [node('parent', 1)]))).toBe(false);
  });
});

describe('fileAccess', () => {
  const publicPage = entry('public');
  const protectedPage = entry('internal', 1);
  const childOfProtected = entry('token', 0, [node('internal', 1)]);
  const draft = entry('draft', 0, [], false);

  it('is public when a visitor-visible page links the file', () => {
    expect(fileAccess([publicPage], NO_GRANTS)).toBe('public');
  });

  it('stays public when a public and a protected page both link the file', () => {
    expect(fileAccess([protectedPage, publicPage], NO_GRANTS)).toBe('public');
    expect(fileAccess([childOfProtected, publicPage], new Set(['internal']))).toBe('public');
  });

  it('refuses a file linked only from protected pages, children of one or unpublished pages', () => {
    expect(fileAccess([protectedPage], NO_GRANTS)).toBeNull();
    expect(fileAccess([childOfProtected], NO_GRANTS)).toBeNull();
    expect(fileAccess([draft], NO_GRANTS)).toBeNull();
    expect(fileAccess([protectedPage, childOfProtected, draft], NO_GRANTS)).toBeNull();
  });

  it('refuses a file nothing links', () => {
    expect(fileAccess([], NO_GRANTS)).toBeNull();
  });

  it('grants a protected file privately with the protecting page\'s grant', () => {
    expect(fileAccess([protectedPage], new Set(['internal']))).toBe('granted');
    expect(fileAccess([childOfProtected], new Set(['internal']))).toBe('granted');
    // A grant for the child itself is not a grant for the page that protects it.
    expect(fileAccess([childOfProtected], new Set(['token']))).toBeNull();
    expect(fileAccess([protectedPage], new Set(['other']))).toBeNull();
  });

  it('needs a grant for every protected page of the chain', () => {
    const nested = entry('vip', 2, [node('internal', 1)]);
    expect(fileAccess([nested], new Set(['internal']))).toBeNull();
    expect(fileAccess([nested], new Set(['vip']))).toBeNull();
    expect(fileAccess([nested], new Set(['vip', 'internal']))).toBe('granted');
  });

  it('never grants a file of an unpublished page', () => {
    expect(fileAccess([entry('internal', 1, [], false)], new Set(['internal']))).toBeNull();
  });
});

describe('checkAccess', () => {
  it('opens a page nobody protects, without grants', () => {
    expect(checkAccess(entry('p', 0, [node('parent')]), NO_GRANTS)).toEqual({ kind: 'open' });
  });

  it('locks a protected page without its grant and opens it with it', () => {
    expect(checkAccess(entry('p', 1), NO_GRANTS)).toEqual({ kind: 'locked', by: { id: 'p', protection: 1, depth: 0 } });
    expect(checkAccess(entry('p', 2), NO_GRANTS)).toEqual({ kind: 'locked', by: { id: 'p', protection: 2, depth: 0 } });
    expect(checkAccess(entry('p', 1), new Set(['p']))).toEqual({ kind: 'open' });
  });

  it('locks a child by its protected ancestor, whose grant opens it', () => {
    const child = entry('token', 0, [node('internal-2025', 1), node('events')]);
    expect(checkAccess(child, NO_GRANTS)).toEqual({ kind: 'locked', by: { id: 'internal-2025', protection: 1, depth: 1 } });
    expect(checkAccess(child, new Set(['internal-2025']))).toEqual({ kind: 'open' });
  });

  it('does not open a child with its own id or another page\'s grant', () => {
    const child = entry('token', 0, [node('internal-2025', 1)]);
    expect(checkAccess(child, new Set(['token', 'other']))).toMatchObject({ kind: 'locked', by: { id: 'internal-2025' } });
  });

  it('asks for the outermost missing grant first, then the inner one', () => {
    const inner = entry('inner', 2, [node('middle'), node('outer', 1)]);
    expect(checkAccess(inner, NO_GRANTS)).toEqual({ kind: 'locked', by: { id: 'outer', protection: 1, depth: 2 } });
    expect(checkAccess(inner, new Set(['outer']))).toEqual({ kind: 'locked', by: { id: 'inner', protection: 2, depth: 0 } });
    expect(checkAccess(inner, new Set(['outer', 'inner']))).toEqual({ kind: 'open' });
  });

  it('treats an unknown protection level above 2 as a role protection', () => {
    expect(checkAccess(entry('p', 7), NO_GRANTS)).toMatchObject({ by: { protection: 2 } });
  });

  it('never opens an unpublished entry', () => {
    expect(checkAccess(entry('p', 0, [], false), NO_GRANTS)).toEqual({ kind: 'unpublished' });
  });
});

describe('ancestorPath', () => {
  it('cuts a page path down to the ancestor depth levels up', () => {
    expect(ancestorPath('/events/internal-2025/x4m9q2tz', 0)).toBe('/events/internal-2025/x4m9q2tz');
    expect(ancestorPath('/events/internal-2025/x4m9q2tz', 1)).toBe('/events/internal-2025');
    expect(ancestorPath('/events/internal-2025/x4m9q2tz', 2)).toBe('/events');
    expect(ancestorPath('/events', 1)).toBe('');
  });
});
