// What a store counts of its round trips for /metrics (StoreCounts), on the engine of the run:
// SQLite one per transaction and one per read, at the repositories; PostgreSQL every statement sent
// (a transaction's BEGIN and COMMIT too), whoever sends it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  // no timers of the app (the expiry sweep, the idempotency purge) reading while a test counts
  server = await startTestServer({ expiryCheckMs: 0, idempotencyPurgeMs: 0 });
});
afterAll(() => server.close());

/** The round trips `fn` made. */
async function trips(fn: () => Promise<unknown>): Promise<number> {
  const before = server.store.counts.trips;
  await fn();
  return server.store.counts.trips - before;
}

describe(`a store's round trips (${ENGINE})`, () => {
  it('a read is one; an empty transaction one on SQLite, its BEGIN and COMMIT on PostgreSQL; a transaction of reads and writes one on SQLite', async () => {
    expect(await trips(() => server.store.companies.list())).toBe(1);
    expect(await trips(() => server.store.transaction(async () => undefined))).toBe(ENGINE === 'sqlite' ? 1 : 2);
    const [company] = await server.store.companies.list();
    const work = () => server.store.transaction(async (tx) => {
      await tx.companies.get(company?.id ?? 0);
      await tx.idempotency.purgeBefore(new Date(0).toISOString());
    });
    // PostgreSQL: BEGIN, the two statements, COMMIT
    expect(await trips(work)).toBe(ENGINE === 'sqlite' ? 1 : 4);
    expect(Object.values(server.store.counts.faults)).toEqual([0, 0, 0, 0]);
  });
});
