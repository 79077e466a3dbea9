import { describe, expect, it } from 'vitest';
import { checkRequestTarget, MAX_PATH_LENGTH, MAX_QUERY_LENGTH } from './request-target.ts';

describe('checkRequestTarget', () => {
  it.each([
    '/', '/en', '/en/about-us', '/en/about-us?page=2&q=crimp%20tool', '/_astro/app.Bx1.js', '/_image?href=%2F_astro%2Fa.png&w=200',
    '/en/search?q=..%2F..%2Fetc', '/de-ch/produkte/gr%C3%B6sse', '/en//double', `/${'a'.repeat(MAX_PATH_LENGTH - 1)}`, `/en?${'q'.repeat(MAX_QUERY_LENGTH)}`,
  ])('lets %s through', (target) => {
    expect(checkRequestTarget(target)).toEqual({ ok: true });
  });

  it('answers 414 to a path or a query over its bound', () => {
    expect(checkRequestTarget(`/${'a'.repeat(MAX_PATH_LENGTH)}`)).toEqual({ ok: false, status: 414, message: 'URI too long: the path has more than 2048 characters.' });
    expect(checkRequestTarget(`/en?${'q'.repeat(MAX_QUERY_LENGTH + 1)}`)).toEqual({ ok: false, status: 414, message: 'URI too long: the query string has more than 4096 characters.' });
  });

  it.each([
    ['/en/../server/entry.mjs', 'dot segments'],
    ['/en/./about-us', 'dot segments'],
    ['/..', 'dot segments'],
    ['/%2e%2e/%2e%2e/etc/passwd', 'dot segments'],
    ['/en/%2E%2e/x', 'dot segments'],
    ['/.%2e/x', 'dot segments'],
    ['/en/..%2f..%2fserver%2fentry.mjs', 'encoded slashes'],
    ['/_astro/..%2F..%2Fserver/entry.mjs', 'encoded slashes'],
    ['/en/%5c..%5c..%5cetc', 'backslashes'],
    ['/\\evil.example', 'backslashes'],
    ['/en/about-us%00.html', 'control characters'],
    ['/en/%0d%0aSet-Cookie:x=1', 'control characters'],
    ['/en/%252e%252e/%252e%252e/x', 'double-encoded'],
    ['/en/%252f', 'double-encoded'],
    ['/en/%255c', 'double-encoded'],
    ['/en/%2500', 'double-encoded'],
    ['/en/%E0%A4%A', 'malformed percent-encoding'],
    ['/en/100%', 'malformed percent-encoding'],
  ])('answers 400 to %s (%s)', (target, what) => {
    const checked = checkRequestTarget(target);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.status).toBe(400);
    expect(checked.message).toMatch(/^Bad request: /);
    expect(checked.message).toContain(what);
  });

  it('answers 400 to a target that is not a path (absolute form, asterisk, nothing)', () => {
    for (const target of ['http://evil.example/en', '*', '', undefined]) {
      expect(checkRequestTarget(target)).toEqual({ ok: false, status: 400, message: 'Bad request: the request target must be a path starting with /.' });
    }
  });

  it('never echoes the target in its message', () => {
    const checked = checkRequestTarget('/<script>alert(1)</script>/..');
    expect(checked.ok || checked.message.includes('<script>')).toBe(false);
  });
});
