import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessTokenVerifier, IdentityUnavailableError, InvalidTokenError, scopeList } from './verify.server.ts';

let server: Server;
let issuer: string;
let key: CryptoKey;
let other: CryptoKey;
let jwk: JWK;
let discoveries = 0;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  key = pair.privateKey;
  other = (await generateKeyPair('RS256')).privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  server = createServer((req, res) => {
    if (req.url?.endsWith('/.well-known/openid-configuration')) {
      discoveries++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/connect/jwk_uri` }));
    } else if (req.url?.endsWith('/connect/jwk_uri')) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/am/oauth2/realms/root/realms/alpha`;
});

afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const sign = (claims: Record<string, unknown>, opts: { signer?: CryptoKey; exp?: string | number; iss?: string; aud?: string } = {}) =>
  new SignJWT({ scope: 'openid profile fr:idm:*', client_id: 'kmx-web', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setSubject('u1')
    .setIssuer(opts.iss ?? issuer)
    .setAudience(opts.aud ?? 'kmx-web')
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? '5m')
    .sign(opts.signer ?? key);

describe('access token verification', () => {
  it('answers sub and scope of a token signed with a key of the JWKS, for our issuer and audience', async () => {
    const verify = createAccessTokenVerifier({ issuer, audience: 'kmx-web', timeoutMs: 2000 });
    expect(await verify(await sign({}))).toEqual({ sub: 'u1', scope: ['openid', 'profile', 'fr:idm:*'] });
    await verify(await sign({}));
    expect(discoveries).toBe(1);
  });

  it.each([
    ['signed with another key', () => sign({}, { signer: other })],
    ['expired', () => sign({}, { exp: Math.floor(Date.now() / 1000) - 60 })],
    ['of another issuer', () => sign({}, { iss: 'http://evil.test' })],
    ['for another audience', () => sign({}, { aud: 'other' })],
    ['not a JWT', async () => 'abc.def.ghi'],
    ['unsigned (alg none)', async () => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'u1', iss: issuer, aud: 'kmx-web', exp: 9e9 })).toString('base64url')}.`],
  ])('refuses a token %s', async (_name, make) => {
    const verify = createAccessTokenVerifier({ issuer, audience: 'kmx-web', timeoutMs: 2000 });
    await expect(verify(await make())).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('an unreachable provider is not the caller\'s fault', async () => {
    const verify = createAccessTokenVerifier({ issuer: 'http://127.0.0.1:9/am/oauth2/realms/root/realms/alpha', audience: 'kmx-web', timeoutMs: 500 });
    await expect(verify(await sign({}))).rejects.toBeInstanceOf(IdentityUnavailableError);
  });

  it('scope as a string or a list', () => {
    expect(scopeList('a  b')).toEqual(['a', 'b']);
    expect(scopeList(['a', 1])).toEqual(['a']);
    expect(scopeList(undefined)).toEqual([]);
  });
});
