import { hostname } from 'node:os';
import { isatty } from 'node:tty';
import { isMainThread, threadId } from 'node:worker_threads';
import pino, { type DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import { currentRequestId } from './context.ts';
import { LOG_LEVEL_HINT, LOG_LEVEL_VALUES, parseLogLevel, type LogLevel, type MessageLevel } from './levels.ts';
import { REDACT_PATHS, REDACTED, redactValue, scrubText, secretsOf } from './redact.ts';

export { LOG_LEVELS, LOG_LEVEL_HINT, LOG_LEVEL_VALUES, isLevelEnabled, parseLogLevel, type LogLevel, type MessageLevel } from './levels.ts';
export { currentRequestId, runWithRequestContext, type RequestContext } from './context.ts';
export { redactValue, scrubText } from './redact.ts';
export { truncateVariables } from './truncate.ts';

/** `json`: one JSON object per line (production); `pretty`: readable lines (npm start). */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The server's level when LOG_LEVEL is not set. */
export const DEFAULT_LOG_LEVEL: LogLevel = 'warn';
export const DEFAULT_LOG_FORMAT: LogFormat = 'json';

export interface LogFn {
  (msg: string): void;
  (obj: object, msg?: string): void;
}

/** The server logger: the spec's four message levels, plus children that add fields to every line. */
export interface Logger {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
  child(bindings: Record<string, unknown>): Logger;
  isLevelEnabled(level: MessageLevel): boolean;
}

export interface LoggerOptions {
  level: LogLevel;
  format: LogFormat;
  /** Literal values that must never appear in a line (e.g. the revalidation secret). */
  secrets?: readonly string[];
  /** Where lines go; stdout (synchronously) by default. */
  destination?: DestinationStream;
  /** Colours in `pretty` lines; defaults to whether stdout (fd 1, also from a worker thread) is a terminal. */
  colorize?: boolean;
}

const CUSTOM_LEVELS = { error: LOG_LEVEL_VALUES.error, warn: LOG_LEVEL_VALUES.warn, info: LOG_LEVEL_VALUES.info, debug: LOG_LEVEL_VALUES.debug };

/**
 * A root logger (pino) with the spec's levels: a message is written when its level's number is
 * at most the configured one; `none` writes nothing. Every line carries the id of the request
 * being handled (`reqId`) and, in a worker thread, the thread id; values under sensitive keys,
 * secrets in messages and the configured secret values are replaced by "[redacted]".
 */
export function createLogger(opts: LoggerOptions): Logger {
  const secrets = opts.secrets ?? [];
  const destination = opts.format === 'pretty'
    ? pretty({
      sync: true,
      destination: opts.destination ?? 1,
      colorize: opts.colorize ?? isatty(1),
      customLevels: CUSTOM_LEVELS,
      customColors: 'error:red,warn:yellow,info:green,debug:blue',
      useOnlyCustomProps: true,
      translateTime: 'SYS:HH:MM:ss.l',
      // The fields of the request line are in its message already.
      ignore: 'pid,hostname,thread,component,reqId,levelValue,method,path,status,ms,aborted',
      messageFormat: '{if component}[{component}] {end}{msg}{if reqId} (request {reqId}){end}{if thread} (thread {thread}){end}',
    })
    : opts.destination ?? pino.destination({ dest: 1, sync: true });
  const root = pino<MessageLevel, true>({
    level: opts.level === 'none' ? 'silent' : opts.level,
    customLevels: CUSTOM_LEVELS,
    useOnlyCustomLevels: true,
    // Smaller numbers are more severe; 'silent' (none) lets nothing through.
    levelComparison: (message: number, configured: number) => configured !== Infinity && message <= configured,
    base: isMainThread ? { pid: process.pid, hostname: hostname() } : { pid: process.pid, hostname: hostname(), thread: threadId },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    mixin: () => {
      const reqId = currentRequestId();
      return reqId ? { reqId } : {};
    },
    formatters: {
      level: (label, value) => ({ level: label, levelValue: value }),
      log: (obj) => redactValue(obj, secrets) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        const safe = (args as unknown[]).map((a) => (typeof a === 'string' ? scrubText(a, secrets) : a));
        return method.apply(this, safe as Parameters<typeof method>);
      },
    },
  }, destination);
  return root as unknown as Logger;
}

/** Logger options from the environment: LOG_LEVEL (name or number), LOG_FORMAT, secrets; plus what was wrong with them. */
export function logOptionsFromEnv(env: Record<string, string | undefined>): LoggerOptions & { problems: string[] } {
  const problems: string[] = [];
  let level = DEFAULT_LOG_LEVEL;
  if (env.LOG_LEVEL) {
    const parsed = parseLogLevel(env.LOG_LEVEL);
    if (parsed) level = parsed;
    else problems.push(`LOG_LEVEL must be ${LOG_LEVEL_HINT}; using ${DEFAULT_LOG_LEVEL}`);
  }
  let format = DEFAULT_LOG_FORMAT;
  if (env.LOG_FORMAT) {
    if ((LOG_FORMATS as readonly string[]).includes(env.LOG_FORMAT)) format = env.LOG_FORMAT as LogFormat;
    else problems.push(`LOG_FORMAT must be ${LOG_FORMATS.join(' or ')}; using ${DEFAULT_LOG_FORMAT}`);
  }
  if (env.CONTENT_LOG_LEVEL) problems.push('CONTENT_LOG_LEVEL is no longer read: set LOG_LEVEL, which applies to the whole server');
  return { level, format, secrets: secretsOf(env), problems };
}

// One root per process (per thread), shared through globalThis like the request context: the
// server runs this module from source and the built app bundles its own copy.
const ROOT = Symbol.for('komax.log.root');
const slot = globalThis as unknown as Record<symbol, Logger | undefined>;

/** The process's root logger, configured from the environment on first use. */
export function rootLogger(): Logger {
  let root = slot[ROOT];
  if (!root) {
    const { problems, ...opts } = logOptionsFromEnv(process.env);
    root = slot[ROOT] = createLogger(opts);
    if (isMainThread) for (const p of problems) root.warn({ component: 'log' }, p);
  }
  return root;
}

/** Replaces the process's root logger (tests capture lines this way); returns the one it replaced. */
export function setRootLogger(logger: Logger | undefined): Logger | undefined {
  const previous = slot[ROOT];
  slot[ROOT] = logger;
  return previous;
}

/**
 * The logger of one part of the server (`[content]`, `[revalidate]` …). Cheap to call at module
 * level: the root is only created when the first line is logged, after the entry script has set
 * the environment.
 */
export function getLogger(component: string): Logger {
  let child: Logger | undefined;
  let parent: Logger | undefined;
  const get = (): Logger => {
    const root = rootLogger();
    if (root !== parent || !child) {
      parent = root;
      child = root.child({ component });
    }
    return child;
  };
  const at = (level: MessageLevel): LogFn => ((...args: [object | string, string?]) => (get()[level] as (...a: unknown[]) => void)(...args)) as LogFn;
  return {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    child: (bindings) => get().child(bindings),
    isLevelEnabled: (level) => get().isLevelEnabled(level),
  };
}
