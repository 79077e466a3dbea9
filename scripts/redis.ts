// A real redis-server on loopback: for npm run start:edge (when REDIS_URL is unset) and the shared-state tests.
// Found on PATH, else installed from Debian's package when running as root on Debian (as
// scripts/browser.ts does for Chromium), else the tests that need it are skipped with the reason.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { aptInstallCommand, isDebian, isExecutable, isRoot } from './system-package.ts';

/** Where redis-server usually lives when it is not on PATH (Debian's package first). */
export const REDIS_SERVER_PATHS = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];

/** redis-server on PATH or in a usual place, or null. */
export function findRedisServer(path = process.env.PATH ?? ''): string | null {
  const onPath = path.split(delimiter).filter(Boolean).map((dir) => join(dir, 'redis-server'));
  return [...onPath, ...REDIS_SERVER_PATHS].find((p) => isExecutable(p)) ?? null;
}

/** Either the redis-server to run, or why the tests that need one are skipped. */
export type RedisServerChoice = { path: string } | { skip: string };

/**
 * redis-server, installed first when it is missing and this is root on Debian (one install at a
 * time on the machine: test files run in parallel). When none can be had, says why (printed once).
 */
export function ensureRedisServer(): RedisServerChoice {
  const found = findRedisServer();
  if (found) return { path: found };
  if (isRoot() && isDebian()) {
    console.log('shared-state tests: no redis-server found; installing the Debian package "redis-server" (apt-get update first)');
    // flock: another test file may be installing it right now; the second one then finds it.
    const script = `command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ] || (${aptInstallCommand(['redis-server'])})`;
    spawnSync('flock', ['/tmp/kmx-redis-server-install.lock', 'sh', '-c', script], { stdio: 'inherit', timeout: 10 * 60_000 });
    const installed = findRedisServer();
    if (installed) return { path: installed };
  }
  const skip = 'shared-state tests against Redis skipped: no redis-server found and none could be installed (install the Debian package "redis-server", or put redis-server on PATH)';
  console.warn(skip);
  return { skip };
}

/** A loopback port nothing listens on (at the moment of asking). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });
}

export interface RunningRedis {
  url: string;
  port: number;
  /** Stops the server (SIGTERM, waits for it to exit) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` on a free loopback port, without persistence, in a folder of its own;
 * resolves once it accepts connections (rejects with its output if it exits first).
 */
export async function startRedis(serverPath: string): Promise<RunningRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'kmx-redis-'));
  const child = spawn(serverPath, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  let output = '';
  await new Promise<void>((ok, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) ok();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', fail);
    void exited.then(() => fail(new Error(`redis-server exited before it was ready:\n${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
