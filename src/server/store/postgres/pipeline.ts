// A transaction's statements on its connection in node-postgres' pipeline mode (the pool's clients
// are made with `pipeline: true`): a statement goes to the server when it is made, without waiting
// for the answers of those before it, and the server runs them in order. A write whose answer nobody
// reads (an insert of a row, a counter moved) is sent and not waited for: it travels with the next
// statement that is, so a create is two round trips, not eight. Such a write that fails aborts the
// transaction; its error, not the "transaction is aborted" of the statements after it, is the one
// the transaction fails with.
import type { Writable } from 'node:stream';
import type pg from 'pg';
import type { Queryable } from './repos.js';

export interface Pipelined extends Queryable {
  /** sends a statement whose answer is not read; a failure is kept, and thrown by what comes after */
  send(config: pg.QueryConfig | string): void;
  /** once every statement sent so far is answered: rejects with the first failure of a statement sent by `send` */
  settled(): Promise<void>;
}

/** The socket under a node-postgres client (not in its typings; absent in other drivers, and then nothing is held). */
const socketOf = (client: pg.PoolClient): Writable | undefined => (client as unknown as { connection?: { stream?: Writable } }).connection?.stream;

/** `written`: called at each write to the socket (the statements held since the last one go together). */
export function pipelined(client: pg.PoolClient, written?: () => void): Pipelined {
  let failure: { error: unknown } | undefined;
  let last: Promise<unknown> = Promise.resolve();
  // The statements made until the work in hand awaits an answer are written at once: the socket is
  // corked at the first and uncorked on the next tick (after the promise jobs the answer set going).
  // A write to the server costs as much as the statement it carries (it wakes the server's process).
  const socket = socketOf(client);
  let held = false;
  const hold = () => {
    if (held || !socket) return;
    held = true;
    written?.();
    socket.cork();
    process.nextTick(() => {
      held = false;
      socket.uncork();
    });
  };
  // the answers come in the order the statements were sent: the failure of an earlier one is known first
  const cause = (error: unknown) => Promise.reject(failure ? failure.error : error);
  const query = ((config: pg.QueryConfig | string) => {
    hold();
    const answer = client.query(config).then(undefined, cause);
    last = answer.then(undefined, () => undefined);
    return answer;
  }) as Queryable['query'];
  return {
    query,
    send(config) {
      hold();
      last = client.query(config).then(undefined, (error: unknown) => {
        failure ??= { error };
      });
    },
    async settled() {
      await last;
      if (failure) throw failure.error;
    },
  };
}
