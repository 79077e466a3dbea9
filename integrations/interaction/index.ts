import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/**
 * Registers `client:interaction` (see ./directive.ts): an island that hydrates on the visitor's
 * first pointer, focus or key event inside it, so pages load no framework code until then.
 * Astro bundles the directive into each page that uses it (its hash goes into the CSP).
 */
export default function interactionDirective(): AstroIntegration {
  return {
    name: 'komax:client-interaction',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'interaction', entrypoint: fileURLToPath(new URL('./directive.ts', import.meta.url)) });
      },
    },
  };
}
