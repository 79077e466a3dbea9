import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
// The bundler Astro itself builds client directives with (core/client-directive/build.js).
import { build } from 'esbuild';
import { FULL_DIRECTIVE, RUNTIME_LOADER } from './wake.ts';

/** The module Astro's island runtime comes from; a built page inlines it at its first island. */
export const ISLAND_RUNTIME_MODULE = 'astro/dist/runtime/server/astro-island.prebuilt.js';

/** What a build needs to serve the island runtime as a module file instead of inlining it. */
export interface LazyRuntime {
  /** The module file: the full directive (./runtime-entry.ts), then Astro's runtime. */
  module: string;
  /** Its path under the client output, `_astro/island-runtime.<hash>.js`. */
  file: string;
  /** The script a page inlines in place of the runtime (see loaderScript). */
  loader: string;
  /** The loader's CSP hash, `sha256-…`. */
  loaderHash: `sha256-${string}`;
}

/**
 * The loader a built page inlines where Astro inlined its island runtime (once, before the first
 * island): it offers `self[RUNTIME_LOADER]()` to the `client:interaction` bootstrap
 * (./bootstrap.ts) and imports the runtime at once when the page has an island of another
 * directive (`client:load` …: its directive script is registered before, or announces itself
 * later with an `astro:<name>` event).
 *
 * @example loaderScript('/_astro/island-runtime.abc.js') // '(()=>{var s=self,l=s.__kmxLoad=…})();'
 */
export function loaderScript(url: string): string {
  // A module is evaluated once however often it is imported: no guard needed.
  return `(()=>{var s=self,l=s.${RUNTIME_LOADER}=()=>import(${JSON.stringify(url)}).catch(()=>{});`
    + `Object.keys(s.Astro||{}).some(k=>k!=="interaction")&&l();`
    + `for(var n of["load","idle","visible","media","only"])addEventListener("astro:"+n,l)})();`;
}

/** Builds the runtime module and its loader (deterministic: the file name is the content's hash). */
export async function buildLazyRuntime(): Promise<LazyRuntime> {
  const astroDist = dirname(createRequire(import.meta.url).resolve('astro'));
  const { default: runtime } = await import(pathToFileURL(join(astroDist, 'runtime/server/astro-island.prebuilt.js')).href) as { default: string };
  const entry = await build({
    entryPoints: [fileURLToPath(new URL('./runtime-entry.ts', import.meta.url))],
    bundle: true, minify: true, format: 'esm', write: false, target: 'es2022',
  });
  const module = `${entry.outputFiles[0]!.text}${runtime}\n`;
  if (!module.includes(FULL_DIRECTIVE)) throw new Error('island runtime: the directive entry did not register itself');
  const hash = createHash('sha256').update(module).digest('base64url').slice(0, 10);
  const file = `_astro/island-runtime.${hash}.js`;
  const loader = loaderScript(`/${file}`);
  return { module, file, loader, loaderHash: `sha256-${createHash('sha256').update(loader).digest('base64')}` };
}
