import type { AstroGlobal } from 'astro';
import { pageContext } from '../platform/context.ts';
import { PROTECTED_HEADERS, type PageGate } from './gate.server.ts';
import type { PasswordError } from './password.server.ts';

/** What ProtectedGateView renders. */
export type GateView = { kind: 'password'; error?: PasswordError; retryAfterSeconds?: number } | { kind: 'sign-in'; pageId: string; grantPath: string };

/**
 * Applies a gate to the content route's answer: every answer about a protected page (form, shell,
 * content) is `Cache-Control: private, no-store` and `X-Robots-Tag: noindex`; the form carries
 * its status (400 empty, 403 wrong, 429 with Retry-After); the sign-in shell may reach the
 * identity provider (CSP, as the customer area's pages). Returns a finished response (the 303
 * after a right password) or the view to render instead of the page (none: render the page).
 */
export function gateRender(astro: Pick<AstroGlobal, 'locals' | 'response' | 'csp'>, gate: PageGate): { response?: Response; view?: GateView } {
  if (gate.kind === 'public') return {};
  if (gate.kind === 'response') return { response: gate.response };
  for (const [k, v] of Object.entries(PROTECTED_HEADERS)) astro.response.headers.set(k, v);
  if (gate.kind === 'granted') return {};
  if (gate.kind === 'password') {
    astro.response.status = gate.status;
    if (gate.retryAfterSeconds) astro.response.headers.set('Retry-After', String(gate.retryAfterSeconds));
    return { view: { kind: 'password', ...(gate.error ? { error: gate.error } : {}), ...(gate.retryAfterSeconds ? { retryAfterSeconds: gate.retryAfterSeconds } : {}) } };
  }
  // The shell signs in in the browser: like the customer area, it may reach the provider (discovery,
  // token, user info) and frame its silent authorization. Set here, in the page: a layout is too late.
  const origin = new URL(pageContext(astro.locals).services.identity.issuer).origin;
  astro.csp?.insertDirective(`connect-src 'self' ${origin}`);
  astro.csp?.insertDirective(`frame-src 'self' ${origin}`);
  return { view: { kind: 'sign-in', pageId: gate.pageId, grantPath: gate.grantPath } };
}
