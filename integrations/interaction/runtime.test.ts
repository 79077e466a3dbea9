import { describe, expect, it } from 'vitest';
import { buildLazyRuntime, loaderScript } from './runtime.ts';
import { FULL_DIRECTIVE, RUNTIME_LOADER } from './wake.ts';

describe('lazy island runtime', () => {
  it('is one module: the full directive registered first, then Astro\'s runtime defining astro-island', async () => {
    const runtime = await buildLazyRuntime();
    expect(runtime.file).toMatch(/^_astro\/island-runtime\.[\w-]{10}\.js$/);
    expect(runtime.module.indexOf(FULL_DIRECTIVE)).toBeGreaterThan(-1);
    expect(runtime.module.indexOf(FULL_DIRECTIVE)).toBeLessThan(runtime.module.indexOf('customElements.define("astro-island"'));
    expect(runtime.loader).toContain(`import("/${runtime.file}")`);
    expect(runtime.loaderHash).toMatch(/^sha256-[A-Za-z0-9+/]+=*$/);
    expect(await buildLazyRuntime()).toEqual(runtime);
  });

  it('the loader imports the runtime at once when another directive is registered, else when asked or announced', async () => {
    const run = (astro: Record<string, unknown>) => {
      const imports: string[] = [];
      const listeners = new Map<string, () => void>();
      const self: Record<string, unknown> = { Astro: astro };
      const script = loaderScript('/_astro/island-runtime.x.js').replace('import(', 'imp(');
      const imp = (url: string) => { imports.push(url); return Promise.resolve(); };
      new Function('self', 'imp', 'addEventListener', script)(self, imp, (type: string, fn: () => void) => listeners.set(type, fn));
      return { imports, listeners, load: self[RUNTIME_LOADER] as () => void };
    };
    const interactionOnly = run({ interaction: () => undefined });
    expect(interactionOnly.imports).toEqual([]);
    interactionOnly.load();
    expect(interactionOnly.imports).toEqual(['/_astro/island-runtime.x.js']);

    expect(run({ interaction: () => undefined, load: () => undefined }).imports).toHaveLength(1);

    const later = run({});
    later.listeners.get('astro:load')!();
    expect(later.imports).toHaveLength(1);
    expect(later.listeners.has('astro:interaction')).toBe(false);
  });
});
