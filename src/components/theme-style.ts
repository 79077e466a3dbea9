import { createHash } from 'node:crypto';

/**
 * The rule of one theme class in a stylesheet (themes.css), or null: `.theme-vexo{--c-primary:…}`.
 * Only the page's own theme is inlined, not all eleven.
 */
export function themeRule(css: string, className: string): string | null {
  const escaped = className.replace(/[^\w-]/g, '');
  return new RegExp(`\\.${escaped}\\s*\\{[^}]*\\}`).exec(css)?.[0] ?? null;
}

/** The CSP source of an inline style's text: `sha256-…` (what `Astro.csp.insertStyleHash` takes). */
export function styleHash(css: string): string {
  return `sha256-${createHash('sha256').update(css).digest('base64')}`;
}
