import { defineConfig } from 'vitest/config';
import { postgresBin } from './support/postgres.js';

const root = new URL('..', import.meta.url).pathname;
const common = { root, testTimeout: 20_000, hookTimeout: 30_000, globalSetup: ['test/support/global-setup.ts'] };

// The server suite runs against both engines: one suite, parameterised by PINVOICE_TEST_ENGINE.
// Without PostgreSQL the PostgreSQL half is skipped, saying so; in CI it never is.
const withPostgres = Boolean(postgresBin()) || process.env.CI === 'true';
if (!withPostgres) console.warn('pinvoice: the PostgreSQL half of the server suite is skipped: PostgreSQL is not installed (Debian: apt-get install postgresql)');

export default defineConfig({
  test: {
    projects: [
      { test: { ...common, name: 'sqlite', include: ['test/**/*.test.ts'], env: { PINVOICE_TEST_ENGINE: 'sqlite' } } },
      ...(withPostgres ? [{ test: { ...common, name: 'postgres', include: ['test/server/**/*.test.ts', 'test/e2e/multi-process.test.ts', 'test/e2e/multi-node.test.ts', 'test/e2e/crash-safety.test.ts', 'test/e2e/tokens.test.ts'], env: { PINVOICE_TEST_ENGINE: 'postgres' } } }] : []),
    ],
  },
});
