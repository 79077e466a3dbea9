/**
 * Result presentation shared by both engines: HTML escaping, `<mark>` highlighting by analyzed
 * form (so `Maschinen` is marked for the query `maschine`), snippets around the first match, and
 * the ` | {brand}` title suffix.
 */
import { analyzerFor, eachSegment, type AnalyzedToken, type Language } from './analysis.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const ESCAPE_RE = /[&<>"']/g;

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(ESCAPE_RE, (c) => ESCAPES[c]!);
}

/** `Gamma 263 | Komax` → `Gamma 263`: the brand is whatever follows the last ` | `. */
export function stripBrand(title: string): string {
  const i = title.lastIndexOf(' | ');
  return i > 0 ? title.slice(0, i).trimEnd() : title;
}

/** Collapses runs of whitespace (line breaks between body blocks) into single spaces. */
export function collapseWhitespace(text: string): string {
  // Same as replacing every /\s+/ run, without replacing each single space by itself (index builds).
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}

/** Decides whether an analyzed term is a hit. */
export type TermMatcher = (term: string) => boolean;

/**
 * The matcher of a text known to hold no match (the index says so): a snippet is then the start of
 * the first text, and no word past its end is analyzed.
 */
export const NO_MATCH: TermMatcher = () => false;

/**
 * A matcher for a set of analyzed terms; `prefixes` also match every term they begin (the word
 * still being typed in a suggest query).
 */
export function termMatcher(terms: Iterable<string>, prefixes: Iterable<string> = []): TermMatcher {
  const set = new Set(terms);
  const pre = [...prefixes].filter(Boolean);
  if (!set.size && !pre.length) return NO_MATCH;
  if (!pre.length) return (t) => set.has(t);
  return (t) => set.has(t) || pre.some((p) => t.startsWith(p));
}

export interface SnippetOptions {
  /** Length of the snippet in characters of the source text (default 200). */
  maxChars?: number;
  /** Characters of context kept before the first match (default 60). */
  before?: number;
}

export interface Snippet {
  /** Escaped HTML with the matches in `<mark>`. */
  html: string;
  /** Whether anything was marked. */
  matched: boolean;
}

/**
 * A snippet of `text` of about `maxChars` characters around the first match, escaped, with every
 * matching word in `<mark>`. Cut ends get an ellipsis. Without a match: the start of the text.
 */
export function highlight(text: string, language: Language, isMatch: TermMatcher, opts: SnippetOptions = {}): Snippet {
  const maxChars = opts.maxChars ?? 200;
  const before = opts.before ?? 60;
  if (!text) return { html: '', matched: false };
  const analyzer = analyzerFor(language);
  const tokens: AnalyzedToken[] = [];
  const hits: boolean[] = [];
  let firstHit = -1;
  // The snippet ends at most maxChars after the first hit, and the cut below needs the first word
  // past its end: the words after that one are never looked at (a result page highlights 10 texts).
  eachSegment(text, language, (s) => {
    const term = analyzer.term(s.surface);
    if (!term) return true;
    const hit = isMatch(term);
    if (hit && firstHit < 0) firstHit = tokens.length;
    // The segment is this call's own: it becomes the token (no copy per word).
    const token = s as AnalyzedToken;
    token.term = term;
    tokens.push(token);
    hits.push(hit);
    if (firstHit >= 0) return s.end <= tokens[firstHit]!.start + maxChars;
    return isMatch !== NO_MATCH || s.end <= maxChars;
  });

  let start = 0;
  let end = text.length;
  if (text.length > maxChars) {
    if (firstHit >= 0) {
      const first = tokens[firstHit]!;
      start = Math.max(0, Math.min(first.start - before, text.length - maxChars));
      if (start > 0) {
        // Start on a word: the first word beginning at or after `start` (never past the hit).
        const at = tokens.find((t) => t.start >= start);
        start = at && at.start <= first.start ? at.start : first.start;
      }
    }
    end = Math.min(text.length, start + maxChars);
    if (end < text.length) {
      // End after a whole word.
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
    if (matched && t.start === pos && html.endsWith('</mark>')) {
      // Adjacent words (zh/ja have no spaces): one mark.
      html = html.slice(0, -'</mark>'.length) + escapeHtml(t.surface) + '</mark>';
    } else {
      html += escapeHtml(text.slice(pos, t.start)) + '<mark>' + escapeHtml(t.surface) + '</mark>';
    }
    pos = t.end;
    matched = true;
  }
  html += escapeHtml(text.slice(pos, end));
  if (end < text.length) html += ' …';
  return { html, matched };
}

/**
 * The description of a hit: the first of `sources` (description, then body text) that contains a
 * match, highlighted; when none does, the start of the first non-empty source, escaped.
 */
export function snippet(sources: readonly string[], language: Language, isMatch: TermMatcher, opts: SnippetOptions = {}): string {
  let fallback: string | null = null;
  for (const source of sources) {
    if (!source) continue;
    const s = highlight(source, language, isMatch, opts);
    if (s.matched) return s.html;
    fallback ??= s.html;
    if (isMatch === NO_MATCH) break;
  }
  return fallback ?? '';
}

/** Highlights the words of a plain query in `text` (exact analyzed matches). */
export function highlightQuery(text: string, language: Language, query: string, opts: SnippetOptions = {}): Snippet {
  return highlight(text, language, termMatcher(analyzerFor(language).terms(query)), opts);
}

/**
 * Keeps a fragment produced by another engine safe: every `<`/`>` that is not part of a
 * `<mark>`/`</mark>` tag is escaped. Idempotent on correctly encoded input.
 */
export function sanitizeMarked(html: string): string {
  return html.replace(/<(\/?)mark>|[<>]/g, (m, slash: string | undefined) => {
    if (m.length > 1) return `<${slash ?? ''}mark>`;
    return m === '<' ? '&lt;' : '&gt;';
  });
}
