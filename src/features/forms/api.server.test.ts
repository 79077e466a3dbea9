import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIContext } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentHub } from '../../../emulators/content-hub/server.ts';
import { getFormSubmissions } from '../../lib/content/index.ts';
import { rateLimiter } from '../../lib/http/rate-limit.ts';
import { startPausableProxy } from '../../../emulators/shared/pausable-proxy.ts';
import { createFormsHandler } from './api.server.ts';

const dataDir = join(dirname(fileURLToPath(import.meta.url)), '../../../emulators/data/content');
let hub: { server: Server; url: string };
/** A port nothing listens on: the content hub stopped. */
let closedPort: number;

beforeAll(async () => {
  hub = await startContentHub({ port: 0, dataDir, quiet: true });
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
});
afterAll(async () => {
  hub.server.closeAllConnections();
  await new Promise<void>((r) => hub.server.close(() => r()));
});

const COUNTRIES = [{ countryCode: 'CH', hidden: false }, { countryCode: 'DE', hidden: false }, { countryCode: 'XX', hidden: true }];
const contact = { lang: 'en', name: 'Ada Lovelace', email: 'ada@example.com', company: 'AE', country: 'CH', topic: 'products', message: 'Please call me.', consent: true };

let keys = 0;
/** A new idempotency key, as the enhanced form makes one when it opens. */
const newKey = () => `"test-key-${Date.now()}-${++keys}-0000"`;

function context(kind: string, body: BodyInit, opts: { type?: string; endpoint?: string; client?: string; headers?: Record<string, string>; key?: string | null; timeoutMs?: number } = {}): APIContext {
  const key = opts.key === undefined ? newKey() : opts.key;
  return {
    params: { kind },
    request: new Request(`http://localhost:4321/api/forms/${kind}`, { method: 'POST', headers: { 'content-type': opts.type ?? 'application/json', ...(key ? { 'idempotency-key': key } : {}), ...opts.headers }, body }),
    locals: { api: { system: { countries: COUNTRIES }, services: { content: { endpoint: opts.endpoint ?? hub.url, connectTimeoutMs: 500, timeoutMs: opts.timeoutMs ?? 2000 } } } },
    clientAddress: opts.client ?? '203.0.113.1',
    url: new URL(`http://localhost:4321/api/forms/${kind}`),
  } as unknown as APIContext;
}
const stored = async (kind: string) => getFormSubmissions({ config: { endpoint: hub.url }, locales: ['en'], stage: 'PUBLISHED' }, kind);

describe('POST /api/forms/{kind}', () => {
  const handler = createFormsHandler({ limiter: rateLimiter({ limit: 100, windowMs: 60_000 }) });

  it('stores a valid submission and answers the spec success text', async () => {
    const res = await handler(context('contact', JSON.stringify({ ...contact, message: 'json post' })));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, message: 'Thank you for your request! We will process it and get back to you as soon as possible.' });
    const [latest] = await stored('contact');
    expect(latest?.fields).toMatchObject({ name: 'Ada Lovelace', country: 'CH', consent: 'true', message: 'json post' });
    expect(latest?.locale).toBe('en');
  });

  it('takes a urlencoded form post as well, and hands the whitepaper its download link', async () => {
    const form = new URLSearchParams({ lang: 'de-ch', name: 'Ada', email: 'ada@example.com', company: 'AE', country: 'de', consent: 'on', file: 'smart-factory-whitepaper' });
    const res = await handler(context('whitepaper', form.toString(), { type: 'application/x-www-form-urlencoded' }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, download: '/file/smart-factory-whitepaper?l=de&dl=true' });
    expect(body.message).toMatch(/^Vielen Dank/);
    expect((await stored('whitepaper'))[0]).toMatchObject({ locale: 'de-ch', fields: { country: 'DE', file: 'smart-factory-whitepaper' } });
  });

  it('answers 400 with a translated message per field', async () => {
    const res = await handler(context('openSource', JSON.stringify({ lang: 'en', email: 'nope' })));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.fields.email).toBe('Please provide a valid email address');
    expect(body.fields.message).toBe('Please add some more details');
    expect(Object.keys(body.fields)).toHaveLength(8);
    const de = await handler(context('contact', JSON.stringify({ ...contact, lang: 'de', consent: false })));
    expect((await de.json()).fields).toEqual({ consent: 'Bitte aktivieren Sie das Kontrollkästchen, um fortzufahren' });
  });

  it('refuses a hidden country as not offered', async () => {
    const res = await handler(context('contact', JSON.stringify({ ...contact, country: 'XX' })));
    expect((await res.json()).fields).toEqual({ country: 'Please enter a valid value' });
  });

  it('answers a filled honeypot like a success but stores nothing', async () => {
    const before = (await stored('contact')).length;
    const res = await handler(context('contact', JSON.stringify({ ...contact, website: 'http://spam.example' })));
    expect(res.status).toBe(200);
    expect((await res.json()).ok).toBe(true);
    expect((await stored('contact')).length).toBe(before);
  });

  it('answers 415 for other content types, 413 for a body over the limit, 404 for an unknown form, 400 for a non-object', async () => {
    expect((await handler(context('contact', 'name=x', { type: 'text/plain' }))).status).toBe(415);
    expect((await handler(context('contact', 'x'.repeat(40 * 1024), { type: 'application/x-www-form-urlencoded' }))).status).toBe(413);
    expect((await handler(context('contact', JSON.stringify({ ...contact, message: 'y'.repeat(40 * 1024) })))).status).toBe(413);
    expect((await handler(context('survey', JSON.stringify(contact)))).status).toBe(404);
    expect((await handler(context('contact', '[1,2]'))).status).toBe(400);
    expect((await handler(context('contact', JSON.stringify({ ...contact, lang: 'english' })))).status).toBe(400);
  });

  it('answers a burst with 429, Retry-After and a clear message, per client', async () => {
    const limited = createFormsHandler({ limiter: rateLimiter({ limit: 2, windowMs: 60_000 }) });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await limited(context('openSource', JSON.stringify({ lang: 'en' }), { client: '198.51.100.7' }));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 429, 429]);
    expect(Number(last!.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await last!.json()).message).toMatch(/^You have sent too many requests in a short time\. Please wait \d+ seconds and try again\.$/);
    expect((await limited(context('openSource', JSON.stringify({ lang: 'en' }), { client: '198.51.100.8' }))).status).toBe(400);
  });

  it('answers the spec failure text when the content hub is down (503: nothing stored) or fails (502)', async () => {
    const down = await handler(context('contact', JSON.stringify(contact), { endpoint: `http://127.0.0.1:${closedPort}/graphql` }));
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ ok: false, error: expect.any(String), message: 'Something went wrong. Please verify your input is correct and try again later.' });
    const failing = createFormsHandler({ limiter: rateLimiter({ limit: 100, windowMs: 60_000 }), submit: async () => { throw new Error('boom'); } });
    const res = await failing(context('contact', JSON.stringify(contact)));
    expect(res.status).toBe(502);
    expect((await res.json()).message).toBe('Something went wrong. Please verify your input is correct and try again later.');
  });
});

describe('POST /api/forms/{kind}: idempotency', () => {
  const handler = createFormsHandler({ limiter: rateLimiter({ limit: 100, windowMs: 60_000 }) });
  const countOf = async (message: string) => (await stored('contact')).filter((x) => x.fields.message === message).length;

  it('stores a submission sent twice with the same key once, and answers both with the first answer', async () => {
    const key = newKey();
    const body = JSON.stringify({ ...contact, message: 'sent twice' });
    const first = await handler(context('contact', body, { key }));
    const again = await handler(context('contact', body, { key }));
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(await again.json()).toEqual(await first.json());
    expect(await countOf('sent twice')).toBe(1);
  });

  it('refuses a submission without a key or with a malformed one with 400 and a clear text, storing nothing', async () => {
    const missing = await handler(context('contact', JSON.stringify({ ...contact, message: 'no key' }), { key: null }));
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toMatch(/^This request needs an Idempotency-Key header/);
    const malformed = await handler(context('contact', JSON.stringify({ ...contact, message: 'no key' }), { key: '"x"' }));
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).message).toBe('The Idempotency-Key must have at least 16 characters.');
    expect(await countOf('no key')).toBe(0);
  });

  it('answers 422 for a key already used for another submission', async () => {
    const key = newKey();
    expect((await handler(context('contact', JSON.stringify({ ...contact, message: 'first content' }), { key }))).status).toBe(200);
    const other = await handler(context('contact', JSON.stringify({ ...contact, message: 'other content' }), { key }));
    expect(other.status).toBe(422);
    expect((await other.json()).message).toBe('This Idempotency-Key was already used for a different request. Use a new key for a new request.');
    expect(await countOf('other content')).toBe(0);
  });

  it('answers 409 to a concurrent duplicate while the first is being stored', async () => {
    let release!: () => void;
    let calls = 0;
    const slow = createFormsHandler({
      limiter: rateLimiter({ limit: 100, windowMs: 60_000 }),
      submit: () => { calls++; return new Promise((ok) => { release = () => ok({ ok: true, id: 'S-1' }); }); },
    });
    const key = newKey();
    const body = JSON.stringify(contact);
    const first = slow(context('contact', body, { key }));
    await expect.poll(() => calls).toBe(1);
    const concurrent = await slow(context('contact', body, { key }));
    expect(concurrent.status).toBe(409);
    expect(concurrent.headers.get('retry-after')).toBe('1');
    expect((await concurrent.json()).message).toBe('We do not know whether your request was received: the service did not answer in time. It is safe to send it again: it will not be stored twice.');
    release();
    expect((await first).status).toBe(200);
    expect(calls).toBe(1);
  });

  it('a content hub that hangs and then resumes: the first attempt says it is not known whether it was stored (504), the retry with the same key gets the stored one; it is stored once', async () => {
    const relay = await startPausableProxy(Number(new URL(hub.url).port));
    try {
      const endpoint = `http://127.0.0.1:${relay.port}/graphql`;
      const key = newKey();
      const body = JSON.stringify({ ...contact, message: 'hung then resumed' });
      relay.pause();
      const first = await handler(context('contact', body, { key, endpoint, timeoutMs: 700 }));
      expect(first.status).toBe(504);
      expect((await first.json()).message).toBe('We do not know whether your request was received: the service did not answer in time. It is safe to send it again: it will not be stored twice.');
      relay.resume();
      // The hub works through the request it held, as a hung service does when it comes back.
      await expect.poll(() => countOf('hung then resumed')).toBe(1);
      const retry = await handler(context('contact', body, { key, endpoint, timeoutMs: 2000 }));
      expect(retry.status).toBe(200);
      expect((await retry.json()).ok).toBe(true);
      expect(await countOf('hung then resumed')).toBe(1);
    } finally {
      await relay.close();
    }
  });
});
