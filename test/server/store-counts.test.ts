// What a store counts of its round trips for /metrics (StoreCounts), on the engine of the run:
// SQLite one per transaction and one per read, at the repositories; PostgreSQL every statement sent
// (a transaction's BEGIN and COMMIT too), whoever sends it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, request, startTestServer, validPix, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  // no timers of the app (the expiry sweep, the idempotency purge) reading while a test counts
  // (and no journal: its batches are transactions of their own, written when its timer says)
  server = await startTestServer({ expiryCheckMs: 0, idempotencyPurgeMs: 0, journal: 0 });
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

  it.skipIf(ENGINE !== 'postgres')('a pix create waits for two round trips on PostgreSQL: its BEGIN and reads, then its writes and COMMIT', async () => {
    // the token's company kept, and the payer known (a new payer's insert is a round trip of its own)
    expect((await request(server, 'POST', '/api/v2/invoices', { body: validPix() })).status).toBe(200);
    const before = server.store.counts.writes;
    const created = await request(server, 'POST', '/api/v2/invoices', { body: validPix() });
    expect(created.status).toBe(200);
    expect(server.store.counts.writes - before).toBe(2);
    // what it wrote reads back whole: its timeline (its id given with the charge's) and its event
    const got = await request(server, 'GET', `/api/v2/invoices/${created.body.data.secureId}`);
    expect(got.body.timeline).toEqual(created.body.data.timeline);
    expect(got.body.timeline).toMatchObject([{ status: 'pending' }]);
    // the event tells the charge as it was made: its first timeline row (named by the id given)
    const events = await request(server, 'GET', `/api/v2/invoices/${created.body.data.secureId}/events`);
    expect(events.body.data).toMatchObject([{ event: 'invoice.created', payload: { transaction: { timeline: got.body.timeline } } }]);
  });
});
