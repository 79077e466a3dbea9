import { describe, expect, it } from 'vitest';
import { isLevelEnabled, LOG_LEVEL_VALUES, LOG_LEVELS, parseLogLevel } from './levels.ts';

describe('log levels (spec §9)', () => {
  it('are none 0, error 25, warn 50, info 75, debug 100', () => {
    expect(LOG_LEVELS).toEqual(['none', 'error', 'warn', 'info', 'debug']);
    expect(LOG_LEVEL_VALUES).toEqual({ none: 0, error: 25, warn: 50, info: 75, debug: 100 });
  });

  it.each([
    ['none', []],
    ['error', ['error']],
    ['warn', ['error', 'warn']],
    ['info', ['error', 'warn', 'info']],
    ['debug', ['error', 'warn', 'info', 'debug']],
  ] as const)('at %s a message is printed when its level is within the verbosity: %j', (configured, printed) => {
    expect((['error', 'warn', 'info', 'debug'] as const).filter((m) => isLevelEnabled(m, configured))).toEqual(printed);
  });
});

describe('parseLogLevel', () => {
  it('accepts the names in any case', () => {
    expect(parseLogLevel('debug')).toBe('debug');
    expect(parseLogLevel(' WARN ')).toBe('warn');
    expect(parseLogLevel('None')).toBe('none');
  });

  it.each([
    ['0', 'none'], ['24', 'none'], ['25', 'error'], ['50', 'warn'], ['60', 'warn'], ['75', 'info'], ['99', 'info'], ['100', 'debug'],
  ] as const)('maps the number %s to %s', (input, level) => {
    expect(parseLogLevel(input)).toBe(level);
    expect(parseLogLevel(Number(input))).toBe(level);
  });

  it.each(['verbose', '101', '-1', '2.5', '', 'warn,debug', '1e2'])('rejects %j', (input) => {
    expect(parseLogLevel(input)).toBeUndefined();
  });

  it('gives undefined for a missing value', () => {
    expect(parseLogLevel(undefined)).toBeUndefined();
    expect(parseLogLevel(null)).toBeUndefined();
  });
});
