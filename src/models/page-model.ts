import type { FooterNavigation, HeaderNavigation } from '../site/navigation-types.ts';

/**
 * What every rendered page is made from: a kind (which route renders it), the site chrome, and
 * the records of the page itself. The prerender writes it as `_payload.json` and hashes it into
 * the route's fingerprint, so it must hold every record the page shows and nothing protected.
 */
export interface PageModelBase {
  kind: string;
  header: HeaderNavigation | null;
  footer: FooterNavigation | null;
}

/** Text of a page for the site search (built from payloads, never from protected pages). */
export interface SearchText {
  title: string;
  description: string;
  body: string;
}
