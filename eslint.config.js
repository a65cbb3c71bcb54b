// The linter: typescript-eslint's recommended rules, React's hooks rules, and the layers' import
// boundaries (README, "How it is built"). Syntax only, no type information, so it stays fast.
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

/** An import of one of our top-level folders, at any depth of `../`. */
const reaching = (folders) => ({
  regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`,
  message: `This layer does not import ${folders.join(', ')} (README, "How it is built").`,
});

const boundary = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

const chartFolders = ['account', 'address', 'bankTransfer', 'basket', 'checkout', 'countdown', 'delivery', 'donation',
  'instalment', 'marketing', 'orderCompleted', 'payment', 'questions', 'reservation', 'seatSelection', 'square',
  'stepSaver', 'transfers', 'waiver'];

/** A chart imports the contract, its own folder, the test helpers, and the charts it invokes. */
const chartBoundary = (chart) => {
  const children = CHILDREN[chart] ?? [];
  const patterns = [reaching(OUR_FOLDERS.filter((f) => f !== 'contract'))];
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
    ignores: ['dist/', 'dist-*/', 'data/', 'reports/', '.stryker-tmp/', 'test-results*/', 'playwright-report/', 'docs/', 'server/db/migrations/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'ui/**/*.{ts,tsx}', 'server/**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
  },

  // Layers.
  boundary(['contract/**'], [reaching(OUR_FOLDERS)]),
  ...chartFolders.map(chartBoundary),
  boundary(['machines/testing/**', 'machines/*.ts'], [reaching(OUR_FOLDERS.filter((f) => f !== 'contract'))]),
  boundary(['ui/**'], [reaching(OUR_FOLDERS.filter((f) => f !== 'contract'))]),
  boundary(['src/**'], [reaching(['server', 'scripts', 'bench', 'e2e', 'tools'])]),
  boundary(['server/**'], [reaching(['src', 'machines', 'scripts', 'bench', 'e2e', 'tools'])]),
  // The server's tests may start the end-to-end tests' stand-ins (the local Stripe).
  boundary(['server/**/*.test.ts', 'server/test/**'], [reaching(['src', 'machines', 'scripts', 'bench', 'tools'])]),
);
