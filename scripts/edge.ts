// The edge topology on one machine: WORKERS Node instances (src/server/main.ts, each on its own
// loopback port, over the same DIST_DIR) behind nginx (src/server/edge/). Used by
// npm run start:edge, the serving benchmarks and the edge e2e spec.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { startEdge, waitForPort, type RunningEdge } from '../src/server/edge/nginx.ts';
import { CO_LOCATED_WORKER_PRIORITY, workerPriorityFrom } from '../src/server/edge/nginx-config.ts';
import { SERVING_FILE } from '../src/server/edge/edge-release.ts';
import { ensureBrotliStatic } from './system-package.ts';

export interface Instance {
  port: number;
  process: ChildProcess;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
}

/** One Node instance: `node src/server/main.ts` with its own PORT (the rest of the environment shared). */
export function spawnInstance(opts: { root: string; dist: string; port: number; env?: Record<string, string | undefined>; quiet?: boolean; logFile?: string }): Instance {
  // Its log (standard output): to `logFile` (appended), dropped when quiet, else this process's.
  const out = opts.logFile ? openSync(opts.logFile, 'a') : opts.quiet ? 'ignore' : 'inherit';
  const child = spawn(process.execPath, [join(opts.root, 'src/server/main.ts')], {
    cwd: opts.root,
    env: { ...process.env, ...opts.env, DIST_DIR: opts.dist, PORT: String(opts.port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, 'inherit'],
  });
  if (typeof out === 'number') closeSync(out);
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  return { port: opts.port, process: child, exited };
}

export interface RunningCluster {
  instances: Instance[];
  edge: RunningEdge;
  /** Starts the instance on `port` again, with the environment the cluster gave it (after it exited). */
  respawn(port: number): Instance;
  close(): Promise<void>;
}

/**
 * `workers` instances on the ports below the edge's (`port - 1`, `port - 2`, …) and nginx on
 * `port`; resolves once all listen. The instances get PUBLIC_PORT = the edge's port, so what they
 * render names the address visitors use, and TRUST_PROXY=loopback, so a visitor's rate limits
 * count the address nginx forwards (X-Forwarded-For), not nginx's own.
 */
export async function startCluster(opts: {
  root: string; dist: string; nginxPath: string; prefix: string;
  host?: string; port: number; workers: number; upstreamPorts?: number[];
  env?: Record<string, string | undefined>; quiet?: boolean;
  /** Where the instances' logs go (appended), instead of this process's output. */
  logFile?: string;
  /** The brotli_static module (default: Debian's, installed when missing and loadable by this nginx; null: gzip only). */
  brotliModule?: string | null;
  /** nginx's workers' nice value (default EDGE_WORKER_PRIORITY, else CO_LOCATED_WORKER_PRIORITY: the instances run on the same cores). */
  workerPriority?: number;
}): Promise<RunningCluster> {
  const host = opts.host ?? '127.0.0.1';
  const ports = opts.upstreamPorts ?? Array.from({ length: opts.workers }, (_, i) => opts.port - 1 - i);
  // EDGE_SERVING_FILE: a revalidation answers once the edge serves its release (edge-release.ts).
  const env = { PUBLIC_PORT: String(opts.port), TRUST_PROXY: 'loopback', EDGE_SERVING_FILE: join(opts.prefix, SERVING_FILE), ...opts.env };
  const respawn = (port: number) => spawnInstance({ root: opts.root, dist: opts.dist, port, env, quiet: opts.quiet, logFile: opts.logFile });
  const instances = ports.map(respawn);
  const close = async () => {
    await edge?.close();
    for (const i of instances) if (i.process.exitCode === null && i.process.signalCode === null) i.process.kill('SIGTERM');
    await Promise.all(instances.map((i) => i.exited));
  };
  let edge: RunningEdge | undefined;
  try {
    await Promise.all(instances.map((i) => waitForPort('127.0.0.1', i.port, i.exited)));
    edge = await startEdge({ nginxPath: opts.nginxPath, distDir: opts.dist, prefix: opts.prefix, listen: { host, port: opts.port }, upstreams: ports, brotliModule: opts.brotliModule === undefined ? ensureBrotliStatic(opts.nginxPath) : opts.brotliModule,
      workerPriority: opts.workerPriority ?? workerPriorityFrom(process.env.EDGE_WORKER_PRIORITY, CO_LOCATED_WORKER_PRIORITY),
    });
  } catch (err) {
    await close();
    throw err;
  }
  return { instances, edge, respawn, close };
}
