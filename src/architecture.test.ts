import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Folder cycles: the import graph of src/ between its folders (lib/<service>, features/<name>,
 * site, i18n, components, components/ui, server, pages, layouts, middleware) must have no cycle, so every
 * folder can be read, tested and moved with only the folders below it. Test files are left out
 * (a test may reach across to set up its world); the import-boundary rules are in eslint.config.js.
 */

const SRC = dirname(fileURLToPath(import.meta.url));

/**
 * Cycles allowed to exist (each a group of folders that import each other, sorted names joined by
 * ' ↔ '): none. The test fails on any cycle, and on an entry here that is gone.
 */
const ALLOWED_CYCLES = new Set<string>([]);

/** The folder a file belongs to, or null for files outside the graph (env.d.ts, this test). */
export function folderOf(file: string): string | null {
  const parts = relative(SRC, file).split(/[\\/]/);
  if (parts[0] === '..' || parts.length === 0) return null;
  if (parts.length === 1) {
    const name = parts[0]!.replace(/\.(ts|tsx|astro|js|mjs)$/, '');
    return name === 'env.d' || name.endsWith('.test') ? null : name;
  }
  // components/ui holds the primitives (icons, buttons, flash messages) features build on; the rest
  // of components/ is the chrome and the content modules, which place features' islands.
  if ((parts[0] === 'lib' || parts[0] === 'features' || (parts[0] === 'components' && parts[1] === 'ui')) && parts.length > 2) {
    return `${parts[0]}/${parts[1]}`;
  }
  return parts[0]!;
}

/** Every relative module specifier of a source: import/export … from, side-effect imports, import(). */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]!);
  return [...new Set(found)].filter((s) => s.startsWith('.'));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|astro|js|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [path] : [];
  });
}

/** Folder → folders it imports from (itself left out). */
export function folderGraph(files: { path: string; source: string }[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { path, source } of files) {
    const from = folderOf(path);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const spec of specifiers(source)) {
      const to = folderOf(resolve(dirname(path), spec));
      if (to && to !== from) graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** The cycles of a graph: each strongly connected group of 2+ folders, as one closed path through it. */
export function folderCycles(graph: Map<string, Set<string>>): { members: string[]; path: string[] }[] {
  // Tarjan's strongly connected components.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  // One closed path per group: breadth-first from its first member back to itself, inside the group.
  return groups.map((members) => {
    const inGroup = new Set(members);
    const start = members[0]!;
    const previous = new Map<string, string>();
    const queue = [start];
    let last: string | undefined;
    while (queue.length && !last) {
      const node = queue.shift()!;
      for (const to of [...(graph.get(node) ?? [])].sort()) {
        if (!inGroup.has(to)) continue;
        if (to === start) {
          last = node;
          break;
        }
        if (!previous.has(to)) {
          previous.set(to, node);
          queue.push(to);
        }
      }
    }
    const path = [start];
    for (let node = last!; node !== start; node = previous.get(node)!) path.splice(1, 0, node);
    path.push(start);
    return { members, path };
  });
}

describe('the folder graph of src/', () => {
  it('finds the folder of a file and the relative specifiers of a source', () => {
    expect(folderOf(join(SRC, 'lib/content/index.ts'))).toBe('lib/content');
    expect(folderOf(join(SRC, 'features/basket/store.ts'))).toBe('features/basket');
    expect(folderOf(join(SRC, 'server/prerender/collect.ts'))).toBe('server');
    expect(folderOf(join(SRC, 'middleware.ts'))).toBe('middleware');
    expect(folderOf(join(SRC, 'env.d.ts'))).toBeNull();
    const astro = "---\nimport A from '../components/A.astro';\nimport { b, type C } from \"../lib/x/b.ts\";\nexport type { D } from './d.ts';\nimport 'pkg';\nconst e = await import('../site/e.ts');\n---\n<A />";
    expect(specifiers(astro)).toEqual(['../components/A.astro', '../lib/x/b.ts', './d.ts', '../site/e.ts']);
  });

  it('names a cycle between folders', () => {
    const graph = new Map([
      ['pages', new Set(['lib/content', 'site'])],
      ['lib/content', new Set(['site'])],
      ['site', new Set(['i18n'])],
      ['i18n', new Set(['lib/content'])],
    ]);
    expect(folderCycles(graph)).toEqual([{ members: ['i18n', 'lib/content', 'site'], path: ['i18n', 'lib/content', 'site', 'i18n'] }]);
    graph.get('i18n')!.clear();
    expect(folderCycles(graph)).toEqual([]);
  });

  it('has no cycle between folders', () => {
    const files = sourceFiles(SRC).map((path) => ({ path, source: readFileSync(path, 'utf8') }));
    const cycles = folderCycles(folderGraph(files)).map((c) => ({ key: c.members.join(' ↔ '), path: c.path.join(' → ') }));
    const unexpected = cycles.filter((c) => !ALLOWED_CYCLES.has(c.key)).map((c) => `import cycle between folders: ${c.path} (all of ${c.key} import each other)`);
    const gone = [...ALLOWED_CYCLES].filter((key) => !cycles.some((c) => c.key === key)).map((key) => `${key} is no longer a cycle: remove it from ALLOWED_CYCLES`);
    expect([...unexpected, ...gone]).toEqual([]);
  });
});
