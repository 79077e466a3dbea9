import { describe, expect, it } from 'vitest';
import { redactValue, scrubText, secretsOf } from './redact.ts';

describe('scrubText', () => {
  it.each([
    ['Authorization: Bearer abc.def-123', 'abc.def-123'],
    ['request failed with headers {"authorization":"Basic dXNlcjpwYXNz"}', 'dXNlcjpwYXNz'],
    ['sent Bearer eyJhbGciOi.eyJzdWIiOiIx.c2lnbmF0dXJl to the api', 'eyJhbGciOi'],
    ['Cookie: session=s3cr3t-value; locale=de', 's3cr3t-value'],
    ['set-cookie=nextRelease=abc123xyz; Path=/', 'abc123xyz'],
    ['POST /login body password=hunter2&user=anna', 'hunter2'],
    ['login with {"user":"anna","password":"hunter2"}', 'hunter2'],
    ['x-revalidate-secret: 0123456789abcdef', '0123456789abcdef'],
    ['callback?code=1&access_token=at-999&state=x', 'at-999'],
    ['client_secret: cs-12345', 'cs-12345'],
    ['id token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig-part', 'eyJzdWIiOiIxMjMifQ'],
    ['truncated {"password":"hunt', 'hunt'],
  ])('removes the secret from %j', (text, secret) => {
    const out = scrubText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[redacted]');
  });

  it('removes the configured secret values wherever they appear', () => {
    expect(scrubText('revalidate with local-secret-0123 failed', ['local-secret-0123'])).toBe('revalidate with [redacted] failed');
  });

  it('drops the seal of a download link and keeps its path', () => {
    expect(scrubText('GET /api/ticketing/download/AbC-d_9xYz0123456789abcdefghijklmnopqrstuvwxyz 200 in 3 ms')).toBe('GET /api/ticketing/download/[redacted] 200 in 3 ms');
    expect(scrubText('fetch https://www.example.com/api/ticketing/download/AbC-d_9?x=1 failed')).toBe('fetch https://www.example.com/api/ticketing/download/[redacted]?x=1 failed');
  });

  it('leaves ordinary messages alone', () => {
    for (const text of ['pageByPath {"site":"main","path":"en/about"} 12 ms', 'Missing or wrong revalidation secret', 'Access token not found in response', 'GET /en 200']) {
      expect(scrubText(text)).toBe(text);
    }
  });
});

describe('redactValue', () => {
  it('censors sensitive keys at any depth and scrubs strings', () => {
    const out = redactValue({
      req: { headers: { Authorization: 'Bearer t0k3n', cookie: 'a=b', host: 'x' } },
      form: { user: 'anna', passwordHash: 'abc' },
      note: 'token=zzz999',
      list: [{ apiKey: 'k-1' }],
    });
    expect(JSON.stringify(out)).not.toMatch(/t0k3n|a=b|abc"|zzz999|k-1/);
    expect(out).toMatchObject({ req: { headers: { host: 'x' } }, form: { user: 'anna' } });
  });

  it('turns errors into plain objects with scrubbed message and stack', () => {
    const err = new Error('upstream said: Authorization: Bearer sekrit-42', { cause: new Error('password=hunter2') });
    const out = redactValue({ err }) as { err: { type: string; message: string; stack: string; cause: { message: string } } };
    expect(out.err.type).toBe('Error');
    expect(JSON.stringify(out)).not.toMatch(/sekrit-42|hunter2/);
    expect(out.err.stack).toContain('[redacted]');
    expect(out.err.cause.message).toBe('password=[redacted]');
  });

  it('stops at circular references', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    expect(() => JSON.stringify(redactValue(a))).not.toThrow();
  });
});

describe('secretsOf', () => {
  it('takes the values of variables named like secrets', () => {
    expect(secretsOf({ REVALIDATE_SECRET: 'r-0123456789', API_TOKEN: 'tok-abcdef', PORT: '4321', DB_PASSWORD: 'pw', HOST: 'localhost' })).toEqual(['r-0123456789', 'tok-abcdef']);
  });
});
