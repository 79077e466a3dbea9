import { createHash } from 'node:crypto';

/** Demo media made on the fly, so the dataset needs no binary files and no network. */

const PALETTES = [
  ['#0b2e4f', '#1f6fb2', '#f2a900'],
  ['#1d2b36', '#3f7f8c', '#e8e1d3'],
  ['#2b1d36', '#7a4fb3', '#f0c987'],
  ['#12322b', '#2f8f6b', '#d9efe5'],
  ['#3a2416', '#b46a3c', '#f4e3d3'],
  ['#20232a', '#5b6472', '#ffcc4d'],
];

function seed(name: string): number[] {
  return [...createHash('sha256').update(name).digest()];
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A 16:9 illustration: a gradient, a stylised machine and wires, deterministic per name. */
export function svgImage(name: string, width = 1200, height = 675): string {
  const b = seed(name);
  const [dark, mid, accent] = PALETTES[b[0]! % PALETTES.length]!;
  const wires = Array.from({ length: 5 }, (_, i) => {
    const y0 = 120 + ((b[i + 1]! * 2) % 420);
    const y1 = 120 + ((b[i + 6]! * 2) % 420);
    const c = i % 2 ? accent : '#ffffff';
    return `<path d="M0 ${y0} C ${300 + b[i + 2]!} ${y0 - 120}, ${700 - b[i + 3]!} ${y1 + 140}, ${width} ${y1}" stroke="${c}" stroke-opacity="${0.25 + (i % 3) * 0.15}" stroke-width="${4 + (b[i + 4]! % 6)}" fill="none"/>`;
  }).join('');
  const mx = 620 + (b[12]! % 200);
  const machine = `<g transform="translate(${mx} ${260 + (b[13]! % 80)})">
<rect width="380" height="240" rx="18" fill="${dark}" stroke="${accent}" stroke-width="4"/>
<rect x="28" y="28" width="150" height="96" rx="8" fill="${mid}"/>
<rect x="200" y="28" width="150" height="20" rx="6" fill="${accent}"/>
<rect x="200" y="62" width="110" height="14" rx="6" fill="#ffffff" fill-opacity=".5"/>
<circle cx="290" cy="170" r="42" fill="none" stroke="#ffffff" stroke-opacity=".8" stroke-width="8"/>
<circle cx="290" cy="170" r="12" fill="${accent}"/>
<rect x="28" y="150" width="200" height="14" rx="7" fill="#ffffff" fill-opacity=".35"/>
<rect x="28" y="180" width="160" height="14" rx="7" fill="#ffffff" fill-opacity=".25"/></g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(name)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${mid}"/></linearGradient></defs>
<rect width="${width}" height="${height}" fill="url(#g)"/>${wires}${machine}</svg>`;
}

/**
 * A brand's logo (content hub system data, `/assets/img/brand-<name>.svg`): a mark and the name as
 * a word mark on a transparent ground, 3:1 like the site's brand image box (height 96).
 */
export function svgLogo(name: string, width = 288, height = 96): string {
  const b = seed(name);
  const [dark, mid, accent] = PALETTES[b[0]! % PALETTES.length]!;
  const word = name.replace(/^brand-/, '').replace(/-/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
  const size = Math.min(44, Math.floor(((width - 90) / Math.max(word.length, 1)) * 1.6));
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(word)}">
<g transform="translate(0 18)"><rect width="60" height="60" rx="14" fill="${dark}"/><path d="M14 44 L30 16 L46 44 Z" fill="${accent}"/><circle cx="30" cy="36" r="6" fill="${mid}"/></g>
<text x="74" y="${height / 2 + size * 0.35}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="${size}" fill="${dark}" letter-spacing="0.5">${esc(word)}</text></svg>`;
}

/** A one-page PDF whose text is the document's slug. */
export function tinyPdf(slug: string): Buffer {
  const title = slug.replace(/[^a-z0-9 -]/gi, ' ').replace(/-/g, ' ');
  const stream = `BT /F1 24 Tf 72 720 Td (${title}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * A hostile upload: a valid SVG picture that also carries script. What the platform does with it
 * (rasterise, or send it inert) is tested end to end.
 */
export function svgWithScript(): string {
  return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 90" width="160" height="90">'
    + '<rect width="160" height="90" fill="#1f6fb2"/>'
    + '<script>document.title = "svg-script-ran"; fetch("/api/steal?c=" + document.cookie);</script>'
    + '<circle cx="80" cy="45" r="30" fill="#f2a900" onload="alert(1)"/></svg>';
}
