import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import-boundary rules of eslint.config.js, proven on snippets linted as if they were files
 * in the given folders (the files need not exist).
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The messages of the import-boundary rule for `code` linted as `file` (relative to the repository). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the import boundaries', () => {
  it('keep the emulators out of src/ except in tests', async () => {
    const code = "import { startContentHub } from '../../../emulators/content-hub/server.ts';\nexport const s = startContentHub;\n";
    expect(await boundaryErrors('src/features/basket/x.ts', code.replace('../../../', '../../'))).toEqual([
      expect.stringContaining('src/ may import emulators/ only in tests'),
    ]);
    expect(await boundaryErrors('src/lib/content/x.ts', code)).toEqual([expect.stringContaining('emulators/ only in tests')]);
    expect(await boundaryErrors('src/lib/content/x.test.ts', code)).toEqual([]);
  });

  it('leave graphql-request to src/lib/graphql/', async () => {
    const code = "import { ClientError } from 'graphql-request';\nexport const C = ClientError;\n";
    expect(await boundaryErrors('src/features/search/x.ts', code)).toEqual([expect.stringContaining('Only src/lib/graphql/ may use graphql-request')]);
    expect(await boundaryErrors('src/lib/content/x.ts', code)).toEqual([expect.stringContaining('Only src/lib/graphql/')]);
    expect(await boundaryErrors('scripts/x.ts', code)).toEqual([expect.stringContaining('Only src/lib/graphql/')]);
    expect(await boundaryErrors('src/lib/graphql/x.ts', code)).toEqual([]);
  });

  it('keep src/lib/ below the app', async () => {
    for (const target of ['../../components/ui/Icon.tsx', '../../features/basket/store.ts', '../../pages/index.astro', '../../layouts/Default.astro', '../../server/boot/env.ts', '../../middleware.ts']) {
      expect(await boundaryErrors('src/lib/content/x.ts', `import x from '${target}';\nexport default x;\n`), target).toEqual([
        expect.stringContaining('src/lib/ may not import'),
      ]);
    }
    expect(await boundaryErrors('src/lib/content/x.ts', "import { a } from '../../site/links.ts';\nimport { b } from '../log/index.ts';\nexport const c = [a, b];\n")).toEqual([]);
  });

  it('keep src/site/ pure', async () => {
    const errors = await boundaryErrors(
      'src/site/x.ts',
      "import { a } from '../lib/graphql/query.ts';\nimport { b } from '../i18n/index.ts';\nimport c from 'i18next';\nimport { readFileSync } from 'node:fs';\nexport const d = [a, b, c, readFileSync];\n",
    );
    expect(errors).toHaveLength(4);
    for (const e of errors) expect(e).toContain('src/site/ is pure');
    expect(await boundaryErrors('src/site/x.ts', "import * as v from 'valibot';\nimport { a } from './links.ts';\nexport const b = [v, a];\n")).toEqual([]);
    expect(await boundaryErrors('src/site/x.test.ts', "import { it } from 'vitest';\nit('works', () => {});\n")).toEqual([]);
  });

  it('apply to the frontmatter of .astro files', async () => {
    const code = "---\nimport { startCatalogue } from '../../../emulators/catalogue/server.ts';\nconst s = startCatalogue;\n---\n<p>{String(s)}</p>\n";
    expect(await boundaryErrors('src/features/basket/X.astro', code.replace('../../../', '../../'))).toEqual([expect.stringContaining('emulators/ only in tests')]);
  });
});
