/**
 * Lets a sign-in page reach the identity provider, and only such pages: connect-src for the
 * discovery, token, user info and revocation requests, frame-src for the hidden-frame
 * authorization (which ends on our own /blank-callback). Every other page keeps Astro's policy.
 * Applied by the middleware to the policy header of the rendered page (Astro's per-request
 * `csp.insertDirective` is a no-op in middleware, and too late in a layout below the page).
 * @example withIdentityProvider("default-src 'self';connect-src 'self'", 'http://idp.test')
 *   // "default-src 'self';connect-src 'self' http://idp.test;frame-src 'self' http://idp.test"
 */
export function withIdentityProvider(csp: string, issuer: string): string {
  const origin = new URL(issuer).origin;
  const directives = csp.split(';').map((d) => d.trim()).filter(Boolean);
  for (const name of ['connect-src', 'frame-src']) {
    const i = directives.findIndex((d) => d.split(/\s+/)[0] === name);
    if (i === -1) directives.push(`${name} 'self' ${origin}`);
    else if (!directives[i]!.split(/\s+/).includes(origin)) directives[i] = `${directives[i]} ${origin}`;
  }
  return directives.join(';');
}
