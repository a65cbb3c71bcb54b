import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['contract/**/*.test.ts', 'machines/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['node_modules', 'dist', 'e2e'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Migrates and seeds once for the whole run; each server test file starts from a copy.
    globalSetup: ['server/test/globalSetup.ts'],
  },
});
