import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestFromNodeRequest } from 'astro/app/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rateLimiter } from '../../lib/http/rate-limit.ts';
import { parseServerEnv } from '../boot/env.ts';
import { DEFAULT_RENDER_LIMITS } from '../images/image-cache.ts';
import { wireRequestOf } from '../render-pool/wire.ts';
import { clientAddress, isTrustedProxy, parseTrustProxy, TRUST_PROXY_MESSAGE, trustProxies, withClientAddress } from './client-address.ts';

/** A request as the parser makes it: headers and a socket with an address. */
const fake = (remoteAddress: string | undefined, headers: Record<string, string | string[]> = {}) =>
  ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe('parseTrustProxy', () => {
  it('is off when unset, and takes "loopback", addresses and CIDR ranges', () => {
    expect(parseTrustProxy(undefined)).toBeNull();
    expect(parseTrustProxy(' ')).toBeNull();
    const loopback = parseTrustProxy('loopback');
    expect(['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'].map((a) => isTrustedProxy(a, loopback))).toEqual([true, true, true, true]);
    expect(['10.0.0.1', '::2', '192.168.1.1'].map((a) => isTrustedProxy(a, loopback))).toEqual([false, false, false]);
    const list = parseTrustProxy('10.0.0.5, 10.1.0.0/16,fd00::/8');
    expect(['10.0.0.5', '10.1.200.3', 'fd00::1', '10.0.0.6', '127.0.0.1'].map((a) => isTrustedProxy(a, list))).toEqual([true, true, true, false, false]);
  });

  it('refuses anything else, and the server environment says how to write it', () => {
    for (const bad of ['yes', '10.0.0.300', '10.0.0.0/33', '10.0.0.0/8/1', 'loopback,nginx', '::1/129']) expect(() => parseTrustProxy(bad), bad).toThrow(TRUST_PROXY_MESSAGE);
    expect(() => parseServerEnv({ TRUST_PROXY: 'all' })).toThrow(`TRUST_PROXY: ${TRUST_PROXY_MESSAGE}`);
    expect(parseServerEnv({ TRUST_PROXY: 'loopback' }).TRUST_PROXY).toBe('loopback');
    expect(parseServerEnv({}).TRUST_PROXY).toBeUndefined();
  });
});

describe('clientAddress', () => {
  const loopback = parseTrustProxy('loopback');

  it('ignores X-Forwarded-For from a socket that is not a trusted proxy (off by default)', () => {
    expect(clientAddress(fake('203.0.113.9', { 'x-forwarded-for': '198.51.100.1' }), loopback)).toBe('203.0.113.9');
    expect(clientAddress(fake('127.0.0.1', { 'x-forwarded-for': '198.51.100.1' }), null)).toBe('127.0.0.1');
    expect(clientAddress(fake('127.0.0.1', { 'x-forwarded-for': '198.51.100.1' }))).toBe('127.0.0.1');
  });

  it('takes the last entry a trusted proxy forwards (what a client put before it is its own invention)', () => {
    expect(clientAddress(fake('127.0.0.1', { 'x-forwarded-for': '198.51.100.1' }), loopback)).toBe('198.51.100.1');
    expect(clientAddress(fake('::ffff:127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.1' }), loopback)).toBe('198.51.100.1');
    expect(clientAddress(fake('::1', { 'x-forwarded-for': ['6.6.6.6', '2001:db8::7'] }), loopback)).toBe('2001:db8::7');
    expect(clientAddress(fake('127.0.0.1', { 'x-forwarded-for': '::ffff:198.51.100.1' }), loopback)).toBe('198.51.100.1');
  });

  it('keeps the socket address when the trusted proxy forwards none or not an address', () => {
    expect(clientAddress(fake('127.0.0.1'), loopback)).toBe('127.0.0.1');
    expect(clientAddress(fake('127.0.0.1', { 'x-forwarded-for': 'unknown' }), loopback)).toBe('127.0.0.1');
    expect(clientAddress(fake('127.0.0.1', { 'x-forwarded-for': '198.51.100.1, ' }), loopback)).toBe('127.0.0.1');
    expect(clientAddress(fake(undefined, { 'x-forwarded-for': '198.51.100.1' }), loopback)).toBeUndefined();
  });
});

describe('the client address over real sockets, as every reader takes it', () => {
  let server: Server;
  let base: string;
  /** What the server's readers made of the last request. */
  let seen: Record<string, unknown> = {};
  const limiter = rateLimiter({ limit: 2, windowMs: 60_000 });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const own = req.socket.remoteAddress;
      seen = {
        rateLimit: clientAddress(req),
        image: DEFAULT_RENDER_LIMITS.clientKey(req),
        wire: wireRequestOf(req, 'r1').clientAddress,
        // Where Astro.clientAddress comes from for the Astro handler (astro/app/node).
        astro: withClientAddress(req, () => Reflect.get(createRequestFromNodeRequest(req), Symbol.for('astro.clientAddress'))),
        socketAfter: req.socket.remoteAddress,
        socketBefore: own,
      };
      void limiter.hit(String(clientAddress(req))).then((hit) => res.writeHead(hit.allowed ? 200 : 429).end());
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => trustProxies(null));
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  const get = async (path: string, forwarded: string) => (await fetch(`${base}${path}`, { headers: { 'x-forwarded-for': forwarded } })).status;

  it('untrusted: a spoofed X-Forwarded-For changes nothing, every request is the socket\'s and shares its bucket', async () => {
    trustProxies(parseTrustProxy('10.0.0.5'));
    expect([await get('/a', '198.51.100.1'), await get('/a', '198.51.100.2'), await get('/a', '198.51.100.3')]).toEqual([200, 200, 429]);
    expect(seen).toEqual({ rateLimit: '127.0.0.1', image: '127.0.0.1', wire: '127.0.0.1', astro: '127.0.0.1', socketAfter: '127.0.0.1', socketBefore: '127.0.0.1' });
  });

  it('trusted: each forwarded client has its own bucket, and every reader sees it (the socket keeps its own address after)', async () => {
    trustProxies(parseTrustProxy('loopback'));
    // Over one keep-alive connection, as nginx sends its clients' requests.
    expect([await get('/b', '198.51.100.11'), await get('/b', '198.51.100.12'), await get('/b', '198.51.100.13')]).toEqual([200, 200, 200]);
    expect([await get('/b', '198.51.100.11'), await get('/b', '198.51.100.11')]).toEqual([200, 429]);
    expect(seen).toEqual({ rateLimit: '198.51.100.11', image: '198.51.100.11', wire: '198.51.100.11', astro: '198.51.100.11', socketAfter: '127.0.0.1', socketBefore: '127.0.0.1' });
  });
});
