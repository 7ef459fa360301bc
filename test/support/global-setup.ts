// Vitest's global set-up: the PostgreSQL project gets a throwaway cluster for the whole run.
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (project.config.env?.PINVOICE_TEST_ENGINE !== 'postgres') return undefined;
  const pg = await startPostgres();
  project.provide('pgUrl', pg.url);
  // not stop(): this runs in vitest's main process while it ends the last workers (tools/postgres-cluster.ts)
  return () => pg.close();
}
