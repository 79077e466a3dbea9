import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is the map a newcomer finds files with; docs/server.md and docs/features/*.md
 * hold the detail: a path they name in backticks must exist, or the map sends people to nothing after a
 * file moves. Placeholders (`src/features/<feature>/`, `src/pages/api/{name}.ts`, globs) are
 * checked up to the folder before the first placeholder.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const CHECKED = /^(?:src|emulators|scripts|tests)\//;
const PLACEHOLDER = /[<{*…[]/;

/** The repository paths a markdown text names in backticks (inline code spans). */
export function namedPaths(markdown: string): string[] {
  return [...markdown.matchAll(/`([^`\n]+)`/g)]
    .map((m) => m[1]!.trim())
    .filter((code) => CHECKED.test(code) && !/\s/.test(code));
}

/** The part of a named path that must exist: all of it, or the folders before its first placeholder. */
export function existingPart(path: string): string {
  const cut = path.search(PLACEHOLDER);
  if (cut < 0) return path.replace(/[.,:;)]+$/, '');
  return path.slice(0, path.lastIndexOf('/', cut) + 1);
}

function docs(): string[] {
  const features = join(root, 'docs/features');
  return [
    'docs/architecture.md',
    'docs/server.md',
    ...(existsSync(features) ? readdirSync(features).filter((n) => n.endsWith('.md')).map((n) => `docs/features/${n}`) : []),
  ];
}

describe('paths named in the architecture docs', () => {
  it('finds paths and cuts placeholders', () => {
    expect(namedPaths('see `src/a.ts` and `npm start`, `tests/e2e/x.spec.ts`; `src/x y`')).toEqual(['src/a.ts', 'tests/e2e/x.spec.ts']);
    expect(existingPart('src/features/<feature>/model.ts')).toBe('src/features/');
    expect(existingPart('src/pages/api/{name}.ts')).toBe('src/pages/api/');
    expect(existingPart('emulators/data/content/editorial/*.json')).toBe('emulators/data/content/editorial/');
    expect(existingPart('src/server/main.ts')).toBe('src/server/main.ts');
  });

  it('every feature folder has its page in docs/features/', () => {
    const folders = readdirSync(join(root, 'src/features'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const missing = folders.filter((name) => !existsSync(join(root, 'docs/features', `${name}.md`)));
    expect(missing, 'features without docs/features/<feature>.md').toEqual([]);
  });

  it.each(docs())('every backticked src/, emulators/, scripts/, tests/ path in %s exists', (doc) => {
    const text = readFileSync(join(root, doc), 'utf8');
    const missing = [...new Set(namedPaths(text).map(existingPart))].filter((p) => !existsSync(join(root, p)));
    expect(missing, `${doc} names paths that do not exist`).toEqual([]);
  });
});
