export const LOG_LEVELS = ['none', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const MAX_VARIABLE_LENGTH = 50;

/** Logged request variables are truncated to 50 characters (spec §9). */
export function truncateVariables(variables: unknown): string {
  const text = JSON.stringify(variables ?? {});
  return text.length > MAX_VARIABLE_LENGTH ? `${text.slice(0, MAX_VARIABLE_LENGTH)}…` : text;
}

export interface Logger {
  error(msg: string): void;
  warn(msg: string): void;
  info(msg: string): void;
  debug(msg: string): void;
}

/** A console logger that prints only messages at or above `level`. */
export function createLogger(level: LogLevel, prefix: string, sink: Pick<Console, 'error' | 'warn' | 'info' | 'debug'> = console): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const at = (l: Exclude<LogLevel, 'none'>) => (msg: string) => {
    if (rank >= LOG_LEVELS.indexOf(l)) sink[l](`[${prefix}] ${msg}`);
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
