import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Short-lived download links (server only). A plain link carries no bearer token, yet the ticketing
 * service wants the user's identity token for every file. The proxy therefore seals what a
 * download needs — the user (`sub`), the one upstream path, the expiry and the identity token —
 * with AES-256-GCM (authenticated: a changed or forged link does not open) under TICKETING_LINK_SECRET
 * (else a random per-process secret). The link is self-contained, so any instance sharing the secret
 * serves it; it opens exactly one resource, for a few minutes, and never shows the token.
 */

/** How long a download link works (the page hands out fresh ones on every load). */
export const LINK_TTL_SECONDS = 300;

/** Upstream paths a link may name: an attachment or a wire-flow package version. */
const RESOURCE = /^\/(?:attachments\/[A-Za-z0-9._~%-]+|downloads\/wire-flow\/[A-Za-z0-9._~%-]+\/[A-Za-z0-9._~%-]+)$/;

export interface LinkClaims {
  /** The user the link was made for. */
  sub: string;
  /** The upstream path, e.g. `/attachments/att-12`. */
  resource: string;
  /** The identity token the download is made with. */
  token: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export type OpenedLink = { ok: true; claims: LinkClaims } | { ok: false; reason: 'invalid' | 'expired' };

const keyOf = (secret: string) => createHash('sha256').update(`kmx-ticketing-links\0${secret}`).digest();

export function isLinkResource(path: string): boolean {
  return RESOURCE.test(path);
}

/**
 * Seals a download link's claims into a URL-safe string.
 * @example sealLink('secret', { sub: 'u1', resource: '/attachments/att-1', token: 'eyJ…', exp: 1767225600 })
 */
export function sealLink(secret: string, claims: LinkClaims): string {
  if (!isLinkResource(claims.resource)) throw new Error(`Not a downloadable resource: ${claims.resource}`);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const plain = Buffer.from(JSON.stringify([claims.sub, claims.resource, claims.exp, claims.token]));
  const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return sealed.toString('base64url');
}

/** Opens a sealed link: its claims, or why not (tampered, another secret, malformed; or expired). */
export function openLink(secret: string, sealed: string, nowSeconds = Math.floor(Date.now() / 1000)): OpenedLink {
  if (!/^[A-Za-z0-9_-]{40,8000}$/.test(sealed)) return { ok: false, reason: 'invalid' };
  const raw = Buffer.from(sealed, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    const plain = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
    const [sub, resource, exp, token] = JSON.parse(plain.toString('utf8')) as [unknown, unknown, unknown, unknown];
    if (typeof sub !== 'string' || typeof resource !== 'string' || typeof exp !== 'number' || typeof token !== 'string' || !isLinkResource(resource)) {
      return { ok: false, reason: 'invalid' };
    }
    if (exp <= nowSeconds) return { ok: false, reason: 'expired' };
    return { ok: true, claims: { sub, resource, exp, token } };
  } catch {
    return { ok: false, reason: 'invalid' };
  }
}
