import { defineConfig } from 'vitest/config';
import { postgresBin } from './support/postgres.js';

const root = new URL('..', import.meta.url).pathname;
const common = { root, testTimeout: 20_000, hookTimeout: 30_000, globalSetup: ['test/support/global-setup.ts'] };

// The server and end-to-end suites run against both engines: one suite, parameterised by
// PINVOICE_TEST_ENGINE (a `--db` a test gives becomes a PostgreSQL database: test/support/engine.ts).
// Without PostgreSQL the PostgreSQL half is skipped, saying so; in CI it never is.
// The checkout page's browser suite runs in the SQLite project only: the page reads the same store
// through the same code on either engine, and one browser run is enough. The dashboard's runs on both:
// its sessions and sign-in links are the store's, shared by a team's nodes on PostgreSQL.
const withPostgres = Boolean(postgresBin()) || process.env.CI === 'true';
if (!withPostgres) console.warn('pinvoice: the PostgreSQL half of the server and end-to-end suites is skipped: PostgreSQL is not installed (Debian: apt-get install postgresql)');

// test/container (the image) is run by .ci/container, as root, once the image is built: npm run test:container.
// Two files at a time on a 2-core machine (vitest's default is one fewer than the cores: one here): most
// of an end-to-end file's time is spent waiting for the processes it started, not on a core of its own.
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { test: { ...common, name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/container/**'], env: { PINVOICE_TEST_ENGINE: 'sqlite' } } },
      ...(withPostgres ? [{ test: { ...common, name: 'postgres', include: ['test/server/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/browser/dashboard.test.ts'], env: { PINVOICE_TEST_ENGINE: 'postgres' } } }] : []),
    ],
  },
});
