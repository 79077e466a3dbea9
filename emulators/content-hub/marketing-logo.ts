/**
 * Demo logos for the navigation's marketing sections, made on the fly like the other demo media:
 * a mark and the name from the slug ("komax-service-360" → KOMAX Service 360) on a transparent
 * ground, at twice the 304×52 the site shows. `light` is for a dark background colour.
 */

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function marketingLogo(slug: string, tone: 'dark' | 'light' = 'dark'): string {
  const [first = '', ...rest] = slug.split('-').filter(Boolean);
  const words = rest.map((w) => (/^\d+$/.test(w) ? w : w[0]!.toUpperCase() + w.slice(1))).join(' ');
  const ink = tone === 'light' ? '#ffffff' : '#0a3d62';
  const accent = tone === 'light' ? '#f2a900' : '#9a5800';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 608 104" width="608" height="104">
<rect x="8" y="16" width="72" height="72" rx="12" fill="${ink}"/>
<path d="M26 34l18 18-18 18M44 34l18 18-18 18" fill="none" stroke="${accent}" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>
<text x="100" y="68" font-family="DejaVu Sans, Arial, sans-serif" font-size="38" fill="${ink}"><tspan font-weight="800" letter-spacing="2">${esc(first.toUpperCase())}</tspan><tspan dx="14">${esc(words)}</tspan></text>
</svg>`;
}
