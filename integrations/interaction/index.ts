import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { buildLazyRuntime, ISLAND_RUNTIME_MODULE, type LazyRuntime } from './runtime.ts';

/**
 * Registers `client:interaction` (see ./directive.ts): an island that hydrates on the visitor's
 * first pointer, focus or key event inside it, so pages load no framework code until then.
 *
 * In a build, a page inlines neither the directive nor Astro's island runtime (about 2 KiB gzipped
 * of every page's first round trip): Astro inlines the small bootstrap (./bootstrap.ts) as the
 * directive and a loader (./runtime.ts) where its runtime was; the runtime and the full directive
 * are one module file, `_astro/island-runtime.<hash>.js`, imported at the first interaction (or at
 * once on a page with islands of other directives). The loader's CSP hash joins the policy; the
 * bootstrap's is Astro's own (it hashes every directive script). `astro dev` keeps Astro's way.
 */
export default function interactionDirective(): AstroIntegration {
  let lazy: LazyRuntime | null = null;
  let clientDir: URL | null = null;
  return {
    name: 'komax:client-interaction',
    hooks: {
      'astro:config:setup': async ({ addClientDirective, command, config, updateConfig }) => {
        if (command !== 'build') {
          addClientDirective({ name: 'interaction', entrypoint: fileURLToPath(new URL('./directive.ts', import.meta.url)) });
          return;
        }
        const runtime = lazy = await buildLazyRuntime();
        addClientDirective({ name: 'interaction', entrypoint: fileURLToPath(new URL('./bootstrap.ts', import.meta.url)) });
        updateConfig({
          // Astro merges the list into the configured one (the algorithm is the configured one too).
          security: { csp: { algorithm: typeof config.security.csp === 'object' ? config.security.csp.algorithm : 'SHA-256', scriptDirective: { hashes: [runtime.loaderHash] } } },
          vite: {
            plugins: [{
              name: 'komax:lazy-island-runtime',
              enforce: 'pre',
              load(id: string) {
                if (id.replaceAll('\\', '/').split('?')[0]!.endsWith(ISLAND_RUNTIME_MODULE)) return `export default ${JSON.stringify(runtime.loader)};`;
                return null;
              },
            }],
          },
        });
      },
      'astro:config:done': ({ config }) => {
        clientDir = config.build.client;
      },
      'astro:build:done': async ({ logger }) => {
        if (!lazy || !clientDir) return;
        const path = fileURLToPath(new URL(lazy.file, clientDir));
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, lazy.module);
        logger.info(`island runtime: /${lazy.file} (${lazy.module.length} B), loaded at the first interaction`);
      },
    },
  };
}
