import { describe, expect, it } from 'vitest';
import { analyzerFor, fold, hasStemmer, LANGUAGES, parseLocale, segment } from './analysis.ts';
import { SearchError } from './types.ts';

describe('parseLocale', () => {
  it('takes the language and the country of a locale code', () => {
    expect(parseLocale('de')).toEqual({ language: 'de' });
    expect(parseLocale('de-CH')).toEqual({ language: 'de', country: 'CH' });
    expect(parseLocale('en_us')).toEqual({ language: 'en', country: 'US' });
    expect(parseLocale('ZH-cn')).toEqual({ language: 'zh', country: 'CN' });
  });

  it('rejects unsupported languages and malformed codes with a SearchError', () => {
    expect(() => parseLocale('it-IT')).toThrow(SearchError);
    expect(() => parseLocale('it-IT')).toThrow(/Unsupported language "it"/);
    expect(() => parseLocale('de-')).toThrow(expect.objectContaining({ code: 'invalid-request' }));
    expect(() => parseLocale('')).toThrow(expect.objectContaining({ code: 'invalid-request' }));
    expect(() => parseLocale(42)).toThrow(expect.objectContaining({ code: 'invalid-request' }));
    expect(() => parseLocale('xx')).toThrow(expect.objectContaining({ code: 'unknown-locale' }));
  });
});

describe('fold', () => {
  it('removes Latin diacritics of every supported language', () => {
    expect(fold('lösung straße')).toBe('losung strasse');
    expect(fold('čřžšťďňěů')).toBe('crzstdneu');
    expect(fold('őűáé')).toBe('ouae');
    expect(fold('șțăîâ')).toBe('staia');
    expect(fold('ôäĺľŕ')).toBe('oallr');
    expect(fold('çãõñ')).toBe('caon');
  });

  it('keeps Japanese voiced kana and CJK intact', () => {
    expect(fold('がぱ線缆')).toBe('がぱ線缆');
  });
});

describe('segment', () => {
  it('gives words with offsets into the original text', () => {
    for (const [lang, text] of [
      ['de', 'Die Kabel-Verarbeitung (Gamma 263) für Lösungen!'],
      ['zh', '全自动线缆加工机器，适用于汽车行业。'],
      ['ja', 'ケーブル加工のソリューションです。'],
    ] as const) {
      const segs = segment(text, lang);
      expect(segs.length).toBeGreaterThan(2);
      for (const s of segs) expect(text.slice(s.start, s.end)).toBe(s.surface);
    }
  });

  it('uses Intl.Segmenter for zh and ja', () => {
    expect(segment('线缆加工机器', 'zh').map((s) => s.surface)).toContain('加工');
    expect(segment('ケーブル加工のソリューション', 'ja').map((s) => s.surface)).toEqual(['ケーブル', '加工', 'の', 'ソリューション']);
  });
});

describe('analyzers', () => {
  it('stem with Snowball where the language has an algorithm', () => {
    expect(LANGUAGES.filter(hasStemmer).sort()).toEqual(['de', 'en', 'es', 'fr', 'hu', 'pt', 'ro']);
    const de = analyzerFor('de');
    expect(de.term('Maschine')).toBe(de.term('Maschinen'));
    expect(de.terms('Die Maschinen und Lösungen')).toEqual(['maschin', 'losung']);
    expect(analyzerFor('en').terms('machines running')).toEqual(['machin', 'run']);
    expect(analyzerFor('es').term('máquinas')).toBe(analyzerFor('es').term('maquina'));
    expect(analyzerFor('hu').term('gépek')).toBe('gep');
  });

  it('make a query typed without accents meet the accented text', () => {
    const fr = analyzerFor('fr');
    expect(fr.term('générales')).toBe(fr.term('generales'));
    const de = analyzerFor('de');
    expect(de.term('Lösungen')).toBe(de.term('losungen'));
    expect(analyzerFor('cs').term('Řešení')).toBe('reseni');
    expect(analyzerFor('sk').term('riešenie')).toBe(analyzerFor('sk').term('riesenie'));
    expect(analyzerFor('ro').term('mașini')).toBe(analyzerFor('ro').term('masini'));
  });

  it('drop stop words, single letters and overlong words; keep numbers', () => {
    const en = analyzerFor('en');
    expect(en.terms("The machine's 263 a and of x")).toEqual(['machin', '263']);
    expect(en.term('x'.repeat(41))).toBeNull();
    expect(analyzerFor('de').term('die')).toBeNull();
    expect(analyzerFor('de').term('die', { keepStopWords: true })).toBe('die');
    expect(analyzerFor('fr').terms("l'usine")).toEqual(['usin']);
  });

  it('normalize width in zh/ja and drop their particles', () => {
    const ja = analyzerFor('ja');
    expect(ja.terms('ケーブル加工のソリューション')).toEqual(['ケーブル', '加工', 'ソリューション']);
    expect(ja.term('ＡＢＣ')).toBe('abc');
    expect(analyzerFor('zh').terms('我们的机器')).not.toContain('的');
  });

  it('give analyzed tokens with their surface for highlighting', () => {
    const tokens = analyzerFor('de').tokens('Unsere Maschinen arbeiten');
    expect(tokens.find((t) => t.term === 'maschin')).toMatchObject({ surface: 'Maschinen', start: 7, end: 16 });
  });

  it('offer shorter stems for a typo in a word ending', () => {
    const de = analyzerFor('de');
    expect(de.typoStems('Kabelbaumfertigunk')).toContain(de.term('Kabelbaumfertigung'));
    // A recognized ending is no typo; short words and unstemmed languages get nothing.
    expect(de.typoStems('Maschinen')).toEqual([]);
    expect(de.typoStems('Kabel')).toEqual([]);
    expect(analyzerFor('cs').typoStems('zpracovánix')).toEqual([]);
  });
});
