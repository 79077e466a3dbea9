import { readdir, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { removeCompressedSiblings } from '../../lib/fs/compress.ts';

/** The folder of a route inside its host tree: `/en/about-us` → `<hostDir>/en/about-us`. */
export function routeDir(hostDir: string, route: string): string {
  const clean = route.split('/').filter((s) => s && s !== '..' && s !== '.').join('/');
  return join(hostDir, clean);
}

/** Removes a route's files and the folders it leaves empty (up to the host folder). */
export async function removeRoute(hostDir: string, route: string): Promise<void> {
  const dir = routeDir(hostDir, route);
  await rm(join(dir, 'index.html'), { force: true });
  await rm(join(dir, '_payload.json'), { force: true });
  await Promise.all(['index.html', '_payload.json'].map((f) => removeCompressedSiblings(join(dir, f))));
  let cur = dir;
  while (cur.startsWith(hostDir) && cur !== hostDir) {
    try {
      if ((await readdir(cur)).length > 0) break;
      await rmdir(cur);
    } catch {
      break;
    }
    cur = dirname(cur);
  }
}

const XML_ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };
const XML_SPECIAL = /[<>&'"]/;
// Most URLs hold none of them: tested first (a sitemap of the 10k routes has ~100k values).
const xmlEscape = (s: string) => (XML_SPECIAL.test(s) ? s.replace(/[<>&'"]/g, (c) => XML_ENTITIES[c]!) : s);

/** A sitemap with hreflang alternates for every page that exists in several locales. */
export function sitemapXml(entries: { loc: string; lastmod: string; alternates: { hreflang: string; href: string }[] }[]): string {
  const urls = entries.map((e) => {
    const alts = e.alternates.map((a) => `<xhtml:link rel="alternate" hreflang="${xmlEscape(a.hreflang)}" href="${xmlEscape(a.href)}"/>`).join('');
    return `<url><loc>${xmlEscape(e.loc)}</loc><lastmod>${xmlEscape(e.lastmod)}</lastmod>${alts}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(origin: string): string {
  return `User-agent: *\nDisallow: /api/\nDisallow: /*/mykomax\nDisallow: /*/editor\nDisallow: /style-guide\nSitemap: ${origin}/sitemap.xml\n`;
}
