import { Writable } from 'node:stream';
import { createLogger, setRootLogger, type LogFormat, type LogLevel } from '../../src/lib/log/index.ts';

export interface CapturedLogs {
  /** The lines written so far, parsed (JSON format) . */
  readonly lines: Record<string, unknown>[];
  /** The raw text written so far. */
  text(): string;
  /** Puts the previous root logger back. */
  restore(): void;
}

/** For tests: makes every logger of the process write into memory until `restore()`. */
export function captureLogs(level: LogLevel = 'debug', opts: { format?: LogFormat; secrets?: string[] } = {}): CapturedLogs {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      raw.push(chunk.toString());
      done();
    },
  });
  const previous = setRootLogger(createLogger({ level, format: opts.format ?? 'json', secrets: opts.secrets, destination, colorize: false }));
  return {
    get lines() {
      return opts.format === 'pretty' ? [] : raw.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    text: () => raw.join(''),
    restore: () => { setRootLogger(previous); },
  };
}
