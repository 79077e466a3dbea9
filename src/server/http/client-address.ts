/**
 * The address a request comes from, for the rate limits and `Astro.clientAddress`: the socket's,
 * unless the socket is a proxy this server trusts (TRUST_PROXY), whose `X-Forwarded-For` then
 * names the client. Only the last entry counts: it is the one the trusted proxy added (nginx at
 * the edge overwrites the header; a proxy that appends leaves what the client sent to the left,
 * and that part is the client's to invent). A request from any other socket keeps its socket
 * address whatever headers it sends, so a client cannot pick its own rate-limit bucket.
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** The proxies whose X-Forwarded-For is believed; null: none (the default). */
export type TrustedProxies = BlockList | null;

export const TRUST_PROXY_MESSAGE = 'TRUST_PROXY must be "loopback" or a comma-separated list of IP addresses or CIDR ranges (e.g. 10.0.0.5,10.1.0.0/16)';

/** An IPv4 client of a dual-stack socket reads `::ffff:1.2.3.4`: compared and reported as `1.2.3.4`. */
const unmapped = (address: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address);

/** TRUST_PROXY's value as the set of trusted addresses; throws TRUST_PROXY_MESSAGE on anything else. */
export function parseTrustProxy(value: string | undefined): TrustedProxies {
  if (value === undefined || value.trim() === '') return null;
  const list = new BlockList();
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    if (!family || extra !== undefined) throw new Error(TRUST_PROXY_MESSAGE);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const prefix = Number(bits);
    if (!/^\d{1,3}$/.test(bits) || prefix > (family === 4 ? 32 : 128)) throw new Error(TRUST_PROXY_MESSAGE);
    list.addSubnet(address, prefix, type);
  }
  return list;
}

let configured: TrustedProxies = null;

/** Sets the trusted proxies of this process (the server does at start, from TRUST_PROXY). */
export function trustProxies(proxies: TrustedProxies): void {
  configured = proxies;
}

/** Whether `address` (a socket's) is a trusted proxy. */
export function isTrustedProxy(address: string | undefined, proxies: TrustedProxies = configured): boolean {
  if (!proxies || !address) return false;
  const plain = unmapped(address);
  const family = isIP(plain);
  return family !== 0 && proxies.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The client address of a request (undefined when the socket has none, e.g. a destroyed one):
 * the last X-Forwarded-For entry when the socket is a trusted proxy and that entry is an IP
 * address, else the socket's address.
 */
export function clientAddress(req: Pick<IncomingMessage, 'headers' | 'socket'>, proxies: TrustedProxies = configured): string | undefined {
  const socket = req.socket?.remoteAddress;
  if (!isTrustedProxy(socket, proxies)) return socket;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : header)?.split(',').pop()?.trim();
  return forwarded && isIP(unmapped(forwarded)) ? unmapped(forwarded) : socket;
}

/**
 * Runs `handle` (the Astro node handler) with the request's socket reporting the client address:
 * the handler reads `req.socket.remoteAddress` synchronously when it makes its Request (that is
 * where `Astro.clientAddress` comes from), so the socket's own address is back before anything
 * else runs: a keep-alive connection from the proxy carries other clients' requests after this one.
 */
export function withClientAddress<T>(req: IncomingMessage, handle: () => T, proxies: TrustedProxies = configured): T {
  const socket = req.socket;
  const address = clientAddress(req, proxies);
  if (!socket || address === undefined || address === socket.remoteAddress) return handle();
  Object.defineProperty(socket, 'remoteAddress', { value: address, configurable: true });
  try {
    return handle();
  } finally {
    delete (socket as { remoteAddress?: string }).remoteAddress;
  }
}
