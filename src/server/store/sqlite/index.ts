// The SQLite engine of the store port. One writer connection, whose transactions run one at a time
// (BEGIN IMMEDIATE: other processes on the file wait for the lock, so a read-then-write inside is
// safe), those that queue up meanwhile sharing one commit; and, for a file, a read-only connection for
// everything outside a transaction, which in WAL mode reads the last commit without waiting for any writer.
import type { Reads, Store, Writes } from '../port.js';
import { MEMORY, openDatabase, openReader, type Db, type OpenOptions } from './database.js';
import { watchEvents } from '../watch-events.js';
import { createRepos } from './repos.js';

export interface SqliteStore extends Store {
  readonly engine: 'sqlite';
  /** the writer connection, for tests and tools that inspect the file */
  readonly db: Db;
}

/** At most this many transactions share one commit. */
const MAX_GROUP = 64;

interface Task {
  /** a transaction's work, or (in memory) a read that must not see one half done */
  run: (tx: Writes) => Promise<unknown>;
  write: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The writer's queue, with group commit: transactions that wait while one runs share its BEGIN and
 * COMMIT, each in its own savepoint (one that fails rolls back alone). Nobody is answered before the
 * COMMIT that holds their work: grouping saves the commit's cost, never its durability.
 */
function createWriter(db: Db, tx: Writes, committed: () => void) {
  const queue: Task[] = [];
  let draining = false;
  // prepared once: parsing BEGIN or SAVEPOINT text on every transaction showed in the profile
  const sql = (text: string) => {
    const statement = db.prepare(text);
    return () => void statement.run();
  };
  const begin = sql('BEGIN IMMEDIATE');
  const commit = sql('COMMIT');
  const rollback = sql('ROLLBACK');
  const savepoint = sql('SAVEPOINT one');
  const release = sql('RELEASE one');
  const rollbackTo = sql('ROLLBACK TO one');

  async function runGroup(): Promise<void> {
    const done: { task: Task; ok: boolean; value: unknown }[] = [];
    let current: Task | undefined;
    try {
      begin();
      for (let waited = false; done.length < MAX_GROUP; ) {
        if (!queue[0]?.write) {
          // Requests already read from their sockets get one turn of the event loop to join this commit.
          if (waited || queue.length > 0) break;
          waited = true;
          await new Promise(setImmediate);
          continue;
        }
        waited = false;
        current = queue.shift() as Task;
        savepoint();
        try {
          const value = await current.run(tx);
          release();
          done.push({ task: current, ok: true, value });
        } catch (error) {
          rollbackTo();
          release();
          done.push({ task: current, ok: false, value: error });
        }
        current = undefined;
      }
      commit();
    } catch (error) {
      // The engine itself failed (the file, the lock, a full disk): nothing of this group was written.
      try {
        if (db.inTransaction) rollback();
      } catch {
        // the connection rolled back on its own
      }
      for (const { task } of done) task.reject(error);
      // a BEGIN that failed (another process held the lock too long) fails the transaction it was for
      (current ?? (done.length === 0 ? queue.shift() : undefined))?.reject(error);
      return;
    }
    committed();
    for (const { task, ok, value } of done) (ok ? task.resolve : task.reject)(value);
  }

  async function drain(): Promise<void> {
    draining = true;
    try {
      while (queue.length > 0) {
        const head = queue[0] as Task;
        if (head.write) await runGroup();
        else {
          queue.shift();
          await head.run(tx).then(head.resolve, head.reject);
        }
      }
    } finally {
      draining = false;
    }
  }

  return <T>(run: (tx: Writes) => Promise<T>, write = true): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({ run, write, resolve: resolve as (value: unknown) => void, reject });
      if (!draining) void drain();
    });
}

/** Wraps read repositories so each call waits its turn in the writer's queue (the in-memory database has one connection). */
function queuedReads(reads: Reads, enqueue: (run: () => Promise<unknown>) => Promise<unknown>): Reads {
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
  const listeners = new Set<() => void>();

  const changeListeners = new Set<() => void>();

  // Tells listeners after a commit that made an event due, or changed a charge.
  let recorded = false;
  let changed = false;
  const watched = watchEvents(writes, () => (recorded = true), () => (changed = true));
  const enqueue = createWriter(db, watched, () => {
    mark = undefined;
    if (changed) {
      changed = false;
      for (const listener of changeListeners) listener();
    }
    if (!recorded) return;
    recorded = false;
    for (const listener of listeners) listener();
  });
  // A read on the writer connection must not see a transaction's uncommitted work: it waits for its turn.
  const reads: Reads = reader ? createRepos(reader) : queuedReads(writes, (run) => enqueue(run, false));
  // SQLite's data_version, read on the reader connection, changes with every commit of any other
  // connection: the writer's, or another process's on the same file. (In memory there is no reader.)
  const dataVersion = reader?.prepare<[], number>('PRAGMA data_version').pluck();
  // Read once per turn of the event loop (a sixth of a cached GET's time was this PRAGMA): the requests
  // handled in one turn came in one poll of the sockets, before the mark was read, so none of them was
  // sent after a commit the mark misses (a commit another process finished later is one they could not
  // have waited for). A commit of this process clears it at once, and the turn's setImmediate after the poll.
  let mark: number | undefined;
  const forget = () => void (mark = undefined);
  const changeMark = (): number => {
    if (mark === undefined) {
      mark = (dataVersion as NonNullable<typeof dataVersion>).get() as number;
      setImmediate(forget);
    }
    return mark;
  };

  return {
    engine: 'sqlite',
    location: path,
    hearsOtherProcesses: false,
    ...(dataVersion && { changeMark }),
    db,
    ...reads,
    transaction: <T>(fn: (tx: Writes) => Promise<T>): Promise<T> => enqueue(fn),
    onEventsRecorded(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onChargesChanged(listener) {
      changeListeners.add(listener);
      return () => void changeListeners.delete(listener);
    },
    async close() {
      await enqueue(async () => undefined, false);
      reader?.close();
      if (db.open) db.close();
    },
  };
}
