import { describe, expect, it, vi } from 'vitest';
import { browserLogger, browserLogLevel, LOG_LEVEL_STORAGE_KEY } from './log.ts';

const storage = (value: string | null) => ({ getItem: (k: string) => (k === LOG_LEVEL_STORAGE_KEY ? value : null) });
const sink = () => ({ error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() });

describe('browserLogLevel', () => {
  it('is none by default (spec §9)', () => {
    expect(browserLogLevel(storage(null))).toBe('none');
    expect(browserLogLevel(undefined)).toBe('none');
  });

  it('takes a name or a number from localStorage "logLevel"', () => {
    expect(browserLogLevel(storage('debug'))).toBe('debug');
    expect(browserLogLevel(storage('50'))).toBe('warn');
  });

  it('falls back to none for a malformed value or an unreadable storage', () => {
    expect(browserLogLevel(storage('loud'))).toBe('none');
    expect(browserLogLevel({ getItem: () => { throw new Error('SecurityError'); } })).toBe('none');
  });
});

describe('browserLogger', () => {
  it('prints nothing at the default level', () => {
    const s = sink();
    const log = browserLogger('basket', { sink: s, level: () => browserLogLevel(storage(null)) });
    log.error('e');
    log.warn('w');
    expect([...Object.values(s)].every((f) => f.mock.calls.length === 0)).toBe(true);
  });

  it('prints messages within the level, prefixed, to their console method', () => {
    const s = sink();
    let level: 'warn' | 'debug' = 'warn';
    const log = browserLogger('basket', { sink: s, level: () => level });
    log.warn('HTTP 502', { slug: 'x' });
    log.info('hidden');
    level = 'debug';
    log.debug('shown now');
    expect(s.warn).toHaveBeenCalledWith('[basket] HTTP 502', { slug: 'x' });
    expect(s.info).not.toHaveBeenCalled();
    expect(s.debug).toHaveBeenCalledWith('[basket] shown now');
  });
});
