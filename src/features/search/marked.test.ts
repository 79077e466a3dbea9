import { describe, expect, it } from 'vitest';
import { parseMarked } from './marked.ts';

describe('parseMarked', () => {
  it('splits marked and unmarked text and decodes entities', () => {
    expect(parseMarked('Die <mark>Maschine</mark> &amp; mehr &lt;b&gt;')).toEqual([
      { text: 'Die ', marked: false },
      { text: 'Maschine', marked: true },
      { text: ' & mehr <b>', marked: false },
    ]);
  });

  it('drops any other tag instead of rendering it', () => {
    expect(parseMarked('<script>alert(1)</script><mark>x</mark>')).toEqual([
      { text: 'alert(1)', marked: false },
      { text: 'x', marked: true },
    ]);
  });
});
