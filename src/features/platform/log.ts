import { isLevelEnabled, parseLogLevel, type LogLevel, type MessageLevel } from '../../lib/log/levels.ts';

/**
 * The browser's logger. It prints nothing by default (the spec's default level is none); a
 * developer switches it on per browser with `localStorage.setItem('logLevel', 'debug')` (a name
 * or a number from 0 to 100, like the server's LOG_LEVEL) and off again with
 * `localStorage.removeItem('logLevel')`. The level is read on every call, so no reload is needed.
 */
export const LOG_LEVEL_STORAGE_KEY = 'logLevel';

export type BrowserLogFn = (message: string, ...details: unknown[]) => void;
export type BrowserLogger = Record<MessageLevel, BrowserLogFn>;

type Sink = Pick<Console, MessageLevel>;

/** The configured browser level: the stored one when valid, else none. */
export function browserLogLevel(storage: Pick<Storage, 'getItem'> | null | undefined = safeLocalStorage()): LogLevel {
  try {
    return parseLogLevel(storage?.getItem(LOG_LEVEL_STORAGE_KEY)) ?? 'none';
  } catch {
    return 'none';
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** A logger for one part of the page (`[basket]` …) that prints at or within the browser level. */
export function browserLogger(scope: string, opts: { level?: () => LogLevel; sink?: Sink } = {}): BrowserLogger {
  const level = opts.level ?? (() => browserLogLevel());
  const at = (l: MessageLevel): BrowserLogFn => (message, ...details) => {
    if (isLevelEnabled(l, level())) (opts.sink ?? console)[l](`[${scope}] ${message}`, ...details);
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
