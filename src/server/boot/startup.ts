import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { contentConfig, type ServerEnv } from './env.ts';
import { StaticSite } from '../delivery/static-site.ts';
import { newestCompleteRelease } from '../release/release.ts';
import { getSystemData } from '../../lib/content/index.ts';

/**
 * Whether dist/static holds a published release of at least one host (something to serve): the
 * live one, or, when the live pointer is broken, a complete release the start falls back to (repairLive).
 */
export function hasPublishedRelease(distDir: string): boolean {
  return hasLiveHost(distDir) || newestCompleteRelease(join(distDir, 'static')) !== null;
}

function hasLiveHost(distDir: string): boolean {
  // The host trees of the live release (through its pointer).
  const site = new StaticSite(join(distDir, 'static'));
  let hosts: string[];
  try {
    hosts = readdirSync(site.root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return false;
  }
  return hosts.some((host) => site.load(host) !== null);
}

/** Asks the content hub for its system data (with the configured timeouts): null when it answers, else the error. */
export async function probeContentHub(env: ServerEnv): Promise<Error | null> {
  try {
    await getSystemData({ config: contentConfig(env), locales: ['en'], stage: 'PUBLISHED' });
    return null;
  } catch (err) {
    return err as Error;
  }
}

/** What `npm start` and `npm run serve` say when the content hub is down and nothing was ever published. */
export function cannotStartMessage(env: ServerEnv, err: Error, distDir: string): string {
  return `Cannot start: the content hub at ${env.CONTENT_ENDPOINT} is unreachable (${err.message}), `
    + `and ${join(distDir, 'static')} holds no published release to serve until it is back. `
    + 'Start the content hub (or point CONTENT_ENDPOINT at one) and try again.';
}

/** The warning when the server starts on the previous release because the content hub is down. */
export function servingPreviousMessage(env: ServerEnv, err: Error): string {
  return `[start] the content hub at ${env.CONTENT_ENDPOINT} is unreachable (${err.message}): `
    + 'serving the previous release; the revalidation is retried in the background until it succeeds.';
}

export const RETRY_FIRST_MS = 5000;
export const RETRY_MAX_MS = 5 * 60 * 1000;

/**
 * Runs `attempt` until it succeeds: again after 5 s, then after twice as long each time, at most
 * every 5 minutes. `stop()` ends it (on shutdown).
 */
export function retryWithBackoff(
  attempt: () => Promise<unknown>,
  opts: { firstMs?: number; maxMs?: number; onFailure?: (err: Error, nextInMs: number) => void; onSuccess?: () => void } = {},
): { stop(): void; done: Promise<void> } {
  const max = opts.maxMs ?? RETRY_MAX_MS;
  let delay = opts.firstMs ?? RETRY_FIRST_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let finish: () => void = () => {};
  const done = new Promise<void>((ok) => { finish = ok; });
  const schedule = () => {
    timer = setTimeout(async () => {
      if (stopped) return;
      try {
        await attempt();
        if (stopped) return;
        opts.onSuccess?.();
        finish();
      } catch (err) {
        if (stopped) return;
        delay = Math.min(delay * 2, max);
        opts.onFailure?.(err as Error, delay);
        schedule();
      }
    }, delay);
    timer.unref?.();
  };
  schedule();
  return {
    stop: () => { stopped = true; clearTimeout(timer); finish(); },
    done,
  };
}
