import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'i18n/**/*.test.ts',
      'contract/**/*.test.ts',
      'ui/**/*.test.{ts,tsx}',
      'machines/**/*.test.ts',
      'src/**/*.test.{ts,tsx}',
      'server/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    exclude: ['node_modules', 'dist', 'e2e'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker runs its files one after another in one module graph rather than importing the
    // server anew for each file (import time was a third of the run). Each server file still
    // opens its own database, and no file leaves anything in a module that another reads.
    isolate: false,
    // One test file per core: most of a server test's time is the database's (PGlite in the worker,
    // or the PostgreSQL server), so Vitest's default of one worker fewer than the cores leaves one idle.
    maxWorkers: Math.max(2, availableParallelism()),
    // Migrates and seeds once for the whole run; each server test file starts from a copy.
    globalSetup: ['server/test/globalSetup.ts'],
    // Every test reads the messages in en-GB, the spec's English (i18n/).
    setupFiles: ['i18n/testSetup.ts'],
  },
});
