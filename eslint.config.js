// The linter. What it holds:
// - typescript-eslint's recommended rules and React's hooks rules;
// - the layers' import boundaries (README, "How it is built"): the contract imports none of our
//   folders; a chart imports the contract, its own folder, the test helpers and the charts it
//   invokes (every folder of machines/ is a chart's, read from the directory, so a new chart is
//   under the rule at once); ui/ and machines/ import no other layer; src/ no server; server/ no
//   src/ or machines/;
// - libraries where they do not belong: no React, ky or TanStack in machines/ (a chart reaches the
//   app only through what it is provided); no Fastify, nor the server's http/, routes/ or
//   providers/, in server/domain/ (the domain is handed what it needs);
// - no SQL in the server's web layer (server/http/, routes/, plugins/, views/; tests may): no
//   drizzle-orm, no tables from server/db/schema, no query helpers from server/db/index.ts. SQL
//   lives in server/domain/, and in server/db/ for generic storage (sessions, rate limits); the web
//   layer calls their named functions;
// - `as unknown as` nowhere in production code but the one seam, contract/unchecked.ts (tests may
//   build fakes with it);
// - with type information, on production code only: no floating promise
//   (@typescript-eslint/no-floating-promises: await it, return it, or mark it `void` on purpose)
//   and every case of a union handled in a switch (@typescript-eslint/switch-exhaustiveness-check).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { tseslint } from 'holdfast-lint';

/** The charts a chart invokes as its own children: the only other charts' folders it may import. */
const CHILDREN = {
  // The root invokes every step's chart.
  checkout: '*',
  payment: ['instalment', 'square', 'address'],
  orderCompleted: ['transfers'],
};

const OUR_FOLDERS = ['contract', 'machines', 'ui', 'src', 'server', 'scripts', 'bench', 'e2e', 'tools'];
/** The message catalogue is below every layer: any may import it, it imports none. */
const CATALOGUE_FOLDER = 'i18n';

/** An import of one of our top-level folders, at any depth of `../`. */
const reaching = (folders) => ({
  regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`,
  message: `This layer does not import ${folders.join(', ')} (README, "How it is built").`,
});

const boundary = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

/** Every chart's folder: each folder of machines/ but the test helpers'. */
const chartFolders = readdirSync(new URL('./machines/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'testing')
  .map((entry) => entry.name);

/** Libraries a chart never imports: the UI's and the HTTP client's. */
const NOT_IN_CHARTS = {
  group: ['react', 'react/*', 'react-dom', 'react-dom/*', '@xstate/react', 'ky', 'ky/*', '@tanstack/*'],
  message:
    'A chart does not import React, ky or TanStack: the app provides what a chart calls (machines/providedByApp.ts).',
};

/** What the domain never imports: HTTP (Fastify, the web layer, the routes) and the providers' wiring. */
const NOT_IN_DOMAIN = [
  {
    group: ['fastify', 'fastify-plugin', '@fastify/*'],
    message: 'The domain knows nothing of HTTP: the routes (server/routes/) call it.',
  },
  {
    regex: '^(\\.\\./)+(http|routes|providers)(/|$)',
    message:
      "The domain imports neither the web layer (http/, routes/) nor the providers' wiring: it is handed what it needs.",
  },
];

/** The server's web layer: it calls the domain, and writes no SQL of its own. */
const WEB_LAYER = ['server/http/**', 'server/routes/**', 'server/plugins/**', 'server/views/**'];
/** Pages not yet through the domain: they still read tables themselves. */
const NO_SQL_HERE =
  'SQL lives in server/domain/ (and server/db/ for generic storage such as sessions and rate limits): call a named function from there.';
const NOT_IN_WEB_LAYER = [
  { group: ['drizzle-orm', 'drizzle-orm/*'], message: `The web layer writes no SQL. ${NO_SQL_HERE}` },
  { regex: '^(\\.\\./)+db/schema(\\.ts)?(/|$)', message: `The web layer reads no tables. ${NO_SQL_HERE}` },
  {
    regex: '^(\\.\\./)+db/index(\\.ts)?$',
    importNames: ['rows', 'preparedRows'],
    message: `The web layer runs no queries. ${NO_SQL_HERE}`,
  },
];

/** `as unknown as` is refused outside the seam (contract/unchecked.ts). */
const NO_AS_UNKNOWN_AS = {
  selector: 'TSAsExpression[expression.type="TSAsExpression"][expression.typeAnnotation.type="TSUnknownKeyword"]',
  message:
    'No `as unknown as` outside the seam: call unchecked<T>() (contract/unchecked.ts) and say what vouches for the type.',
};

/**
 * The folders whose every word comes from the message catalogue (i18n/, docs/i18n.md): no text
 * written in JSX, and no words in the attributes a buyer reads or hears.
 */
const TRANSLATED = [
  'ui/**/*.tsx',
  'src/steps/**/*.tsx',
  'src/components/**/*.tsx',
  'src/app/**/*.tsx',
  'src/seats/**/*.tsx',
  'src/queue/**/*.{ts,tsx}',
  'server/views/**/*.tsx',
];
const NO_LITERAL_TEXT = [
  {
    selector: 'JSXText[value=/[A-Za-z]/]',
    message: "Words on screen come from the message catalogue: t('key') or rich() (i18n/, docs/i18n.md).",
  },
  {
    selector:
      'JSXAttribute[name.name=/^(aria-label|aria-description|label|placeholder|title|alt|dismissLabel)$/] > Literal[value=/[A-Za-z]/]',
    message: "Words a buyer reads or hears come from the message catalogue: t('key') (i18n/, docs/i18n.md).",
  },
];

/** A labelled field on the screens is drawn by the Field kit; a label wrapping its own checkbox or radio (a choice) is not a field. */
const LABEL_THROUGH_FIELD = {
  selector: "JSXOpeningElement[name.name='label']:has(JSXAttribute[name.name='htmlFor'])",
  message:
    'A labelled field is drawn by Field (src/components/Field.tsx): it wires the label, the hint and the error to the control.',
};

/** Production code: every file of the layers but tests and their helpers. */
const PRODUCTION = [
  'contract/**/*.{ts,tsx}',
  'ui/**/*.{ts,tsx}',
  'src/**/*.{ts,tsx}',
  'machines/**/*.{ts,tsx}',
  'server/**/*.{ts,tsx}',
];
const TESTS = ['**/*.test.{ts,tsx}', 'machines/testing/**', 'server/test/**', 'server/db/testing.ts'];

/** A chart imports the contract, its own folder, the test helpers, and the charts it invokes. */
const chartBoundary = (chart) => {
  const children = CHILDREN[chart] ?? [];
  const patterns = [reaching(OUR_FOLDERS.filter((f) => f !== 'contract')), NOT_IN_CHARTS];
  if (children !== '*') {
    const allowed = [chart, 'testing', ...children].join('|');
    patterns.push({
      regex: `^\\.\\./(?!(${allowed})/)[^./][^/]*/`,
      message: `A chart imports another chart's folder only to invoke it as its own child (${chart} invokes ${children.length ? children.join(', ') : 'none'}).`,
    });
  }
  return boundary([`machines/${chart}/**`], patterns);
};

export default defineConfig(
  {
    ignores: [
      'dist/',
      'dist-*/',
      'data/',
      'reports/',
      '.stryker-tmp/',
      'test-results*/',
      'playwright-report/',
      'docs/',
      'server/db/migrations/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'ui/**/*.{ts,tsx}', 'server/**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
  },

  // Layers.
  boundary(['contract/**'], [reaching(OUR_FOLDERS)]),
  boundary([`${CATALOGUE_FOLDER}/**`], [reaching(OUR_FOLDERS)]),
  ...chartFolders.map(chartBoundary),
  boundary(
    ['machines/testing/**', 'machines/*.ts'],
    [reaching(OUR_FOLDERS.filter((f) => f !== 'contract')), NOT_IN_CHARTS],
  ),
  boundary(['ui/**'], [reaching(OUR_FOLDERS.filter((f) => f !== 'contract'))]),
  boundary(['src/**'], [reaching(['server', 'scripts', 'bench', 'e2e', 'tools'])]),
  boundary(['server/**'], [reaching(['src', 'machines', 'scripts', 'bench', 'e2e', 'tools'])]),
  // The server's tests may start the end-to-end tests' stand-ins (the local Stripe).
  boundary(['server/**/*.test.ts', 'server/test/**'], [reaching(['src', 'machines', 'scripts', 'bench', 'tools'])]),
  {
    files: ['server/domain/**'],
    ignores: ['server/domain/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [reaching(['src', 'machines', 'scripts', 'bench', 'e2e', 'tools']), ...NOT_IN_DOMAIN] },
      ],
    },
  },
  {
    files: WEB_LAYER,
    ignores: ['server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [reaching(['src', 'machines', 'scripts', 'bench', 'e2e', 'tools']), ...NOT_IN_WEB_LAYER] },
      ],
    },
  },

  // `as unknown as` only in the seam.
  {
    files: [...PRODUCTION, 'server/db/testing.ts'],
    ignores: ['**/*.test.{ts,tsx}', 'machines/testing/**', 'server/test/**', 'contract/unchecked.ts'],
    rules: { 'no-restricted-syntax': ['error', NO_AS_UNKNOWN_AS] },
  },

  // No words written into the translated folders' screens.
  {
    files: TRANSLATED,
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', NO_AS_UNKNOWN_AS, ...NO_LITERAL_TEXT] },
  },

  // The screens' labelled fields go through the Field kit. The donation's Other amount label wraps
  // the currency sign and its input, a layout the kit does not draw.
  {
    files: ['src/steps/**/*.tsx', 'src/components/**/*.tsx'],
    ignores: ['**/*.test.{ts,tsx}', 'src/components/Field.tsx', 'src/steps/donation/DonationStep.tsx'],
    rules: { 'no-restricted-syntax': ['error', NO_AS_UNKNOWN_AS, ...NO_LITERAL_TEXT, LABEL_THROUGH_FIELD] },
  },

  // Type-aware rules, on production code.
  {
    files: PRODUCTION,
    ignores: TESTS,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
);
