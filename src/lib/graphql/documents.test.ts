import { describe, expect, it } from 'vitest';
// The CommonJS build of graphql, the one graphql-yoga's schema is made of when Node loads it: the bare
// 'graphql' resolves to index.mjs under Vite, and validate() refuses a schema from the other copy.
import { Kind, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql/index.js';
import { createSchema } from 'graphql-yoga';
import { CONTENT_HUB_TYPE_DEFS } from '../../../emulators/content-hub/server.ts';
import { CATALOGUE_TYPE_DEFS } from '../../../emulators/catalogue/server.ts';

/**
 * Every GraphQL document the site sends must be valid against the SDL the emulators serve, built
 * the same way the emulators build it. The documents are collected from the modules themselves
 * (every exported string or DocumentNode of every `src/lib/<service>/*queries*.ts` and one folder deeper), so a new
 * query, or a new queries module, is checked without touching this test.
 */

/** The schema each service folder's documents are sent to. */
const SCHEMAS: Record<string, () => GraphQLSchema> = {
  content: () => createSchema({ typeDefs: CONTENT_HUB_TYPE_DEFS }),
  catalogue: () => createSchema({ typeDefs: CATALOGUE_TYPE_DEFS }),
};

const modules = import.meta.glob<Record<string, unknown>>(['../*/*queries*.ts', '../*/*/*queries*.ts', '!../**/*.test.ts'], { eager: true });

function isDocumentNode(value: unknown): value is DocumentNode {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === Kind.DOCUMENT;
}

/** The exported documents of a module, by export name. */
function documentsOf(mod: Record<string, unknown>): [string, DocumentNode | string][] {
  return Object.entries(mod).filter((e): e is [string, DocumentNode | string] => typeof e[1] === 'string' || isDocumentNode(e[1]));
}

/** The messages of `validate()` for one document (a parse error is one message). */
function problemsOf(schema: GraphQLSchema, doc: DocumentNode | string): string[] {
  let ast: DocumentNode;
  try {
    ast = typeof doc === 'string' ? parse(doc) : doc;
  } catch (err) {
    return [`does not parse: ${(err as Error).message}`];
  }
  return validate(schema, ast).map((e) => e.message);
}

const cases = Object.entries(modules).map(([path, mod]) => ({ path, folder: path.split('/')[1]!, docs: documentsOf(mod) }));

describe('GraphQL documents against the emulators\' SDL', () => {
  it('finds the queries modules of both services', () => {
    expect(cases.map((c) => c.path).sort()).toEqual(expect.arrayContaining([
      '../catalogue/queries.ts', '../content/editorial/queries.ts', '../content/queries.ts',
    ]));
  });

  for (const { path, folder, docs } of cases) {
    describe(path, () => {
      it('has a schema for its service and exports documents', () => {
        expect(Object.keys(SCHEMAS), `no emulator schema known for src/lib/${folder}`).toContain(folder);
        expect(docs.length).toBeGreaterThan(0);
      });
      const schema = SCHEMAS[folder] ? SCHEMAS[folder]() : undefined;
      for (const [name, doc] of docs) {
        it(`${name} is valid`, () => {
          expect(schema).toBeDefined();
          expect(problemsOf(schema!, doc)).toEqual([]);
        });
      }
    });
  }

  it('catches a misspelt field', () => {
    const schema = SCHEMAS.catalogue!();
    expect(problemsOf(schema, '{ allClassificationz { id } }').join('\n')).toMatch(/Cannot query field "allClassificationz"/);
  });
});
