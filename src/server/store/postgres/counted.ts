// The PostgreSQL store's round trips, for serve's /metrics: every statement a connection of the pool
// sends is counted, whoever sends it (pool.query's reads, a transaction's statements and its COMMIT,
// the journal's batches, LISTEN, the probes while the database is away). One wrapper of the
// connection's query, put on it once, when the pool makes it: the code that sends statements knows
// nothing of it. (The faults are counted where the store's calls fail: index.ts.)
import type pg from 'pg';
import type { StoreCounts } from '../faults.js';

export function countStatements(client: pg.ClientBase, counts: StoreCounts): void {
  const send = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    counts.trips++;
    return send(...args);
  }) as typeof client.query;
}
