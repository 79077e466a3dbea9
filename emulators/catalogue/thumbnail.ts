import { createHash } from 'node:crypto';

const ACCENTS = ['#1f6fb2', '#2f8f6b', '#7a4fb3', '#b46a3c', '#3f7f8c', '#c0392b'];

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The label shown on a thumbnail: the document type named in the file name, else "Document". */
function typeLabel(name: string): string {
  if (/brochure/i.test(name)) return 'BROCHURE';
  if (/datasheet/i.test(name)) return 'DATASHEET';
  if (/manual/i.test(name)) return 'MANUAL';
  if (/annual-report/i.test(name)) return 'ANNUAL REPORT';
  return 'DOCUMENT';
}

/** A portrait 128x180 document thumbnail (first page of a PDF), deterministic per name. */
export function documentThumbnail(name: string): string {
  const b = [...createHash('sha256').update(name).digest()];
  const accent = ACCENTS[b[0]! % ACCENTS.length]!;
  const lines = Array.from({ length: 6 }, (_, i) => {
    const width = 60 + (b[i + 1]! % 40);
    return `<rect x="14" y="${112 + i * 9}" width="${width}" height="4" rx="2" fill="#c9ced6"/>`;
  }).join('');
  const title = name.replace(/-(en|de|fr)$/, '').replace(/-/g, ' ').slice(0, 24);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 180" width="128" height="180" role="img" aria-label="${esc(name)}">
<rect x="0.5" y="0.5" width="127" height="179" fill="#ffffff" stroke="#d5d9df"/>
<rect x="0" y="0" width="128" height="64" fill="${accent}"/>
<path d="M0 ${44 + (b[8]! % 12)} C 40 ${30 + (b[9]! % 20)}, 80 ${60 + (b[10]! % 10)}, 128 ${38 + (b[11]! % 16)}" stroke="#ffffff" stroke-opacity=".45" stroke-width="3" fill="none"/>
<text x="14" y="84" font-family="Helvetica, Arial, sans-serif" font-size="8" font-weight="700" fill="${accent}">${typeLabel(name)}</text>
<text x="14" y="98" font-family="Helvetica, Arial, sans-serif" font-size="7" fill="#20232a">${esc(title)}</text>${lines}
<rect x="92" y="156" width="24" height="12" rx="2" fill="#c0392b"/>
<text x="104" y="165" font-family="Helvetica, Arial, sans-serif" font-size="7" font-weight="700" fill="#ffffff" text-anchor="middle">PDF</text>
</svg>`;
}
