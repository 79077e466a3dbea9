import { describe, expect, it } from 'vitest';
import { listHref, pageCount, pageWindow, parseListQuery, skipFor } from './paging.ts';

const q = (s: string) => parseListQuery(new URLSearchParams(s));

describe('parseListQuery', () => {
  it('reads category and page', () => {
    expect(q('category=technology&page=2')).toEqual({ category: 'technology', page: 2 });
  });

  it('defaults to all categories, first page', () => {
    expect(q('')).toEqual({ category: null, page: 1 });
    expect(q('category=&utm_source=x')).toEqual({ category: null, page: 1 });
  });

  it.each(['page=0', 'page=-1', 'page=1.5', 'page=abc', 'page=99999', 'page=', 'category=Technology', 'category=a%2Fb', 'category=../x'])('refuses %s', (s) => {
    expect(q(s)).toBeNull();
  });
});

describe('listHref', () => {
  it('leaves defaults out of the URL', () => {
    expect(listHref('/en/stories', { category: null, page: 1 })).toBe('/en/stories');
    expect(listHref('/en/stories', { category: 'technology', page: 1 })).toBe('/en/stories?category=technology');
    expect(listHref('/en/stories', { category: null, page: 3 })).toBe('/en/stories?page=3');
    expect(listHref('/en/stories', { category: 'people', page: 2 })).toBe('/en/stories?category=people&page=2');
  });

  it('round-trips through parseListQuery', () => {
    const query = { category: 'customer-stories', page: 4 };
    const href = listHref('/de/stories', query);
    expect(parseListQuery(new URL(href, 'http://x').searchParams)).toEqual(query);
  });
});

describe('page arithmetic', () => {
  it('counts pages, at least one', () => {
    expect(pageCount(0, 12)).toBe(1);
    expect(pageCount(12, 12)).toBe(1);
    expect(pageCount(13, 12)).toBe(2);
    expect(pageCount(32, 12)).toBe(3);
  });

  it('skips the items of the pages before', () => {
    expect(skipFor(1, 12)).toBe(0);
    expect(skipFor(3, 12)).toBe(24);
  });

  it('shows first, last and the neighbours of the current page', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(6, 10)).toEqual([1, null, 5, 6, 7, null, 10]);
    expect(pageWindow(3, 10)).toEqual([1, 2, 3, 4, null, 10]);
    expect(pageWindow(10, 10)).toEqual([1, null, 9, 10]);
  });
});
