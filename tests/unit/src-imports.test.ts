import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The app never depends on the emulators or their test helpers (the OpenSearch stub lives in
 * emulators/search/): only tests under src/ may import from emulators/.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE = /\.(ts|tsx|mts|js|mjs|astro)$/;
const TEST = /\.(test|spec)\.[a-z]+$/;
// import … from '…', export … from '…', import('…'), side-effect import '…'
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

function sourcesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourcesBelow(path);
    return SOURCE.test(e.name) && !TEST.test(e.name) ? [path] : [];
  });
}

/** The import specifiers of a source file that reach into emulators/. */
function emulatorImports(file: string, text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => m[1]!).filter((spec) =>
    spec.startsWith('.') ? relative(root, join(file, '..', spec)).split(/[\\/]/)[0] === 'emulators' : /(^|\/)emulators\//.test(spec));
}

describe('src/ does not import emulators/', () => {
  it('finds the relative and aliased forms', () => {
    const file = join(root, 'src/lib/search/x.ts');
    expect(emulatorImports(file, `import { a } from '../../../emulators/search/opensearch-stub.ts';`)).toHaveLength(1);
    expect(emulatorImports(file, `const m = await import('../../../emulators/start.ts');`)).toHaveLength(1);
    expect(emulatorImports(file, `import { a } from './analysis.ts';\nimport '../../styles/x.css';`)).toEqual([]);
  });

  it('no non-test file under src/ imports from emulators/', () => {
    const offenders = sourcesBelow(join(root, 'src')).flatMap((file) =>
      emulatorImports(file, readFileSync(file, 'utf8')).map((spec) => `${relative(root, file)}: ${spec}`));
    expect(offenders).toEqual([]);
  });
});
