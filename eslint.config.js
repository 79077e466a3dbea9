// ESLint flat config: `npm run check` runs `eslint . --max-warnings 0`.
// The import-boundary rules below keep the folder structure of docs/architecture.md honest;
// src/architecture.test.ts checks for import cycles between folders, src/boundaries.test.ts proves the rules fail.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y';

// Import boundaries (docs/architecture.md, issue 8). ESLint keeps one option list per rule and file, so
// each block below repeats every restriction that applies to its files; the later, narrower block wins.
const SOURCES = '**/*.{js,mjs,ts,tsx,astro}';
const TESTS = '**/*.test.ts';
/** Only src/lib/graphql/ talks GraphQL over HTTP; the services use its graphQLService and ServiceError. */
const GRAPHQL_CLIENT = {
  regex: '^graphql-request(/|$)',
  message: 'Only src/lib/graphql/ may use graphql-request: use graphQLService and ServiceError from src/lib/graphql/query.ts.',
};
/** The emulators are test doubles of the external services: the app only reaches them over HTTP. */
const EMULATORS = {
  regex: '(^|/)emulators(/|$)',
  message: 'src/ may import emulators/ only in tests (*.test.ts); the app talks to the services over HTTP.',
};
/** src/lib/<service>/ is the bottom layer: it knows the services, not the app built on them. */
const LIB = {
  regex: '^(\\.\\./)+(features|components|pages|layouts|server|middleware)(/|\\.ts$|$)',
  message: 'src/lib/ may not import features, components, pages, layouts, server or middleware: pass what it needs as arguments or move the code up.',
};
/** src/site/ is the multi-site model as pure functions: itself and pure packages only. */
const PURE_PACKAGES = ['valibot'];
const siteOnly = (extra = []) => ({
  regex: `^(?!\\./|(${[...PURE_PACKAGES, ...extra].join('|')})$)`,
  message: `src/site/ is pure: it may import only from src/site/ and the pure packages ${PURE_PACKAGES.join(', ')}.`,
});
/** One `no-restricted-imports` block for `files` (minus `ignores`) with these restrictions. */
const restrict = (files, ignores, ...patterns) => ({
  files: [files].flat(),
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

export default defineConfig(
  { ignores: ['dist/', 'dist-*/', 'node_modules/', '.astro/', 'test-results/', 'playwright-report/', 'public/', '.cache/', '.bench/', '.bench-*'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  astro.configs['flat/recommended'],
  // Registers the jsx-a11y plugin for every file and turns on its rules (as astro/jsx-a11y/*) in .astro files.
  astro.configs['flat/jsx-a11y-recommended'],
  {
    files: ['**/*.tsx'],
    languageOptions: jsxA11y.flatConfigs.recommended.languageOptions,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A region that scrolls must be focusable, or keyboard users cannot scroll it (axe: scrollable-region-focusable).
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true }],
    },
  },
  {
    // The same rule for server components (the investor tables scroll in focusable regions).
    files: ['**/*.astro'],
    rules: { 'astro/jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true }] },
  },
  {
    // tsc checks names (typescript-eslint's advice): no-undef knows neither Node's nor the browser's globals.
    rules: {
      'no-undef': 'off',
      // `const { page: _page, ...rest } = x` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  restrict(SOURCES, [], GRAPHQL_CLIENT),
  restrict(`src/${SOURCES}`, [TESTS], GRAPHQL_CLIENT, EMULATORS),
  restrict(`src/site/${SOURCES}`, [TESTS], GRAPHQL_CLIENT, EMULATORS, siteOnly()),
  restrict(`src/site/${TESTS}`, [], siteOnly(['vitest'])),
  restrict(`src/lib/${SOURCES}`, [TESTS], GRAPHQL_CLIENT, EMULATORS, LIB),
  restrict(`src/lib/${TESTS}`, [], GRAPHQL_CLIENT, LIB),
  restrict(`src/lib/graphql/${SOURCES}`, [TESTS], EMULATORS, LIB),
  restrict(`src/lib/graphql/${TESTS}`, [], LIB),
);
