import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { makeRouteFolder, writeReleaseFile } from './write.ts';

const page = `<!doctype html><title>x</title>${'<p>Wire processing</p>'.repeat(200)}`;

describe('release writes', () => {
  it('a new route: its folder is made and reported fresh, its file and siblings written', async () => {
    const root = mkdtempSync(join(tmpdir(), 'write-'));
    const dir = join(root, 'en/products/kappa-310');
    expect(await makeRouteFolder(dir)).toBe(true);
    expect(await makeRouteFolder(dir)).toBe(false);
    await writeReleaseFile(join(dir, 'index.html'), page, { fresh: true });
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toBe(page);
    expect(gunzipSync(readFileSync(join(dir, 'index.html.gz'))).toString()).toBe(page);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
  });

  it('never writes into a file hard-linked from the live release, fresh or not', async () => {
    const root = mkdtempSync(join(tmpdir(), 'write-'));
    const live = join(root, 'live');
    const next = join(root, 'next');
    mkdirSync(live);
    mkdirSync(next);
    for (const name of ['index.html', 'index.html.br', 'index.html.gz']) {
      writeFileSync(join(live, name), `live ${name}`);
      linkSync(join(live, name), join(next, name));
    }
    // A route wrongly taken for new: the exclusive create finds the link and replaces it instead.
    await writeReleaseFile(join(next, 'index.html'), page, { fresh: true });
    for (const name of ['index.html', 'index.html.br', 'index.html.gz']) expect(readFileSync(join(live, name), 'utf8')).toBe(`live ${name}`);
    expect(readFileSync(join(next, 'index.html'), 'utf8')).toBe(page);
    await writeReleaseFile(join(next, 'index.html'), 'small');
    expect(readFileSync(join(live, 'index.html'), 'utf8')).toBe('live index.html');
    expect(readFileSync(join(next, 'index.html'), 'utf8')).toBe('small');
    // Under 1 KB a file has no siblings: the old ones are gone.
    expect(existsSync(join(next, 'index.html.gz'))).toBe(false);
  });
});
