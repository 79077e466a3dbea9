// Runs nginx as the edge (nginx-config.ts) and keeps it on the live release: when the `live`
// pointer changes, a configuration for the new release is written and nginx reloaded gracefully.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { connect } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { readPointer } from '../release/release.ts';
import { DELIVERY } from '../prerender/policies.ts';
import { getLogger } from '../../lib/log/index.ts';
import { readEdgeRelease, SERVING_FILE, writeServing } from './edge-release.ts';
import { nginxConfig, workerNofileFrom, type EdgeConfigInput } from './nginx-config.ts';

const log = getLogger('edge');

export interface EdgeOptions {
  nginxPath: string;
  /** DIST_DIR: `static/` (the releases) and `client/` (the build's assets). */
  distDir: string;
  /** nginx's own folder (configuration, pid, logs, temporary files). */
  prefix: string;
  listen: { host: string; port: number };
  upstreams: number[];
  /** How often the live pointer is read besides the folder watch (ms). */
  pollMs?: number;
  /** The brotli_static module to load (scripts/system-package.ts ensureBrotliStatic); without, gzip only. */
  brotliModule?: string | null;
  /** The workers' nice value (EdgeConfigInput.workerPriority). */
  workerPriority?: number;
}

export interface RunningEdge {
  /** The release the running configuration serves (null: none published yet). */
  readonly release: string | null;
  /** Whether a client accepting br gets the `.br` siblings (the brotli_static module loaded). */
  readonly brotli: boolean;
  /** nginx's master process. */
  readonly process: ChildProcess;
  /** Resolves once nginx serves release `id` (its configuration loaded). */
  serving(id: string): Promise<void>;
  close(): Promise<void>;
}

/** Resolves once something accepts connections on host:port (polled, 30 s at most). */
export async function waitForPort(host: string, port: number, exited?: Promise<unknown>): Promise<void> {
  let gone = false;
  void exited?.then(() => { gone = true; });
  for (let i = 0; i < 300 && !gone; i++) {
    const open = await new Promise<boolean>((ok) => {
      const s = connect(port, host, () => { s.destroy(); ok(true); });
      s.once('error', () => ok(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(gone ? `the process meant to listen on ${host}:${port} exited` : `nothing listens on ${host}:${port}`);
}

/** nginx's worker processes (children of the master), from /proc. */
function workers(master: number | undefined): number[] {
  try {
    return readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** This process's resource limits (Linux), which nginx inherits; null elsewhere. */
function readLimits(): string | null {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
}

export async function startEdge(opts: EdgeOptions): Promise<RunningEdge> {
  const staticRoot = join(opts.distDir, 'static');
  const conf = join(opts.prefix, 'nginx.conf');
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(opts.prefix, 'tmp', d), { recursive: true });
  const base: Omit<EdgeConfigInput, 'release'> = {
    listen: opts.listen,
    upstreams: opts.upstreams,
    clientDir: join(opts.distDir, 'client'),
    prefix: opts.prefix,
    dynamicParams: DELIVERY.dynamicParams,
    dynamicCookies: DELIVERY.dynamicCookies,
    // nginx started as root runs its workers as another user: this one, so they read what it can.
    user: process.getuid?.() === 0 ? userInfo().username : undefined,
    brotliModule: opts.brotliModule ?? null,
    workerPriority: opts.workerPriority,
    workerNofile: workerNofileFrom(readLimits()),
  };
  /** Writes the configuration of release `id` (atomically: nginx may read it at any moment). */
  const write = (id: string | null): string | null => {
    const release = readEdgeRelease(staticRoot, id);
    writeFileSync(`${conf}.tmp`, nginxConfig({ ...base, release }));
    renameSync(`${conf}.tmp`, conf);
    return release?.id ?? null;
  };

  let current = write(readPointer(staticRoot));
  const child = spawn(opts.nginxPath, ['-p', opts.prefix, '-c', conf, '-e', join(opts.prefix, 'error.log')], { stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  await waitForPort(opts.listen.host, opts.listen.port, exited);
  const servingFile = join(opts.prefix, SERVING_FILE);
  writeServing(servingFile, current);

  const waiters: { id: string; ok: () => void }[] = [];
  let switching = Promise.resolve();
  /**
   * A new live release: its configuration, checked by nginx first (a bad one would be refused by
   * the reload anyway, and the old one kept), then SIGHUP: nginx starts workers with it and lets
   * the old ones finish the requests they have. Nothing is dropped; each request is answered
   * from one release. The old release stays on disk as `previous` meanwhile (release.ts).
   */
  const follow = () => {
    switching = switching.then(async () => {
      const live = readPointer(staticRoot);
      if (live === current || child.exitCode !== null) return;
      const id = write(live);
      const test = spawnSync(opts.nginxPath, ['-t', '-q', '-p', opts.prefix, '-c', conf, '-e', join(opts.prefix, 'error.log')], { encoding: 'utf8' });
      if (test.status !== 0) {
        log.error(`the edge configuration of release ${live} was refused by nginx: ${test.stderr.trim()}`);
        return;
      }
      const before = new Set(workers(child.pid));
      child.kill('SIGHUP');
      // Served once workers of the new configuration run and the old ones are gone: they answer
      // what they had (a keep-alive connection's request in flight too), then exit (10 s at most
      // waited for here: a slow render through an old worker does not hold up the switch).
      for (let i = 0; i < 400; i++) {
        const now = workers(child.pid);
        if (now.some((w) => !before.has(w)) && !now.some((w) => before.has(w))) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      current = id;
      writeServing(servingFile, id);
      log.info(`edge: serving release ${id}`);
      for (const w of waiters.splice(0)) if (w.id === id) w.ok(); else waiters.push(w);
    });
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(staticRoot, () => follow());
  } catch {
    // No static folder yet: the poll below sees the first release.
  }
  const poll = setInterval(follow, opts.pollMs ?? 500);
  poll.unref();

  return {
    get release() { return current; },
    brotli: !!opts.brotliModule,
    process: child,
    serving: (id) => (current === id ? switching : new Promise<void>((ok) => { waiters.push({ id, ok }); follow(); })),
    async close() {
      clearInterval(poll);
      watcher?.close();
      await switching;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}
