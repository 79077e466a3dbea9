import { browserLogger } from './log.ts';

const log = browserLogger('app');

/** A failed chunk load reloads the page at most once per path within this time (spec §8, §9). */
export const RELOAD_GUARD_MS = 10_000;
const KEY = 'komax:chunk-reload';

/** Decides whether to reload now; remembers the reload per path in sessionStorage. */
export function shouldReload(storage: Pick<Storage, 'getItem' | 'setItem'>, path: string, now: number): boolean {
  let seen: Record<string, number> = {};
  try {
    seen = JSON.parse(storage.getItem(KEY) ?? '{}') as Record<string, number>;
  } catch {
    seen = {};
  }
  const last = seen[path];
  if (last !== undefined && now - last < RELOAD_GUARD_MS) return false;
  seen[path] = now;
  storage.setItem(KEY, JSON.stringify(seen));
  return true;
}

const isChunkError = (message: string) => /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(message);

/** Reloads once when a script chunk (e.g. of a previous release) can no longer be loaded. */
export function reloadOnChunkError(): void {
  const handle = (message: string) => {
    if (!isChunkError(message)) return;
    if (shouldReload(sessionStorage, location.pathname, Date.now())) location.reload();
    else log.warn('Error while mounting app: a script could not be loaded');
  };
  window.addEventListener('vite:preloadError', (e) => { e.preventDefault(); handle('Failed to fetch dynamically imported module'); });
  window.addEventListener('unhandledrejection', (e) => handle(String((e.reason as Error)?.message ?? e.reason)));
}
