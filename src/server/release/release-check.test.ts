import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLogs } from '../../../tests/support/log.ts';
import { damagedFiles, reportLiveDamage, routeFilesIntact } from './release-check.ts';
import { publishRelease, releaseDir } from './release.ts';

let root: string;
beforeEach(async () => { root = await mkdtemp(join(tmpdir(), 'release-check-')); });
afterEach(() => rm(root, { recursive: true, force: true }));

const ID = 'aaaaaaaa0001';
const put = async (rel: string, text: string) => {
  const file = join(releaseDir(root, ID), rel);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, text);
  return Buffer.byteLength(text);
};

/** A release as the prerender writes it: pages with siblings, meta and latest.json with their sizes recorded. */
async function writeRelease(opts: { sizes?: boolean } = {}) {
  const routes: Record<string, unknown> = {};
  for (const path of ['/en', '/en/about-us']) {
    const html = await put(`localhost${path}/index.html`, `<p>${path}</p>`.repeat(100));
    const br = await put(`localhost${path}/index.html.br`, 'br'.repeat(20));
    routes[path] = { fingerprint: 'f', csp: null, ...(opts.sizes === false ? {} : { sizes: [html, br, 0] }) };
  }
  const meta = await put(`localhost/builds/meta/${ID}.json`, JSON.stringify({ id: ID, timestamp: '', appBuildId: 'b', routes, redirects: [] }));
  const latest = await put('localhost/builds/latest.json', JSON.stringify({ id: ID, timestamp: '' }));
  const sizes = opts.sizes === false ? {} : { sizes: { [`localhost/builds/meta/${ID}.json`]: meta, 'localhost/builds/latest.json': latest } };
  await put('hosts.json', JSON.stringify({ main: 'localhost', hosts: { localhost: 'http://localhost:4321' }, ...sizes }));
  await publishRelease(root, ID);
}
const at = (rel: string) => join(releaseDir(root, ID), rel);

describe('damaged files of a release', () => {
  it('finds none in a release as written', async () => {
    await writeRelease();
    expect(damagedFiles(root, ID)).toEqual([]);
    expect(routeFilesIntact(at('localhost/en'), [1000, 40, 0])).toBe(true);
  });

  it('finds a page, a sibling, latest.json and the meta cut short, and a page gone', async () => {
    await writeRelease();
    await truncate(at('localhost/en/index.html'), 100);
    await truncate(at('localhost/en/about-us/index.html.br'), 3);
    expect(routeFilesIntact(at('localhost/en'), [1000, 40, 0])).toBe(false);
    expect(damagedFiles(root, ID)).toEqual([
      'localhost/en/index.html: 100 bytes, 1000 written',
      'localhost/en/about-us/index.html.br: 3 bytes, 40 written',
    ]);
    await truncate(at('localhost/builds/latest.json'), 5);
    await truncate(at(`localhost/builds/meta/${ID}.json`), 50);
    expect(damagedFiles(root, ID)).toEqual([
      expect.stringMatching(/^localhost\/builds\/meta\/aaaaaaaa0001\.json: 50 bytes, \d+ written$/),
      expect.stringMatching(/^localhost\/builds\/latest\.json: 5 bytes, \d+ written$/),
    ]);
  });

  it('without recorded sizes (an older release) finds only pages that are gone', async () => {
    await writeRelease({ sizes: false });
    await truncate(at('localhost/en/index.html'), 100);
    await rm(at('localhost/en/about-us/index.html'));
    expect(damagedFiles(root, ID)).toEqual(['localhost/en/about-us/index.html: missing']);
  });

  it('logs them as an error at start, naming the release and the files', async () => {
    const logs = captureLogs('debug');
    try {
      await writeRelease();
      expect(reportLiveDamage(root)).toEqual([]);
      expect(logs.lines.filter((l) => l.level === 'error')).toEqual([]);
      await truncate(at('localhost/en/about-us/index.html'), 10);
      expect(reportLiveDamage(root)).toHaveLength(1);
      const [line] = logs.lines.filter((l) => l.level === 'error');
      expect(line).toMatchObject({ component: 'static', release: ID, damaged: 1 });
      expect(line!.msg).toMatch(/the live release aaaaaaaa0001 has 1 damaged file.*localhost\/en\/about-us\/index\.html: 10 bytes, 1900 written.*next prerender renders them again/);
    } finally {
      logs.restore();
    }
  });
});
