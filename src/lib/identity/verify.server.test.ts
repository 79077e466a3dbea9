import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccessTokenVerifier, IdentityUnavailableError, InvalidTokenError, isReadMethod, scopeList, type VerifierConfig } from './verify.server.ts';

let server: Server;
let issuer: string;
let key: CryptoKey;
let other: CryptoKey;
let jwk: JWK;
let discoveries = 0;

/** The stub provider's introspection: which tokens (by jti) it revoked, how it misbehaves, what it was asked. */
const provider = {
  revoked: new Set<string>(),
  mode: 'ok' as 'ok' | 'slow' | 'error' | 'garbage' | 'refuse-client' | 'other-subject',
  /** While set, introspection answers wait for it (a request held in flight). */
  hold: null as Promise<void> | null,
  calls: [] as { authorization: string | undefined; body: URLSearchParams }[],
  advertise: true,
};
const CLIENT = { clientId: 'kmx-api', clientSecret: 'introspection-secret-0123' };

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  key = pair.privateKey;
  other = (await generateKeyPair('RS256')).privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  server = createServer((req, res) => {
    if (req.url?.endsWith('/.well-known/openid-configuration')) {
      discoveries++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({
        issuer, jwks_uri: `${issuer}/connect/jwk_uri`, ...(provider.advertise ? { introspection_endpoint: `${issuer}/introspect` } : {}),
      }));
    } else if (req.url?.endsWith('/connect/jwk_uri')) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    } else if (req.url?.endsWith('/introspect') && req.method === 'POST') {
      let raw = '';
      req.on('data', (c: Buffer) => { raw += c.toString(); });
      req.on('end', () => {
        const body = new URLSearchParams(raw);
        provider.calls.push({ authorization: req.headers.authorization, body });
        const expected = `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')}`;
        if (provider.mode === 'refuse-client' || req.headers.authorization !== expected) return void res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"invalid_client"}');
        // Never answers: the verifier's own timeout ends the request.
        if (provider.mode === 'slow') return;
        if (provider.mode === 'error') return void res.writeHead(500).end('oops');
        if (provider.mode === 'garbage') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>');
        const claims = decodeJwt(body.get('token')!);
        const active = !provider.revoked.has(claims.jti!);
        const sub = provider.mode === 'other-subject' ? 'u2' : claims.sub;
        const answer = () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(active ? { active, sub, client_id: 'kmx-web', exp: claims.exp } : { active }));
        if (provider.hold) void provider.hold.then(answer);
        else answer();
      });
    } else res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/am/oauth2/realms/root/realms/alpha`;
});

afterAll(() => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }));

beforeEach(() => {
  provider.hold = null;
  provider.revoked.clear();
  provider.mode = 'ok';
  provider.calls.length = 0;
  provider.advertise = true;
});

let jtis = 0;
const sign = (claims: Record<string, unknown>, opts: { signer?: CryptoKey; exp?: string | number; iss?: string; aud?: string; typ?: string | null } = {}) =>
  new SignJWT({ scope: 'openid profile fr:idm:*', client_id: 'kmx-web', jti: `t${++jtis}`, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', ...(opts.typ === null ? {} : { typ: opts.typ ?? 'at+jwt' }) })
    .setSubject('u1')
    .setIssuer(opts.iss ?? issuer)
    .setAudience(opts.aud ?? 'kmx-web')
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? '5m')
    .sign(opts.signer ?? key);

/** A verifier on a clock the test moves. */
function verifier(overrides: Partial<VerifierConfig> = {}) {
  const clock = { t: Date.now() };
  const verify = createAccessTokenVerifier({ issuer, audience: 'kmx-web', timeoutMs: 2000, introspection: CLIENT, cacheTtlMs: 15_000, now: () => clock.t, ...overrides });
  return { verify, clock };
}

describe('access token verification', () => {
  it('answers sub and scope of an active at+jwt token signed with a key of the JWKS, for our issuer and audience', async () => {
    const before = discoveries;
    const { verify } = verifier();
    expect(await verify(await sign({}))).toEqual({ sub: 'u1', scope: ['openid', 'profile', 'fr:idm:*'] });
    await verify(await sign({}));
    expect(discoveries - before).toBe(1);
  });

  it('asks the provider with the introspection client (HTTP Basic) and the token as an access token', async () => {
    const { verify } = verifier();
    const token = await sign({});
    await verify(token);
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0]!.authorization).toBe(`Basic ${Buffer.from('kmx-api:introspection-secret-0123').toString('base64')}`);
    expect(Object.fromEntries(provider.calls[0]!.body)).toEqual({ token, token_type_hint: 'access_token' });
  });

  it.each([
    ['signed with another key', () => sign({}, { signer: other })],
    ['expired', () => sign({}, { exp: Math.floor(Date.now() / 1000) - 60 })],
    ['of another issuer', () => sign({}, { iss: 'http://evil.test' })],
    ['for another audience', () => sign({}, { aud: 'other' })],
    ['not a JWT', async () => 'abc.def.ghi'],
    ['unsigned (alg none)', async () => `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'u1', iss: issuer, aud: 'kmx-web', exp: 9e9 })).toString('base64url')}.`],
  ])('refuses a token %s, without asking the provider', async (_name, make) => {
    const { verify } = verifier();
    await expect(verify(await make())).rejects.toBeInstanceOf(InvalidTokenError);
    expect(provider.calls).toHaveLength(0);
  });

  it.each([
    ['without typ (an OIDC ID token)', null],
    ['of typ JWT', 'JWT'],
    ['of typ logout+jwt', 'logout+jwt'],
  ])('refuses an ID token: a token %s signed by the provider for our audience is no access token', async (_name, typ) => {
    const { verify } = verifier();
    const idToken = await sign({ email: 'claire@example.com', nonce: 'n' }, { typ });
    await expect(verify(idToken)).rejects.toThrow(new InvalidTokenError('The bearer token is not an access token'));
    expect(provider.calls).toHaveLength(0);
  });

  it('accepts the media type form application/at+jwt', async () => {
    const { verify } = verifier();
    expect((await verify(await sign({}, { typ: 'application/at+jwt' }))).sub).toBe('u1');
  });

  it('an unreachable provider is not the caller\'s fault', async () => {
    const { verify } = verifier({ issuer: 'http://127.0.0.1:9/am/oauth2/realms/root/realms/alpha', timeoutMs: 500 });
    await expect(verify(await sign({}))).rejects.toBeInstanceOf(IdentityUnavailableError);
  });

  it('scope as a string or a list', () => {
    expect(scopeList('a  b')).toEqual(['a', 'b']);
    expect(scopeList(['a', 1])).toEqual(['a']);
    expect(scopeList(undefined)).toEqual([]);
  });

  it('only GET and HEAD are reads', () => {
    expect(['GET', 'HEAD'].map(isReadMethod)).toEqual([true, true]);
    expect(['POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'].map(isReadMethod)).toEqual([false, false, false, false, false]);
  });
});

describe('revocation', () => {
  it('a revoked token is refused by a write at once, by reads once the cache window (≤ 30 s) passed', async () => {
    const { verify } = verifier({ cacheTtlMs: 15_000 });
    const token = await sign({});
    await verify(token);
    provider.revoked.add(decodeJwt(token).jti!);

    // A write always asks the provider.
    await expect(verify(token, { fresh: true })).rejects.toThrow(new InvalidTokenError('The access token is no longer active (revoked or signed out)'));
    // What the write learnt holds for reads too.
    await expect(verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('a read may reuse the answer within the window, never after it', async () => {
    const { verify, clock } = verifier({ cacheTtlMs: 15_000 });
    const token = await sign({});
    await verify(token);
    provider.revoked.add(decodeJwt(token).jti!);
    clock.t += 14_000;
    expect((await verify(token)).sub).toBe('u1');
    expect(provider.calls).toHaveLength(1);
    clock.t += 1_001;
    await expect(verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
    expect(provider.calls).toHaveLength(2);
  });

  it('a cache window configured over 30 s is held to 30 s', async () => {
    const { verify, clock } = verifier({ cacheTtlMs: 120_000 });
    const token = await sign({});
    await verify(token);
    provider.revoked.add(decodeJwt(token).jti!);
    clock.t += 30_001;
    await expect(verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('a window of 0 asks on every read; concurrent reads of one token share one request', async () => {
    const { verify } = verifier({ cacheTtlMs: 0 });
    const token = await sign({});
    // The provider holds its answer until all three reads wait for the one request in flight.
    let release!: () => void;
    provider.hold = new Promise<void>((ok) => { release = ok; });
    const reads = Promise.all([verify(token), verify(token), verify(token)]);
    await vi.waitFor(() => expect(verify.stats()).toMatchObject({ requests: 1, shared: 2 }));
    provider.hold = null;
    release();
    await reads;
    expect(provider.calls).toHaveLength(1);
    await verify(token);
    expect(provider.calls).toHaveLength(2);
  });

  it('an inactive answer is remembered: the next read is refused without asking again', async () => {
    const { verify } = verifier();
    const token = await sign({});
    provider.revoked.add(decodeJwt(token).jti!);
    await expect(verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
    expect(provider.calls).toHaveLength(1);
  });

  it('refuses a token the provider says belongs to another subject', async () => {
    const { verify } = verifier();
    provider.mode = 'other-subject';
    await expect(verify(await sign({}))).rejects.toBeInstanceOf(InvalidTokenError);
  });
});

describe('the provider cannot confirm the token: 503, the token never passes', () => {
  it.each([
    ['does not answer in time', 'slow'],
    ['answers 500', 'error'],
    ['answers no RFC 7662 JSON', 'garbage'],
    ['refuses our client (wrong secret)', 'refuse-client'],
  ] as const)('introspection %s', async (_name, mode) => {
    const { verify } = verifier({ timeoutMs: 500 });
    provider.mode = mode;
    // 'slow' never answers: the rejection itself proves the verifier's timeout ended the wait.
    await expect(verify(await sign({}))).rejects.toBeInstanceOf(IdentityUnavailableError);
  });

  it('a write with the provider failing is refused even for a token a read accepted a moment ago', async () => {
    const { verify } = verifier({ timeoutMs: 500 });
    const token = await sign({});
    await verify(token);
    provider.mode = 'slow';
    await expect(verify(token, { fresh: true })).rejects.toBeInstanceOf(IdentityUnavailableError);
  });

  it('the error names the client variables but never the secret', async () => {
    const { verify } = verifier();
    provider.mode = 'refuse-client';
    const err = await verify(await sign({})).then(() => new Error('accepted'), (e: unknown) => e as Error);
    expect(err.message).toMatch(/IDENTITY_INTROSPECTION_CLIENT_SECRET/);
    expect(err.message).not.toContain(CLIENT.clientSecret);
  });

  it('without a client secret no token passes', async () => {
    const { verify } = verifier({ introspection: { clientId: 'kmx-api' } });
    await expect(verify(await sign({}))).rejects.toThrow(/not configured/);
    expect(provider.calls).toHaveLength(0);
  });

  it('a provider naming no introspection endpoint lets no token pass', async () => {
    provider.advertise = false;
    const { verify } = verifier();
    await expect(verify(await sign({}))).rejects.toThrow(/introspection_endpoint/);
  });
});
