// What the invoice operations need from the outside world, passed in so tests can control it.
import type { ServerConfig } from '../config.js';
import type { Access, Reads, Store, Writes } from '../store/port.js';

/** Runs fn in a transaction: a new one, or the one a request already runs in (an Idempotency-Key's). */
export type TransactionRunner = <T>(fn: (tx: Writes) => Promise<T>) => Promise<T>;

export interface ServerContext {
  store: Store;
  /** the current time; tests pass a fixed or stepping clock */
  clock: () => Date;
  /** n cryptographically strong random bytes */
  random: (n: number) => Uint8Array;
  config: ServerConfig;
  transaction: TransactionRunner;
  /** where a request reads: the store, or the transaction it already runs in (which sees its own writes) */
  reads: Reads;
  /** the token a request came with: its changes are recorded as made by it (absent: the server itself) */
  actor?: Access['token'];
}
