import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeRoute, robotsTxt, routeDir, sitemapXml } from './output.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'prerender-output-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('routeDir', () => {
  it('maps a route into the host folder and drops dot segments', () => {
    expect(routeDir('/static/localhost', '/en/about-us')).toBe(join('/static/localhost', 'en/about-us'));
    expect(routeDir('/static/localhost', '/en/../../../etc')).toBe(join('/static/localhost', 'en/etc'));
    expect(routeDir('/static/localhost', '/')).toBe(join('/static/localhost'));
  });
});

describe('removeRoute', () => {
  const host = () => join(root, 'localhost');
  const page = async (route: string) => {
    await mkdir(join(host(), route), { recursive: true });
    await writeFile(join(host(), route, 'index.html'), 'html');
    await writeFile(join(host(), route, '_payload.json'), '{}');
  };

  it('removes the compressed siblings of the route files too, and the folders left empty', async () => {
    await page('/en/company/history');
    for (const f of ['index.html.br', 'index.html.gz', '_payload.json.br', '_payload.json.gz']) await writeFile(join(host(), 'en/company/history', f), 'x');
    await removeRoute(host(), '/en/company/history');
    expect(existsSync(join(host(), 'en'))).toBe(false);
  });

  it('removes the route files and the folders left empty', async () => {
    await page('/en/company/history');
    await page('/en');
    await removeRoute(host(), '/en/company/history');
    expect(existsSync(join(host(), 'en/company'))).toBe(false);
    expect(existsSync(join(host(), 'en/index.html'))).toBe(true);
  });

  it('keeps folders that still hold other routes or files', async () => {
    await page('/en/company');
    await page('/en/company/history');
    await removeRoute(host(), '/en/company');
    expect(await readdir(join(host(), 'en/company'))).toEqual(['history']);
  });

  it('never removes the host folder itself, even when it is left empty', async () => {
    await page('/en');
    await removeRoute(host(), '/en');
    expect(existsSync(host())).toBe(true);
    expect(await readdir(host())).toEqual([]);
  });

  it('never removes anything outside the host folder', async () => {
    await page('/en');
    await mkdir(join(root, 'empty-sibling'));
    await removeRoute(host(), '/../empty-sibling');
    await removeRoute(host(), '/en');
    expect(existsSync(join(root, 'empty-sibling'))).toBe(true);
    expect(existsSync(root)).toBe(true);
  });

  it('does nothing for a route that does not exist', async () => {
    await page('/en');
    await expect(removeRoute(host(), '/de/missing')).resolves.toBeUndefined();
    expect(existsSync(join(host(), 'en/index.html'))).toBe(true);
  });
});

describe('sitemapXml', () => {
  const xml = sitemapXml([
    {
      loc: 'https://komax.example/en/a?x=1&y=<2>',
      lastmod: '2026-01-01',
      alternates: [
        { hreflang: 'de-CH', href: 'https://komax.example/de-ch/a?x=1&y=2' },
        { hreflang: 'x-default', href: "https://komax.example/en/it's" },
      ],
    },
    { loc: 'https://komax.example/en', lastmod: '2026-02-01', alternates: [] },
  ]);

  it('declares the sitemap and xhtml namespaces', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">');
  });

  it('escapes URLs', () => {
    expect(xml).toContain('<loc>https://komax.example/en/a?x=1&amp;y=&lt;2&gt;</loc>');
    expect(xml).not.toContain('&y=');
  });

  it('lists hreflang alternates as xhtml:link elements', () => {
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="de-CH" href="https://komax.example/de-ch/a?x=1&amp;y=2"/>');
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="x-default" href="https://komax.example/en/it&apos;s"/>');
  });

  it('has one url element per entry with its lastmod', () => {
    expect(xml.match(/<url>/g)).toHaveLength(2);
    expect(xml).toContain('<url><loc>https://komax.example/en</loc><lastmod>2026-02-01</lastmod></url>');
  });
});

describe('robotsTxt', () => {
  it('keeps crawlers out of the api, customer area, editor and style guide and names the sitemap', () => {
    const txt = robotsTxt('https://komax.example');
    for (const line of ['Disallow: /api/', 'Disallow: /*/mykomax', 'Disallow: /*/editor', 'Disallow: /style-guide', 'Sitemap: https://komax.example/sitemap.xml']) {
      expect(txt).toContain(line);
    }
  });
});
