// Helpers the serving benchmarks share (bench:serve, bench:load): arguments, our server in a
// process of its own, waiting for it, and what /proc says about a process and the machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';

/** The value after `--name` on the command line, or the fallback. */
export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

/** True when `--name` is on the command line. */
export const flag = (name: string): boolean => process.argv.includes(`--${name}`);

/**
 * Our server (src/server/main.ts `startServer`) over `dist` in a process of its own, so the load
 * generator never shares its event loop; production mode, errors-only logging, on 127.0.0.1.
 */
export function spawnServer(opts: { root: string; dist: string; port: number; env?: Record<string, string | undefined>; execArgv?: string[] }): ChildProcess {
  return spawn(process.execPath, [...(opts.execArgv ?? []), '--input-type=module', '-e', `
    const { startServer } = await import(${JSON.stringify(join(opts.root, 'src/server/main.ts'))});
    await startServer({ distDir: ${JSON.stringify(opts.dist)} });
  `], {
    env: { ...process.env, ...opts.env, PORT: String(opts.port), HOST: '127.0.0.1', LOG_LEVEL: 'error', NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/**
 * One HTTP request over node:http, the body read and dropped. Not fetch: fetch replaces the Host
 * header, and the benchmarks address each site by its Host.
 */
export function send(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Resolves once `url` answers 2xx (polled every 100 ms, 30 s at most). */
export async function waitFor(url: string, headers: Record<string, string>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await send(url, { headers })).status < 300) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

/** The 1-minute load average: the machine may be shared, and numbers taken under load say little. */
export const loadNow = (): string => loadavg()[0]!.toFixed(2);

/** Resident set size of a process in MiB (`VmRSS` of /proc/<pid>/status), null off Linux or once it is gone. */
export function rssMiB(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system, ms) of a process, its threads and its descendants (nginx's workers), from /proc; null off Linux. */
export function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const own = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    // Fields 14 and 15 (utime, stime) in clock ticks, 100 per second on Linux.
    return (Number(own[11]) + Number(own[12])) * 10 + kids.reduce((n, k) => n + (cpuMs(k) ?? 0), 0);
  } catch {
    return null;
  }
}

/** The CPU time (ms) of several processes together (cpuMs), null when one cannot be read. */
export const cpuOf = (pids: (number | undefined)[]): number | null => pids.reduce<number | null>((n, p) => (n === null ? null : ((c) => (c === null ? null : n + c))(cpuMs(p))), 0);

/** Pads a table cell. */
export const pad = (s: string, n: number): string => s.padEnd(n);
