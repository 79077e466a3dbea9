import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressTree, removeCompressedSiblings, writeCompressedSiblings } from './compress.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'compress-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const page = (n: number) => `<!doctype html><main>${'<p>Wire processing machines</p>'.repeat(n)}</main>`;

describe('writeCompressedSiblings', () => {
  it('writes .br and .gz siblings that decompress to the file', async () => {
    const file = join(root, 'en/about-us/index.html');
    const html = page(100);
    expect(await writeCompressedSiblings(file, html)).toEqual(['br', 'gzip']);
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(html);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(html);
    expect(readFileSync(`${file}.br`).byteLength).toBeLessThan(html.length / 5);
  });

  it('writes none under 1 KB and removes the siblings an older, larger version left', async () => {
    const file = join(root, 'robots.txt');
    await writeCompressedSiblings(file, page(100));
    expect(existsSync(`${file}.br`)).toBe(true);
    expect(await writeCompressedSiblings(file, 'User-agent: *\n')).toEqual([]);
    expect([existsSync(`${file}.br`), existsSync(`${file}.gz`)]).toEqual([false, false]);
  });

  it('writes no sibling that is not smaller than the file (random bytes)', async () => {
    const file = join(root, 'noise.json');
    const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) % 251));
    const written = await writeCompressedSiblings(file, noise);
    for (const enc of ['br', 'gzip'] as const) {
      const sibling = `${file}.${enc === 'br' ? 'br' : 'gz'}`;
      if (written.includes(enc)) expect(readFileSync(sibling).byteLength).toBeLessThan(noise.byteLength);
      else expect(existsSync(sibling)).toBe(false);
    }
  });

  it('replaces siblings by new files, never in place (a hard-linked release copy keeps its own)', async () => {
    const file = join(root, 'a/index.html');
    await writeCompressedSiblings(file, page(100));
    const { link } = await import('node:fs/promises');
    await mkdir(join(root, 'b'), { recursive: true });
    await link(`${file}.br`, join(root, 'b/index.html.br'));
    await writeCompressedSiblings(file, page(200));
    expect(brotliDecompressSync(readFileSync(join(root, 'b/index.html.br'))).toString()).toBe(page(100));
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(page(200));
  });
});

describe('removeCompressedSiblings', () => {
  it('removes both siblings and tolerates missing ones', async () => {
    const file = join(root, 'x.json');
    await writeCompressedSiblings(file, page(50));
    await removeCompressedSiblings(file);
    await removeCompressedSiblings(file);
    expect([existsSync(`${file}.br`), existsSync(`${file}.gz`)]).toEqual([false, false]);
  });
});

describe('compressTree', () => {
  it('compresses the compressible files of a build and leaves binaries and small files alone', async () => {
    await mkdir(join(root, '_astro'), { recursive: true });
    await writeFile(join(root, '_astro/app.js'), `console.log(${JSON.stringify(page(60))});`);
    await writeFile(join(root, '_astro/app.css'), 'main{display:grid}'.repeat(100));
    await writeFile(join(root, 'logo.svg'), `<svg>${'<path d="M0 0h10v10z"/>'.repeat(80)}</svg>`);
    await writeFile(join(root, '_astro/photo.webp'), Buffer.alloc(4096, 7));
    await writeFile(join(root, 'tiny.js'), 'export{}');
    const t = await compressTree(root, { brotliQuality: 11 });
    expect(t.files).toBe(3);
    for (const f of ['_astro/app.js', '_astro/app.css', 'logo.svg']) {
      expect(brotliDecompressSync(readFileSync(join(root, `${f}.br`))).equals(readFileSync(join(root, f)))).toBe(true);
      expect(existsSync(join(root, `${f}.gz`))).toBe(true);
    }
    expect([existsSync(join(root, '_astro/photo.webp.br')), existsSync(join(root, 'tiny.js.br'))]).toEqual([false, false]);
    // A second run does not compress the siblings themselves.
    await compressTree(root);
    expect(existsSync(join(root, '_astro/app.js.br.br'))).toBe(false);
  });
});
