/** Astro's per-request CSP API (`Astro.csp`), as far as the sign-in pages use it. */
interface RequestCsp {
  insertDirective(directive: never): void;
}

/**
 * Lets a sign-in page reach the identity provider, and only such pages: connect-src for the
 * discovery, token, user info and revocation requests of oidc-client-ts and ours, frame-src for
 * the hidden-frame authorization (which ends on our own /blank-callback). Every other page keeps
 * Astro's policy.
 */
export function allowIdentityProvider(csp: RequestCsp | undefined, issuer: string): void {
  const origin = new URL(issuer).origin;
  csp?.insertDirective(`connect-src 'self' ${origin}` as never);
  csp?.insertDirective(`frame-src 'self' ${origin}` as never);
}
