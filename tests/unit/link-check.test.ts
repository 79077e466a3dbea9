import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answeredByFile, collectTargets, decodeAttribute, internalTarget, linkTargets, readRelease } from '../e2e/fixtures/link-check.ts';

// The link check's reading of a release (tests/e2e/link-check.spec.ts): what it takes from HTML,
// what counts as internal, and what it leaves to the server.

const dist = mkdtempSync(join(tmpdir(), 'link-check-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(join(dist, path, '..'), { recursive: true });
  writeFileSync(join(dist, path), text);
};
const live = 'static/live';
write(`${live}/hosts.json`, JSON.stringify({ main: 'localhost', hosts: { localhost: 'http://localhost:4800', 'events.localhost': 'http://events.localhost:4800' } }));
for (const [host, routes] of [['localhost', ['/en', '/en/products']], ['events.localhost', ['/en']]] as const) {
  write(`${live}/${host}/builds/latest.json`, JSON.stringify({ id: 'r1' }));
  write(`${live}/${host}/builds/meta/r1.json`, JSON.stringify({ id: 'r1', routes: Object.fromEntries(routes.map((r) => [r, {}])) }));
}
write(`${live}/localhost/sitemap.xml`, '<urlset/>');
write('client/favicon.svg', '<svg/>');
write(`${live}/localhost/en/index.html`, [
  '<link rel="icon" href="/favicon.svg"><a href="/en/products">ok</a><a href="/en/products/gamma-333-pc">gone</a>',
  '<a href="#main">skip</a><a href="mailto:x@example.com">mail</a><a href="https://www.linkedin.com/x">out</a>',
  '<a href="http://events.localhost:4800/en/mykomax">other host</a><img src="/_image?href=a&amp;w=1" srcset="/_image?href=a&amp;w=1 1x, /_image?href=a&amp;w=2 2x">',
  '<a href="/en/stories?page=2">query</a><a data-href="/en/not-a-link">',
].join(''));
write(`${live}/events.localhost/en/index.html`, '<a href="/en/products">events catalogue</a>');

describe('link check', () => {
  it('takes href, src and every srcset candidate, decoded; no fragments', () => {
    expect(linkTargets('<a href="/a?x=1&amp;y=2">a</a><img src="/i.png" srcset="/i1.png 1x, /i2.png 2x"><a href="#top">')).toEqual(['/a?x=1&y=2', '/i.png', '/i1.png', '/i2.png']);
    expect(linkTargets('<div data-href="/no"></div>')).toEqual([]);
    expect(decodeAttribute('&#x2F;a&#47;b&quot;')).toBe('/a/b"');
  });

  it('keeps links to the release\'s hosts only, each once per host and path, with how many pages link it', () => {
    const tree = readRelease(dist);
    const { documents, targets } = collectTargets(tree);
    expect(documents).toBe(2);
    expect([...targets.keys()].sort()).toEqual([
      'events.localhost/en/mykomax', 'events.localhost/en/products', 'localhost/_image?href=a&w=1', 'localhost/_image?href=a&w=2',
      'localhost/en/products', 'localhost/en/products/gamma-333-pc', 'localhost/en/stories?page=2', 'localhost/favicon.svg',
    ]);
    expect(targets.get('localhost/en/products')).toMatchObject({ pages: 1, from: 'http://localhost:4800/en' });
    expect(internalTarget(tree, new URL('http://localhost:4800/en'), 'https://www.linkedin.com/x')).toBeNull();
  });

  it('answers from the release\'s files what the server would serve from them; the rest is asked of the server', () => {
    const tree = readRelease(dist);
    const fromFile = (host: string, path: string) => answeredByFile(tree, { host, path });
    expect(fromFile('localhost', '/en/products')).toBe(true);
    expect(fromFile('localhost', '/sitemap.xml')).toBe(true);
    expect(fromFile('localhost', '/favicon.svg')).toBe(true);
    // A route of another host, a missing route, a query, the image endpoint: the server's to answer.
    expect(fromFile('events.localhost', '/en/products')).toBe(false);
    expect(fromFile('localhost', '/en/products/gamma-333-pc')).toBe(false);
    expect(fromFile('localhost', '/en/products?x=1')).toBe(false);
    expect(fromFile('localhost', '/_image?href=a&w=1')).toBe(false);
  });
});
