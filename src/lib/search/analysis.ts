/**
 * Per-language text analysis, the one place that decides what a "word" is. Indexing, querying and
 * highlighting all go through it, so a word in a query, in the index and in a snippet always has
 * the same analyzed form:
 *
 *   segment (Intl.Segmenter for zh/ja, letters-and-digits runs otherwise)
 *   → lowercase (NFKC first for zh/ja: full-width Latin, half-width kana)
 *   → stop words dropped
 *   → Snowball stemmer where the language has one (en, de, es, fr, hu, pt, ro; cs, sk, ja, zh have none)
 *   → diacritic folding (`Lösung` and `Losung` analyze alike).
 *
 * Stemming runs before folding because the Snowball rules know the accented suffixes (French
 * `-ées`, Romanian `-ări`, Hungarian `-ás`); folding after it makes the query typed without
 * accents meet the accented text.
 */
import { stemmer as englishStemmer } from '@orama/stemmers/english';
import { stemmer as frenchStemmer } from '@orama/stemmers/french';
import { stemmer as germanStemmer } from '@orama/stemmers/german';
import { stemmer as hungarianStemmer } from '@orama/stemmers/hungarian';
import { stemmer as portugueseStemmer } from '@orama/stemmers/portuguese';
import { stemmer as romanianStemmer } from '@orama/stemmers/romanian';
import { stemmer as spanishStemmer } from '@orama/stemmers/spanish';
import { UI_LANGUAGES } from '../../site/locale.ts';
import { SearchError } from './types.ts';

/** The search indexes one language each of the interface (a new language needs its stop words below). */
export const LANGUAGES = UI_LANGUAGES;
export type Language = (typeof LANGUAGES)[number];

const LANGUAGE_SET: ReadonlySet<string> = new Set(LANGUAGES);
export const isLanguage = (s: string): s is Language => LANGUAGE_SET.has(s);

/** Languages segmented by Intl.Segmenter (no spaces between words). */
const SEGMENTED: ReadonlySet<Language> = new Set<Language>(['ja', 'zh']);

const STEMMERS: Partial<Record<Language, (word: string) => string>> = {
  en: englishStemmer,
  de: germanStemmer,
  es: spanishStemmer,
  fr: frenchStemmer,
  hu: hungarianStemmer,
  pt: portugueseStemmer,
  ro: romanianStemmer,
};

/** Whether `language` is stemmed (a Snowball algorithm exists for it). */
export const hasStemmer = (language: Language): boolean => STEMMERS[language] !== undefined;

/**
 * Short stop-word lists (articles, pronouns, prepositions, auxiliaries). They keep the posting lists
 * of the index short (speed) and keep AND queries from failing on "die" or "the".
 */
const STOP_WORDS: Record<Language, string> = {
  en: 'a an and are as at be by for from has have in is it its of on or that the this to was were will with',
  cs: 'a aby ale ani i je jak jako k ke na nebo o od po pro s se si ta tak tam ten to u v ve z za ze že',
  de: 'aber als am an auch auf aus bei das dass dem den der des die du ein eine einem einen einer eines er es für hat im in ist mit nach nicht noch oder sich sie sind so über um und vom von vor war wie wir zu zum zur',
  es: 'a al como con de del el en es la las lo los más o para pero por que se sin su sus un una y',
  fr: 'au aux avec ce ces d dans de des du elle en est et il l la le les leur mais ne nous ou par pas pour qu que qui sa se ses son sur un une vous',
  hu: 'a az de egy egyes és hogy is meg mint nem s sem van vagy volt',
  ja: 'が で て と に の は も や を た し する です ます ある いる この その',
  pt: 'a ao aos as com da das de do dos e é em na nas no nos o os ou para pela pelo por que se sem um uma',
  ro: 'a al ale cu că de din este fi în la nu o pe pentru prin sau se și sunt un una unei unui',
  sk: 'a aby ale alebo ani je ako k ku na o od po pre s so sa si ta tak tam ten to v vo z za zo že',
  zh: '的 了 和 是 在 与 及 或 等 也 就 都 而 这 那',
};

// ---------------------------------------------------------------------------------------------
// Diacritic folding

const COMBINING_LATIN = /[\u0300-\u036f]/g;
const NEEDS_FOLD = /[^\p{ASCII}]/u;
const SPECIAL_FOLDS: Record<string, string> = { ß: 'ss', ø: 'o', æ: 'ae', œ: 'oe', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ſ: 's' };
const SPECIAL_RE = /[ßøæœłđðþıſ]/g;

/**
 * Removes Latin diacritics (`č`→`c`, `ő`→`o`, `ș`→`s`, `ß`→`ss`) from lowercase text. Only the
 * combining marks of the Latin block are removed, so Japanese voiced kana (`が`) stay intact.
 */
export function fold(lower: string): string {
  if (!NEEDS_FOLD.test(lower)) return lower;
  const out = lower.normalize('NFD').replace(COMBINING_LATIN, '').replace(SPECIAL_RE, (c) => SPECIAL_FOLDS[c]!);
  return out.normalize('NFC');
}

// ---------------------------------------------------------------------------------------------
// Segmentation

/** A word as it stands in the text: `text.slice(start, end) === surface`. */
export interface Segment {
  surface: string;
  start: number;
  end: number;
}

/** A segment with its analyzed form (`term`), the unit highlighting works with. */
export interface AnalyzedToken extends Segment {
  term: string;
}

const WORD_RE = /[\p{L}\p{N}\p{M}]+/gu;
/** Words longer than this are not words (URLs, hashes, run-together garbage) and are not indexed. */
const MAX_WORD = 40;

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(language: string): Intl.Segmenter {
  let s = segmenters.get(language);
  if (!s) {
    s = new Intl.Segmenter(language, { granularity: 'word' });
    segmenters.set(language, s);
  }
  return s;
}

/** Splits text into words with their offsets in `text`. */
export function segment(text: string, language: Language): Segment[] {
  const out: Segment[] = [];
  if (!text) return out;
  if (SEGMENTED.has(language)) {
    for (const s of segmenter(language).segment(text)) {
      if (s.isWordLike) out.push({ surface: s.segment, start: s.index, end: s.index + s.segment.length });
    }
    return out;
  }
  WORD_RE.lastIndex = 0;
  for (let m = WORD_RE.exec(text); m; m = WORD_RE.exec(text)) {
    out.push({ surface: m[0], start: m.index, end: m.index + m[0].length });
  }
  return out;
}

// Its own instance: `fn` of eachSegment may call segment(), which resets WORD_RE.
const EACH_WORD_RE = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Calls `fn` with each segment of `text` in order, as {@link segment} finds them, until it returns
 * `false`: a snippet needs the words up to its end only, not those of the whole text.
 */
export function eachSegment(text: string, language: Language, fn: (s: Segment) => boolean | void): void {
  if (!text) return;
  if (SEGMENTED.has(language)) {
    for (const s of segmenter(language).segment(text)) {
      if (s.isWordLike && fn({ surface: s.segment, start: s.index, end: s.index + s.segment.length }) === false) return;
    }
    return;
  }
  const re = EACH_WORD_RE;
  let at = 0;
  for (;;) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return;
    at = m.index + m[0].length;
    if (fn({ surface: m[0], start: m.index, end: at }) === false) return;
  }
}

const NON_WORD_RE = /[^\p{L}\p{N}\p{M}]+/u;

/**
 * Calls `fn` with each word of `text` in order, as {@link segment} finds them, without their
 * offsets: what an index build needs, allocating nothing per word but the word.
 */
export function eachWord(text: string, language: Language, fn: (surface: string) => void): void {
  if (!text) return;
  if (SEGMENTED.has(language)) {
    for (const s of segmenter(language).segment(text)) if (s.isWordLike) fn(s.segment);
    return;
  }
  for (const w of text.split(NON_WORD_RE)) if (w) fn(w);
}

// ---------------------------------------------------------------------------------------------
// Analyzers

const HAS_DIGIT = /\p{N}/u;
const SINGLE_LETTER = /^\p{L}$/u;

export interface TermOptions {
  /** Keep stop words (the last, still being typed word of a suggest query: "die" may become "diesel"). */
  keepStopWords?: boolean;
}

/** The analysis of one language. Get it with {@link analyzerFor}. */
export interface Analyzer {
  readonly language: Language;
  /** The analyzed form of one word (a segment's surface), or null when it is not indexed. */
  term(surface: string, opts?: TermOptions): string | null;
  /**
   * Stems to try besides `term(surface)` when looking for a misspelt word: a typo in the ending
   * (`Kabelbaumfertigunk`) keeps the stemmer from removing it, leaving the stem 3 edits away from
   * the indexed one; the stems of the word without its last 1–3 letters are within reach again.
   */
  typoStems(surface: string): string[];
  /** The analyzed terms of a text, in order, repeats kept (index and query side). */
  terms(text: string): string[];
  /** Segments of a text with their analyzed forms (highlighting). Stop words are left out. */
  tokens(text: string): AnalyzedToken[];
}

class LanguageAnalyzer implements Analyzer {
  readonly language: Language;
  private readonly stop: ReadonlySet<string>;
  private readonly stem: ((w: string) => string) | undefined;
  private readonly cjk: boolean;
  /** Analysis of a surface form is pure: memoize the frequent ones (bounded). */
  private readonly memo = new Map<string, string | null>();

  constructor(language: Language) {
    this.language = language;
    this.cjk = SEGMENTED.has(language);
    this.stem = STEMMERS[language];
    this.stop = new Set(STOP_WORDS[language].split(' ').map((w) => fold(w)));
  }

  term(surface: string, opts?: TermOptions): string | null {
    if (!opts?.keepStopWords) {
      const hit = this.memo.get(surface);
      if (hit !== undefined) return hit;
    }
    const result = this.compute(surface, opts?.keepStopWords ?? false);
    if (!opts?.keepStopWords) {
      if (this.memo.size > 50_000) this.memo.clear();
      this.memo.set(surface, result);
    }
    return result;
  }

  private compute(surface: string, keepStopWords: boolean): string | null {
    if (surface.length > MAX_WORD) return null;
    const lower = (this.cjk ? surface.normalize('NFKC') : surface).toLowerCase();
    if (!this.cjk && SINGLE_LETTER.test(lower)) return null;
    const folded = fold(lower);
    if (!keepStopWords && this.stop.has(folded)) return null;
    if (!this.stem || HAS_DIGIT.test(lower)) return folded;
    const stemmed = this.stem(lower);
    // A stemmer never turns a word into nothing; if it would, the word stays as it is.
    return stemmed ? fold(stemmed) : folded;
  }

  typoStems(surface: string): string[] {
    const stem = this.term(surface);
    if (!stem || !this.stem || this.cjk) return [];
    const chars = [...surface];
    // Only when the stemmer removed nothing: a recognized ending is no typo.
    if (chars.length < 7 || stem !== fold(surface.toLowerCase())) return [];
    const out: string[] = [];
    for (let k = 1; k <= 3; k++) {
      const t = this.term(chars.slice(0, -k).join(''));
      if (t && t.length >= 4 && t !== stem && !out.includes(t)) out.push(t);
    }
    return out;
  }

  terms(text: string): string[] {
    const out: string[] = [];
    for (const s of segment(text, this.language)) {
      const t = this.term(s.surface);
      if (t) out.push(t);
    }
    return out;
  }

  tokens(text: string): AnalyzedToken[] {
    const out: AnalyzedToken[] = [];
    for (const s of segment(text, this.language)) {
      const t = this.term(s.surface);
      if (t) out.push({ ...s, term: t });
    }
    return out;
  }
}

const analyzers = new Map<Language, Analyzer>();

/** The analyzer of a language (one instance per language, shared). */
export function analyzerFor(language: Language): Analyzer {
  let a = analyzers.get(language);
  if (!a) {
    a = new LanguageAnalyzer(language);
    analyzers.set(language, a);
  }
  return a;
}

/**
 * The parts of a locale code: `de-CH` → { language: 'de', country: 'CH' }, `de` → { language: 'de' }.
 * Throws a SearchError for a malformed code (`invalid-request`) or an unsupported language
 * (`unknown-locale`).
 */
export function parseLocale(localeCode: unknown): { language: Language; country?: string } {
  if (typeof localeCode !== 'string') throw new SearchError('invalid-request', 'localeCode must be a string');
  const m = /^([a-zA-Z]{2,3})(?:[-_]([a-zA-Z]{2}|\d{3}))?$/.exec(localeCode.trim());
  if (!m) throw new SearchError('invalid-request', `Malformed localeCode "${localeCode.slice(0, 20)}"`);
  const language = m[1]!.toLowerCase();
  if (!isLanguage(language)) throw new SearchError('unknown-locale', `Unsupported language "${language}" in localeCode "${localeCode}"`);
  return m[2] ? { language, country: m[2].toUpperCase() } : { language };
}
