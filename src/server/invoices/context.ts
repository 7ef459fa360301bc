// What the invoice operations need from the outside world, passed in so tests can control it.
import type { ServerConfig } from '../config.js';
import type { Access, Reads, Store, Writes } from '../store/port.js';
import type { JournalRecorder } from '../journal/recorder.js';
import type { RecordCache } from './record-cache.js';

/** Runs fn in a transaction: a new one, or the one a request already runs in (an Idempotency-Key's). */
export type TransactionRunner = <T>(fn: (tx: Writes) => Promise<T>) => Promise<T>;

export interface ServerContext {
  store: Store;
  /** the current time of the company at work (its sandbox clock); the server's own time outside a company's work */
  clock: () => Date;
  /** the server's own time, which the postback queue and Idempotency-Key windows run on; tests pass a fixed or stepping clock */
  realClock: () => Date;
  /** n cryptographically strong random bytes */
  random: (n: number) => Uint8Array;
  config: ServerConfig;
  transaction: TransactionRunner;
  /** where a request reads: the store, or the transaction it already runs in (which sees its own writes) */
  reads: Reads;
  /** the token a request came with: its changes are recorded as made by it (absent: the server itself) */
  actor?: Access['token'];
  /** the context a company's context was made from (its clock and queue undone): see sandbox/company-time.ts */
  serverContext?: ServerContext;
  /** the lookups' answers kept until what they show changes (record-cache.ts; absent: nothing is kept) */
  records?: RecordCache;
  /** the inspector's journal (absent in apps made without one) */
  journal?: JournalRecorder;
}
