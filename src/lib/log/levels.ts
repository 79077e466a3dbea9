/**
 * The spec's log levels (customer-area spec §9): none 0, error 25, warn 50, info 75, debug 100.
 * The number is a verbosity: a message is printed when its level's number is at most the
 * configured one. Pure, so the browser logger shares it with the server.
 */
export const LOG_LEVELS = ['none', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** The levels a message can have. */
export type MessageLevel = Exclude<LogLevel, 'none'>;

export const LOG_LEVEL_VALUES: Readonly<Record<LogLevel, number>> = { none: 0, error: 25, warn: 50, info: 75, debug: 100 };

/** What LOG_LEVEL accepts, for error messages. */
export const LOG_LEVEL_HINT = `one of ${LOG_LEVELS.join(', ')} or a number from 0 to 100 (${LOG_LEVELS.map((l) => `${l} ${LOG_LEVEL_VALUES[l]}`).join(', ')})`;

/**
 * A configured level from a name (any case) or a number from 0 to 100; a number between two
 * levels means the lower one (60 prints errors and warnings: warn). Undefined when malformed.
 */
export function parseLogLevel(input: string | number | null | undefined): LogLevel | undefined {
  if (input === null || input === undefined) return undefined;
  const text = String(input).trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(text)) return text as LogLevel;
  if (!/^\d{1,3}$/.test(text)) return undefined;
  const n = Number(text);
  if (n > 100) return undefined;
  let level: LogLevel = 'none';
  for (const l of LOG_LEVELS) if (LOG_LEVEL_VALUES[l] <= n) level = l;
  return level;
}

/** Whether a message of `message` level is printed at the configured level. */
export function isLevelEnabled(message: MessageLevel, configured: LogLevel): boolean {
  return configured !== 'none' && LOG_LEVEL_VALUES[message] <= LOG_LEVEL_VALUES[configured];
}
