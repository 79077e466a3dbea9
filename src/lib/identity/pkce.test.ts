import { describe, expect, it } from 'vitest';
import { base64Url, codeChallenge, createPkce } from './pkce.ts';

describe('PKCE (spec §7, §9)', () => {
  it('state of 16 random bytes, verifier of 32, base64url', async () => {
    const a = await createPkce();
    const b = await createPkce();
    expect(Buffer.from(a.state, 'base64url')).toHaveLength(16);
    expect(Buffer.from(a.verifier, 'base64url')).toHaveLength(32);
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.state).not.toBe(b.state);
    expect(a.challenge).toBe(await codeChallenge(a.verifier));
  });
  it('S256 challenge of RFC 7636 appendix B', async () => {
    expect(await codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(base64Url(new Uint8Array([251, 255]))).toBe('-_8');
  });
});
