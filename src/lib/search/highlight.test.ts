import { describe, expect, it, vi } from 'vitest';
import { escapeHtml, highlight, highlightQuery, NO_MATCH, sanitizeMarked, snippet, stripBrand, termMatcher } from './highlight.ts';
import { analyzerFor } from './analysis.ts';

const plain = (html: string) => html.replace(/<\/?mark>/g, '');

describe('escapeHtml', () => {
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
  });
});

describe('stripBrand', () => {
  it("removes the last ' | {brand}'", () => {
    expect(stripBrand('Gamma 263 | Komax')).toBe('Gamma 263');
    expect(stripBrand('Kabelbaum | Crimpen | Komax Group')).toBe('Kabelbaum | Crimpen');
    expect(stripBrand('Gamma 263')).toBe('Gamma 263');
    expect(stripBrand('A|B')).toBe('A|B');
    expect(stripBrand(' | Komax')).toBe(' | Komax');
  });
});

describe('highlight', () => {
  it('marks words by analyzed form: "Maschinen" for the query "maschine"', () => {
    const s = highlightQuery('Unsere Maschinen und die Maschine.', 'de', 'maschine');
    expect(s).toEqual({ html: 'Unsere <mark>Maschinen</mark> und die <mark>Maschine</mark>.', matched: true });
  });

  it('escapes everything that is not a mark', () => {
    const s = highlightQuery('<b>Maschine</b> & <script>alert(1)</script>', 'de', 'Maschine');
    expect(s.html).toBe('&lt;b&gt;<mark>Maschine</mark>&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('cuts a long text to a snippet around the first match, on word boundaries', () => {
    const before = 'Lorem ipsum dolor sit amet consectetur. '.repeat(10);
    const after = ' Weitere Informationen folgen später im Text.'.repeat(10);
    const text = `${before}Die Kabelverarbeitung ist unser Kern.${after}`;
    const s = highlightQuery(text, 'de', 'kabelverarbeitung', { maxChars: 200, before: 60 });
    expect(s.matched).toBe(true);
    expect(s.html.startsWith('… ')).toBe(true);
    expect(s.html.endsWith(' …')).toBe(true);
    expect(s.html).toContain('<mark>Kabelverarbeitung</mark>');
    const shown = plain(s.html).slice(2, -2);
    expect(shown.length).toBeLessThanOrEqual(200);
    expect(text).toContain(shown);
    // Starts on a word.
    expect(text[text.indexOf(shown) - 1]).toMatch(/\s/);
  });

  it('keeps a match near the end in a full-length snippet', () => {
    const text = `${'Wort '.repeat(100)}Ende mit Maschine`;
    const s = highlightQuery(text, 'de', 'maschine', { maxChars: 100 });
    expect(s.html).toContain('<mark>Maschine</mark>');
    expect(s.html.endsWith(' …')).toBe(false);
    expect(plain(s.html).length).toBeGreaterThan(90);
  });

  it('gives the start of the text when nothing matches', () => {
    const text = 'Erster Satz. '.repeat(40);
    const s = highlightQuery(text, 'de', 'nichts', { maxChars: 50 });
    expect(s.matched).toBe(false);
    expect(s.html.startsWith('Erster Satz.')).toBe(true);
    expect(s.html.endsWith(' …')).toBe(true);
  });

  it('merges adjacent marks in zh', () => {
    const zh = analyzerFor('zh');
    const s = highlight('全自动线缆加工机器', 'zh', termMatcher([...zh.terms('线缆')]));
    expect(s.html).toBe('全自动<mark>线缆</mark>加工机器');
  });

  it('marks prefixes for words still being typed', () => {
    const s = highlight('Crimpautomaten und Crimpzangen', 'de', termMatcher([], ['crimpaut']));
    expect(s.html).toBe('<mark>Crimpautomaten</mark> und Crimpzangen');
  });
});

describe('highlight cost (issue 32)', () => {
  it('analyzes the words up to the snippet only, not those of the whole text', () => {
    const de = analyzerFor('de');
    const text = `Die Kabelverarbeitung ${'mit weiteren Wörtern '.repeat(2000)}`;
    const reference = `Die <mark>Kabelverarbeitung</mark> ${'mit weiteren Wörtern '.repeat(8)}`;
    const spy = vi.spyOn(de, 'term');
    try {
      const s = highlight(text, 'de', termMatcher(de.terms('Kabelverarbeitung')), { maxChars: 200 });
      expect(s.html.startsWith(reference.slice(0, 120))).toBe(true);
      expect(s.html.endsWith(' …')).toBe(true);
      expect(spy.mock.calls.length).toBeLessThan(100);
      spy.mockClear();
      // Known to hold no match: the start of the first text, the second one never looked at.
      expect(snippet([text, 'Kabelverarbeitung'], 'de', NO_MATCH, { maxChars: 50 })).toBe('Die Kabelverarbeitung mit weiteren Wörtern …');
      expect(spy.mock.calls.length).toBeLessThan(20);
    } finally {
      spy.mockRestore();
    }
  });

  it('gives the same snippet as over every word of the text', () => {
    const de = analyzerFor('de');
    const words = 'Kabel Maschine Crimpen Lösung und die Qualität Werkzeug'.split(' ');
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let n = 0; n < 200; n++) {
      const text = Array.from({ length: 5 + Math.floor(rand() * 120) }, () => words[Math.floor(rand() * words.length)]).join(rand() < 0.5 ? ' ' : ', ');
      const query = words[Math.floor(rand() * words.length)]!;
      const opts = { maxChars: 20 + Math.floor(rand() * 200), before: Math.floor(rand() * 60) };
      // The reference: every word analyzed (a matcher that is not NO_MATCH and sees each term).
      const seen: string[] = [];
      const full = highlight(text, 'de', (t) => (seen.push(t), termMatcher(de.terms(query))(t)), { ...opts, maxChars: text.length + 1 });
      expect(full.html.replace(/<\/?mark>/g, '')).toBe(text.replace(/&/g, '&amp;'));
      const lazy = highlight(text, 'de', termMatcher(de.terms(query)), opts);
      const whole = highlightWhole(text, de.terms(query), opts);
      expect(lazy).toEqual(whole);
    }
  });
});

/** highlight() as it was before it stopped early: tokens of the whole text first (the reference). */
function highlightWhole(text: string, terms: string[], opts: { maxChars: number; before: number }) {
  const tokens = analyzerFor('de').tokens(text);
  const isMatch = termMatcher(terms);
  const hits = tokens.map((t) => isMatch(t.term));
  const firstHit = hits.indexOf(true);
  const { maxChars, before } = opts;
  let start = 0;
  let end = text.length;
  if (text.length > maxChars) {
    if (firstHit >= 0) {
      const first = tokens[firstHit]!;
      start = Math.max(0, Math.min(first.start - before, text.length - maxChars));
      if (start > 0) {
        const at = tokens.find((t) => t.start >= start);
        start = at && at.start <= first.start ? at.start : first.start;
      }
    }
    end = Math.min(text.length, start + maxChars);
    if (end < text.length) {
      let cut = -1;
      for (const t of tokens) {
        if (t.end > end) break;
        if (t.end > start) cut = t.end;
      }
      if (cut > start) end = cut;
    }
  }
  let html = start > 0 ? '… ' : '';
  let pos = start;
  let matched = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.start < start) continue;
    if (t.end > end) break;
    if (!hits[i]) continue;
    html += escapeHtml(text.slice(pos, t.start)) + '<mark>' + escapeHtml(t.surface) + '</mark>';
    pos = t.end;
    matched = true;
  }
  html += escapeHtml(text.slice(pos, end));
  if (end < text.length) html += ' …';
  return { html, matched };
}

describe('snippet', () => {
  it('takes the first source with a match, else the first non-empty source', () => {
    const m = termMatcher(analyzerFor('de').terms('Kabel'));
    expect(snippet(['Eine Beschreibung.', 'Im Text steht Kabel.'], 'de', m)).toBe('Im Text steht <mark>Kabel</mark>.');
    expect(snippet(['', 'Nur Text.'], 'de', m)).toBe('Nur Text.');
    expect(snippet(['Beschreibung.', 'Text.'], 'de', m)).toBe('Beschreibung.');
    expect(snippet(['', ''], 'de', m)).toBe('');
  });
});

describe('sanitizeMarked', () => {
  it('escapes any tag but mark, and leaves encoded text alone', () => {
    expect(sanitizeMarked('<mark>a</mark> <script>x</script>')).toBe('<mark>a</mark> &lt;script&gt;x&lt;/script&gt;');
    expect(sanitizeMarked('&lt;b&gt; <mark>Kabel</mark> &amp;')).toBe('&lt;b&gt; <mark>Kabel</mark> &amp;');
    expect(sanitizeMarked('<mark onclick="x">a</mark>')).toBe('&lt;mark onclick="x"&gt;a</mark>');
  });
});
