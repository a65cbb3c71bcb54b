import { defineConfig } from 'vitest/config';
import LoadFailureReporter from './scripts/loadFailureReporter';

/**
 * The machine tests alone: what mutation testing runs against each mutant. With MUTATE_MACHINE set,
 * only that machine folder's tests run.
 */
const machine = process.env.MUTATE_MACHINE;

export default defineConfig({
  test: {
    include: [machine ? `machines/${machine}/**/*.test.ts` : 'machines/**/*.test.ts'],
    testTimeout: 120_000,
    pool: 'forks',
    setupFiles: ['i18n/testSetup.ts'],
    // A test file that cannot load counts as a failed test, so a mutant that breaks a chart's import is killed.
    reporters: ['default', new LoadFailureReporter()],
  },
});
