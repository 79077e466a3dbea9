import { describe, expect, it } from 'vitest';
import { effectiveProtection, fileAccess, isVisitorVisible, NO_GRANTS, protectingPages, type AccessNode, type EntryAccess } from './access.ts';

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
