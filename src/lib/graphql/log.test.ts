import { describe, expect, it, vi } from 'vitest';
import { createLogger, LOG_LEVELS, truncateVariables, type LogLevel } from './log.ts';

const sink = () => ({ error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() });

const emitted = (level: LogLevel) => {
  const s = sink();
  const log = createLogger(level, 'content', s);
  log.error('e');
  log.warn('w');
  log.info('i');
  log.debug('d');
  return (['error', 'warn', 'info', 'debug'] as const).filter((l) => s[l].mock.calls.length > 0);
};

describe('createLogger levels', () => {
  it('orders the levels none < error < warn < info < debug', () => {
    expect(LOG_LEVELS).toEqual(['none', 'error', 'warn', 'info', 'debug']);
  });

  it.each([
    ['none', []],
    ['error', ['error']],
    ['warn', ['error', 'warn']],
    ['info', ['error', 'warn', 'info']],
    ['debug', ['error', 'warn', 'info', 'debug']],
  ] as const)('at %s prints %j', (level, expected) => {
    expect(emitted(level)).toEqual(expected);
  });

  it('prefixes messages and sends each to its own console method', () => {
    const s = sink();
    createLogger('debug', 'content', s).warn('slow answer');
    expect(s.warn).toHaveBeenCalledWith('[content] slow answer');
    expect(s.error).not.toHaveBeenCalled();
  });
});

describe('truncateVariables', () => {
  it('prints short variables whole', () => {
    expect(truncateVariables({ id: 'abc' })).toBe('{"id":"abc"}');
    expect(truncateVariables(undefined)).toBe('{}');
  });

  it('keeps only the first 50 characters of long variables', () => {
    const variables = { slug: 'x'.repeat(200), locale: 'de-CH' };
    const json = JSON.stringify(variables);
    const out = truncateVariables(variables);
    expect(out.startsWith(json.slice(0, 50))).toBe(true);
    expect(out).not.toContain(json.slice(0, 51));
    expect(out).not.toContain('de-CH');
    expect(out.length).toBeLessThanOrEqual(51);
  });

  it('does not truncate at exactly 50 characters', () => {
    const variables = { s: 'y'.repeat(50 - '{"s":""}'.length) };
    expect(JSON.stringify(variables)).toHaveLength(50);
    expect(truncateVariables(variables)).toBe(JSON.stringify(variables));
  });
});
