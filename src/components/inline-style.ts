import { createHash } from 'node:crypto';

/**
 * The rule of one theme class in a stylesheet (themes.css), or null: `.theme-vexo { --c-primary: … }`.
 * Only the page's own theme is inlined, not all eleven.
 */
export function themeRule(css: string, className: string): string | null {
  const escaped = className.replace(/[^\w-]/g, '');
  return new RegExp(`\\.${escaped}\\s*\\{[^}]*\\}`).exec(css)?.[0] ?? null;
}

/**
 * The inline style of a page in a theme other than the default (whose tokens are global.css's
 * `:root`): `html.theme-x { … }`, which outweighs `:root` although it comes before the bundled styles.
 */
export function themeStyle(themesCss: string, className: string): string | null {
  if (className === 'theme-default') return null;
  const rule = themeRule(themesCss, className);
  return rule && `html${rule}`;
}

/** The CSP source of an inline style's text: `sha256-…` (what `Astro.csp.insertStyleHash` and the config's `styleDirective.hashes` take). */
export function styleHash(css: string): `sha256-${string}` {
  return `sha256-${createHash('sha256').update(css).digest('base64')}`;
}

/**
 * Allows an inline style in the page's policy. Call it from the route's own frontmatter: an
 * on-demand page sends its policy header before nested components render, so a hash added there
 * would reach the prerendered meta tag but not the header.
 */
export function allowInlineStyle(csp: { insertStyleHash(hash: `sha256-${string}`): void } | undefined, css: string | null): void {
  if (css) csp?.insertStyleHash(styleHash(css));
}
