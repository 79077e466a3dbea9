import { lstat, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceAtomic, writeAtomic } from './atomic.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'atomic-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('writeAtomic', () => {
  it('creates the folders and writes the file', async () => {
    const file = join(root, 'localhost/en/about-us/index.html');
    await writeAtomic(file, '<h1>About</h1>');
    expect(await readFile(file, 'utf8')).toBe('<h1>About</h1>');
  });

  it('replaces an existing file and leaves no temporary file behind', async () => {
    const file = join(root, 'localhost/builds/latest.json');
    await writeAtomic(file, '{"id":"b1"}');
    await writeAtomic(file, Buffer.from('{"id":"b2"}'));
    expect(await readFile(file, 'utf8')).toBe('{"id":"b2"}');
    expect(await readdir(join(root, 'localhost/builds'))).toEqual(['latest.json']);
  });

  it('keeps the last of several concurrent writes whole', async () => {
    const file = join(root, 'localhost/sitemap.xml');
    const bodies = Array.from({ length: 20 }, (_, i) => `body-${i}-${'x'.repeat(10_000)}`);
    await Promise.all(bodies.map((b) => writeAtomic(file, b)));
    expect(bodies).toContain(await readFile(file, 'utf8'));
    expect(await readdir(join(root, 'localhost'))).toEqual(['sitemap.xml']);
  });
});

describe('replaceAtomic', () => {
  it('swaps a symlink for a new one in one rename', async () => {
    const link = join(root, 'live');
    await symlink('releases/a', link);
    await replaceAtomic(link, (tmp) => symlink('releases/b', tmp));
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe('releases/b');
    expect(await readdir(root)).toEqual(['live']);
  });

  it('removes the temporary entry and keeps the target when creating it fails', async () => {
    const file = join(root, 'data.json');
    await writeFile(file, 'old');
    const failing = replaceAtomic(file, async (tmp) => {
      await writeFile(tmp, 'half');
      throw new Error('disk full');
    });
    await expect(failing).rejects.toThrow('disk full');
    expect(await readFile(file, 'utf8')).toBe('old');
    expect(await readdir(root)).toEqual(['data.json']);
  });
});
