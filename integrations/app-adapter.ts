import { randomBytes } from 'node:crypto';
import node from '@astrojs/node';
import type { AstroIntegration } from 'astro';

/**
 * Wraps @astrojs/node (middleware mode) so the built `dist/server/entry.mjs` also exports the
 * Astro `App` and the build id. The prerender script renders every static route through that
 * App (no HTTP, about a millisecond a page) and our own server in `src/server/` serves it.
 *
 * The build id is fixed once per `astro build` and inlined as `import.meta.env.APP_BUILD_ID`.
 */
export default function appAdapter(): AstroIntegration {
  const inner = node({ mode: 'middleware' });
  const buildId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const entry = new URL('./server-entry.ts', import.meta.url).pathname;
  return {
    name: 'komax:app-adapter',
    hooks: {
      ...inner.hooks,
      'astro:config:setup': async (options) => {
        await inner.hooks['astro:config:setup']?.(options);
        options.updateConfig({ vite: { define: { 'import.meta.env.APP_BUILD_ID': JSON.stringify(buildId) } } });
      },
      'astro:config:done': (options) => {
        return inner.hooks['astro:config:done']?.({
          ...options,
          setAdapter: (adapter) => options.setAdapter({ ...adapter, serverEntrypoint: entry }),
        });
      },
    },
  };
}
