import { describe, expect, it } from 'vitest';
import { withIdentityProvider } from './csp.ts';

const issuer = 'http://localhost:4102/am/oauth2/realms/root/realms/alpha';

describe('the CSP of sign-in pages', () => {
  it("adds the provider's origin to connect-src and a frame-src; nothing else changes", () => {
    expect(withIdentityProvider("default-src 'self';connect-src 'self';object-src 'none'; script-src 'self' 'sha256-x'", issuer))
      .toBe("default-src 'self';connect-src 'self' http://localhost:4102;object-src 'none';script-src 'self' 'sha256-x';frame-src 'self' http://localhost:4102");
  });
  it('creates connect-src when absent, extends an existing frame-src, never twice', () => {
    const once = withIdentityProvider("default-src 'self';frame-src https://video.test", issuer);
    expect(once).toBe("default-src 'self';frame-src https://video.test http://localhost:4102;connect-src 'self' http://localhost:4102");
    expect(withIdentityProvider(once, issuer)).toBe(once);
  });
});
