import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, logOptionsFromEnv, runWithRequestContext, type LogFormat, type LogLevel } from './index.ts';

/** A logger writing into an array of lines. */
function capture(level: LogLevel, opts: { format?: LogFormat; secrets?: string[] } = {}) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const log = createLogger({ level, format: opts.format ?? 'json', secrets: opts.secrets, destination, colorize: false });
  return { log, lines, json: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const everyLevel = (log: ReturnType<typeof capture>['log']) => {
  log.error('e');
  log.warn('w');
  log.info('i');
  log.debug('d');
};

describe('createLogger levels', () => {
  it.each([
    ['none', []],
    ['error', ['e']],
    ['warn', ['e', 'w']],
    ['info', ['e', 'w', 'i']],
    ['debug', ['e', 'w', 'i', 'd']],
  ] as const)('at %s writes %j', (level, expected) => {
    const c = capture(level);
    everyLevel(c.log);
    expect(c.json().map((l) => l.msg)).toEqual(expected);
  });

  it('writes one JSON object per line with the level name and the spec number', () => {
    const c = capture('debug');
    c.log.child({ component: 'content' }).warn({ operation: 'pageByPath' }, 'slow answer');
    expect(c.json()).toEqual([expect.objectContaining({ level: 'warn', levelValue: 50, component: 'content', operation: 'pageByPath', msg: 'slow answer', time: expect.any(Number) })]);
  });

  it('children keep the level of their root', () => {
    const c = capture('error');
    everyLevel(c.log.child({ component: 'x' }));
    expect(c.json().map((l) => l.msg)).toEqual(['e']);
  });
});

describe('request ids', () => {
  it('puts the request id on every line logged inside a request context, and none outside', async () => {
    const c = capture('debug');
    const log = c.log.child({ component: 'server' });
    log.info('before');
    await runWithRequestContext({ reqId: 'req-1' }, async () => {
      log.info('start');
      await new Promise((r) => setTimeout(r, 1));
      log.debug({ step: 2 }, 'after a timer');
      await Promise.resolve().then(() => log.error('in a continuation'));
    });
    await runWithRequestContext({ reqId: 'req-2' }, async () => log.warn('other request'));
    log.info('after');
    expect(c.json().map((l) => [l.msg, l.reqId])).toEqual([
      ['before', undefined], ['start', 'req-1'], ['after a timer', 'req-1'], ['in a continuation', 'req-1'], ['other request', 'req-2'], ['after', undefined],
    ]);
  });

  it('keeps concurrent requests apart', async () => {
    const c = capture('info');
    const handle = (id: string, wait: number) => runWithRequestContext({ reqId: id }, async () => {
      await new Promise((r) => setTimeout(r, wait));
      c.log.info(id);
    });
    await Promise.all([handle('a', 5), handle('b', 1), handle('c', 3)]);
    for (const l of c.json()) expect(l.reqId).toBe(l.msg);
  });
});

describe('no secrets in any line', () => {
  const SECRET = 'the-revalidate-secret-0123';

  it.each(['json', 'pretty'] as const)('%s lines carry no secret, token, cookie or password', (format) => {
    const c = capture('debug', { format, secrets: [SECRET] });
    c.log.error({ headers: { authorization: 'Bearer tok-abc123', cookie: 'nextRelease=rel-777', host: 'x' } }, 'request refused');
    c.log.warn(`revalidate called with ${SECRET}`);
    c.log.info('upstream answered 401 for Authorization: Bearer eyJhbGciOi.eyJzdWIi.c2ln');
    c.log.info('Cookie: locale=de; session=sess-4242');
    c.log.debug({ variables: { email: 'a@b.ch', password: 'hunter2!' } }, 'login');
    c.log.warn('form body user=anna&password=hunter2!');
    c.log.error({ err: new Error(`auth failed for token=tok-xyz789 (${SECRET})`) }, 'failed');
    c.log.info({ req: { headers: { 'x-revalidate-secret': SECRET } } }, 'revalidate');
    const out = c.lines.join('\n');
    for (const leaked of [SECRET, 'tok-abc123', 'rel-777', 'eyJhbGciOi', 'sess-4242', 'hunter2', 'tok-xyz789']) expect(out).not.toContain(leaked);
    expect(out).toContain('[redacted]');
    expect(out).toContain('request refused');
  });
});

describe('pretty lines', () => {
  it('are readable: level, component, message and request id on one line', () => {
    const c = capture('info', { format: 'pretty' });
    runWithRequestContext({ reqId: 'abc-1' }, () => c.log.child({ component: 'search' }).warn('not ready'));
    expect(c.lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: \[search\] not ready \(request abc-1\)(?: \(thread \d+\))?$/);
  });
});

describe('logOptionsFromEnv', () => {
  it('defaults to warn and JSON lines', () => {
    expect(logOptionsFromEnv({})).toMatchObject({ level: 'warn', format: 'json', problems: [] });
  });

  it('reads LOG_LEVEL as a name or a number and LOG_FORMAT', () => {
    expect(logOptionsFromEnv({ LOG_LEVEL: 'debug', LOG_FORMAT: 'pretty' })).toMatchObject({ level: 'debug', format: 'pretty' });
    expect(logOptionsFromEnv({ LOG_LEVEL: '0' }).level).toBe('none');
    expect(logOptionsFromEnv({ LOG_LEVEL: '75' }).level).toBe('info');
  });

  it('falls back to the defaults and says why for malformed values', () => {
    const o = logOptionsFromEnv({ LOG_LEVEL: 'loud', LOG_FORMAT: 'xml' });
    expect(o).toMatchObject({ level: 'warn', format: 'json' });
    expect(o.problems).toEqual([expect.stringContaining('LOG_LEVEL must be one of none, error, warn, info, debug'), expect.stringContaining('LOG_FORMAT must be json or pretty')]);
  });

  it('says that CONTENT_LOG_LEVEL is no longer read', () => {
    const o = logOptionsFromEnv({ CONTENT_LOG_LEVEL: 'debug' });
    expect(o.level).toBe('warn');
    expect(o.problems).toEqual([expect.stringContaining('CONTENT_LOG_LEVEL is no longer read: set LOG_LEVEL')]);
  });

  it('collects the secret values of the environment', () => {
    expect(logOptionsFromEnv({ REVALIDATE_SECRET: 'sixteen-chars-xx' }).secrets).toEqual(['sixteen-chars-xx']);
  });
});
