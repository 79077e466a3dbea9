import { describe, expect, it } from 'vitest';
import { shareLinks } from './share.ts';

describe('shareLinks', () => {
  const links = shareLinks('https://komax.example/en/stories/a b?x=1&y=2', 'Crimping & more');
  const href = (n: string) => links.find((l) => l.network === n)!.href;

  it('offers LinkedIn, X, Facebook and e-mail in that order', () => {
    expect(links.map((l) => l.network)).toEqual(['linkedin', 'x', 'facebook', 'email']);
  });

  it('encodes the page URL as one parameter', () => {
    const url = new URL(href('linkedin'));
    expect(url.origin).toBe('https://www.linkedin.com');
    expect(url.searchParams.get('url')).toBe('https://komax.example/en/stories/a b?x=1&y=2');
    expect(new URL(href('facebook')).searchParams.get('u')).toBe('https://komax.example/en/stories/a b?x=1&y=2');
  });

  it('gives X the title as text', () => {
    expect(new URL(href('x')).searchParams.get('text')).toBe('Crimping & more');
  });

  it('builds a mailto link with subject and body, spaces as %20', () => {
    expect(href('email')).toBe(`mailto:?subject=Crimping%20%26%20more&body=${encodeURIComponent('https://komax.example/en/stories/a b?x=1&y=2')}`);
  });
});
