/** A piece of a highlighted description: plain text, marked or not. */
export interface MarkedPart {
  text: string;
  marked: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'" };

function decode(html: string): string {
  return html.replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    const known = ENTITIES[name.toLowerCase()];
    if (known) return known;
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return whole;
  });
}

/**
 * Splits the search API's description (escaped text with `<mark>` around matches) into parts, so
 * islands render it as text nodes — no innerHTML, whatever the server sends.
 */
export function parseMarked(html: string): MarkedPart[] {
  const parts: MarkedPart[] = [];
  const re = /<mark>([\s\S]*?)<\/mark>/g;
  let last = 0;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (m.index > last) parts.push({ text: decode(stripTags(html.slice(last, m.index))), marked: false });
    parts.push({ text: decode(stripTags(m[1]!)), marked: true });
    last = re.lastIndex;
  }
  if (last < html.length) parts.push({ text: decode(stripTags(html.slice(last))), marked: false });
  return parts.filter((p) => p.text.length > 0);
}

const stripTags = (s: string) => s.replace(/<[^>]*>/g, '');
