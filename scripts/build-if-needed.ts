import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const INPUTS = ['src', 'integrations', 'locales', 'public', 'astro.config.mjs', 'tsconfig.json', 'package-lock.json'];

/** A hash of everything the Astro build reads; unit tests beside sources do not count. */
export function sourceHash(root: string): string {
  const hash = createHash('sha256');
  const walk = (path: string) => {
    if (!existsSync(path)) return;
    let entries;
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      hash.update(relative(root, path)).update(readFileSync(path));
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(path, e.name);
      if (e.isDirectory()) walk(p);
      else if (!e.name.endsWith('.test.ts')) hash.update(relative(root, p)).update(readFileSync(p));
    }
  };
  for (const input of INPUTS) walk(join(root, input));
  return hash.digest('hex').slice(0, 16);
}

/** The build output folder: `DIST_DIR` (relative to the project) or `dist`. */
export function distDir(root: string): string {
  return resolve(root, process.env.DIST_DIR ?? 'dist');
}

/** Runs `astro build` unless dist/ was built from exactly these sources. Returns true when it built. */
export function buildIfNeeded(root: string, opts: { force?: boolean } = {}): boolean {
  const dist = distDir(root);
  const stamp = join(dist, '.source-hash');
  const current = sourceHash(root);
  if (!opts.force && existsSync(join(dist, 'server/entry.mjs')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === current) {
    console.log('build: dist/ is up to date');
    return false;
  }
  console.log('build: building the app (astro build)…');
  const res = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (res.status !== 0) throw new Error('astro build failed');
  writeFileSync(stamp, current);
  return true;
}
