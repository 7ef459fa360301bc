// The PostgreSQL store's round trips, for serve's /metrics: every statement a connection of the pool
// sends is counted, whoever sends it (pool.query's reads, a transaction's statements and its COMMIT,
// the journal's batches, LISTEN, the probes while the database is away), and those that failed with a
// fault, by its code. One wrapper of the connection's query, put on it once, when the pool makes it:
// the code that sends statements knows nothing of it.
import type pg from 'pg';
import type { FaultCode, StoreCounts } from '../faults.js';

type Send = (...args: unknown[]) => unknown;

export function countStatements(client: pg.ClientBase, counts: StoreCounts, faultOf: (error: unknown) => FaultCode | undefined): void {
  const send = client.query.bind(client) as Send;
  const failed = (error: unknown) => {
    const code = faultOf(error);
    if (code) counts.faults[code]++;
  };
  client.query = ((...args: unknown[]) => {
    counts.trips++;
    const callback = args.at(-1);
    // pool.query's form: the answer comes to a callback
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        if (error) failed(error);
        (callback as (error: unknown, result: unknown) => void)(error, result);
      };
      return send(...args);
    }
    const result = send(...args);
    // (the caller's own promise is returned: this branch only hears its failure)
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') (result as PromiseLike<unknown>).then(undefined, failed);
    return result;
  }) as typeof client.query;
}
