// The SQLite engine of the store port. One writer connection, whose transactions run one at a time
// (BEGIN IMMEDIATE: other processes on the file wait for the lock, so a read-then-write inside is
// safe); and, for a file, a read-only connection for everything outside a transaction, which in WAL
// mode reads the last commit without waiting for any writer.
import type { Reads, Store, Writes } from '../port.js';
import { MEMORY, openDatabase, openReader, type Db, type OpenOptions } from './database.js';
import { createRepos } from './repos.js';

export interface SqliteStore extends Store {
  readonly engine: 'sqlite';
  /** the writer connection, for tests and tools that inspect the file */
  readonly db: Db;
}

/** Runs tasks one after another: the writer connection has one transaction at a time. */
function createQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** Wraps read repositories so each call first waits its turn (the in-memory database has one connection). */
function queuedReads(reads: Reads, enqueue: ReturnType<typeof createQueue>): Reads {
  const wrap = <T extends object>(repo: T): T =>
    Object.fromEntries(
      Object.entries(repo).map(([name, fn]) => [name, (...args: unknown[]) => enqueue(() => (fn as (...a: unknown[]) => Promise<unknown>)(...args))]),
    ) as T;
  return { companies: wrap(reads.companies), invoices: wrap(reads.invoices), events: wrap(reads.events), idempotency: wrap(reads.idempotency) };
}

export function openSqliteStore(path: string = MEMORY, options: OpenOptions = {}): SqliteStore {
  const { db } = openDatabase(path, options);
  const reader = path === MEMORY ? undefined : openReader(path);
  const writes: Writes = createRepos(db);
  const enqueue = createQueue();
  // A read on the writer connection must not see a transaction's uncommitted work: it waits for its turn.
  const reads: Reads = reader ? createRepos(reader) : queuedReads(writes, enqueue);
  const listeners = new Set<() => void>();

  // Tells listeners that a commit recorded or requeued events.
  const watched: Writes = {
    ...writes,
    events: { ...writes.events },
  };
  let recorded = false;
  watched.events.insert = async (event) => {
    recorded = true;
    return writes.events.insert(event);
  };
  watched.events.requeue = async (id, at) => {
    recorded = true;
    return writes.events.requeue(id, at);
  };

  return {
    engine: 'sqlite',
    location: path,
    db,
    ...reads,
    transaction<T>(fn: (tx: Writes) => Promise<T>): Promise<T> {
      return enqueue(async () => {
        db.exec('BEGIN IMMEDIATE');
        recorded = false;
        try {
          const result = await fn(watched);
          db.exec('COMMIT');
          if (recorded) for (const listener of listeners) listener();
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      });
    },
    onEventsRecorded(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      await enqueue(async () => undefined);
      reader?.close();
      if (db.open) db.close();
    },
  };
}
