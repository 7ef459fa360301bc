// The SQLite engine of the store port. One writer connection, whose transactions run one at a time
// (BEGIN IMMEDIATE: other processes on the file wait for the lock, so a read-then-write inside is
// safe), those that queue up meanwhile sharing one commit; and, for a file, a read-only connection for
// everything outside a transaction, which in WAL mode reads the last commit without waiting for any writer.
//
// Faults (a full disk, an I/O error, a damaged file) become StoreFaults and the store's health; a
// damaged file turns the store read-only: its writer connection is closed while the reader is open,
// so that nothing (not even the closing checkpoint) writes to the file again.
import type { Reads, Store, Writes } from '../port.js';
import { countingTransactionFaults, createHealthTracker, createStoreCounts, guardRepos, StoreFault } from '../faults.js';
import { checkInWorker, type BackgroundCheck } from './check.js';
import { MEMORY, openDatabase, openReader, type Db, type OpenOptions } from './database.js';
import { damagedFault, sqliteFault } from './faults.js';
import { changeListeners as changeFeed, gatherChanges, watchChanges } from '../changes.js';
import { watchEvents } from '../watch-events.js';
import { createRepos } from './repos.js';
import { fileJournal, memoryJournal } from './journal-file.js';
import { createSignIns } from './sign-ins.js';

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
interface WriterHooks {
  committed: () => void;
  /** an engine error as the store answers it (a StoreFault where it is one) */
  fail: (error: unknown) => unknown;
  /** a StoreFault while writes are refused (a damaged file, a check under way), else undefined */
  refused: () => StoreFault | undefined;
}

function createWriter(db: Db, tx: Writes, hooks: WriterHooks) {
  const { committed, fail, refused } = hooks;
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
          // SQLite rolls a whole transaction back on its own after some errors (a full disk, an I/O error)
          if (!db.inTransaction) throw error;
          rollbackTo();
          release();
          done.push({ task: current, ok: false, value: fail(error) });
        }
        current = undefined;
      }
      commit();
    } catch (raw) {
      // The engine itself failed (the file, the lock, a full disk): nothing of this group was written.
      const error = fail(raw);
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
        const refusal = head.write ? refused() : undefined;
        if (refusal) queue.shift()?.reject(refusal);
        else if (head.write) await runGroup();
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
  const { db, unchecked } = openDatabase(path, options);
  const reader = path === MEMORY ? undefined : openReader(path);
  const writes: Writes = createRepos(db);
  const health = createHealthTracker();
  let damaged: StoreFault | undefined;
  let checking: BackgroundCheck | undefined;

  /** A damaged file: writes are refused from now on, and the writer is closed (not the in-memory one, which also reads). */
  const turnReadOnly = (fault: StoreFault) => {
    damaged ??= fault;
    health.fault(damaged);
    if (reader && db.open && !db.inTransaction) db.close();
  };
  // what the engine's errors mean to the store's health; the StoreFault the caller gets
  const fail = (error: unknown): unknown => {
    const fault = sqliteFault(error, path);
    if (!fault) return error;
    if (fault.code === 'store_damaged') turnReadOnly(fault);
    // a busy lock is another process's doing, and says nothing about the database
    else if (!String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')) health.fault(fault);
    return fault;
  };
  const checkingFault = () =>
    new StoreFault('store_checking', `The database ${path} is large and is being checked for damage after start (SQLite's quick_check): changes wait until the check is done; reads work.`, 2);
  const listeners = new Set<() => void>();

  const changeListeners = new Set<() => void>();

  // Tells listeners after a commit that made an event due, or changed a charge.
  let recorded = false;
  let changed = false;
  const gathered = gatherChanges();
  const changes = changeFeed();
  const watched = watchChanges(watchEvents(writes, () => (recorded = true), () => (changed = true)), gathered);
  const committed = () => {
    health.committed();
    const what = gathered.take();
    if (what) changes.tell(what);
    if (changed) {
      changed = false;
      for (const listener of changeListeners) listener();
    }
    if (!recorded) return;
    recorded = false;
    for (const listener of listeners) listener();
  };
  const enqueue = createWriter(db, watched, {
    committed,
    fail,
    refused: () => {
      if (damaged) {
        if (reader && db.open) db.close(); // nothing runs on it now
        return damaged;
      }
      return checking ? checkingFault() : undefined;
    },
  });
  // A read on the writer connection must not see a transaction's uncommitted work: it waits for its turn.
  // Counted here, at the repositories (a round trip of SQLite is a call into the library): each read
  // and each transaction (those that share a commit counted one each), and the faults they met.
  const counts = createStoreCounts();
  const reads: Reads = guardRepos(reader ? createRepos(reader) : queuedReads(writes, (run) => enqueue(run, false)), fail, counts);
  const journal = reader ? fileJournal(path) : memoryJournal(db, enqueue);
  if (unchecked) checkLater();

  /** A large file: checked in a worker while the server answers; writes wait for it. */
  function checkLater(): void {
    const check = checkInWorker(path);
    checking = check;
    health.fault(checkingFault());
    check.result.then(
      (problem) => {
        if (checking !== check) return;
        checking = undefined;
        if (problem === undefined) health.recovered();
        else turnReadOnly(damagedFault(path, `(SQLite's quick_check: ${problem})`));
      },
      (error: unknown) => {
        if (checking !== check) return;
        checking = undefined;
        health.fault(new StoreFault('store_unavailable', `The check of the database ${path} for damage could not run (${(error as Error).message}); changes go on unchecked.`));
      },
    );
  }
  // SQLite's data_version on the writer connection changes with every commit of another connection
  // to the file, never with its own: another process's (the reader never writes, the journal is a file
  // of its own). Such a commit may have changed anything: everything kept is dropped. Read once per
  // turn of the event loop (a sixth of a cached GET's time was this PRAGMA): the requests handled in
  // one turn came in one poll of the sockets, before it was read, so none of them was sent after a
  // commit it misses (one another process finished later is one they could not have waited for).
  const otherCommits = db.prepare<[], number>('PRAGMA data_version').pluck();
  let seen: number | undefined;
  let looked = false;
  const forget = () => void (looked = false);
  const heard = (): boolean => {
    // a damaged file: the writer is closed, and nothing is kept from now on
    if (!db.open) return false;
    if (!looked) {
      looked = true;
      setImmediate(forget);
      const version = otherCommits.get() as number;
      if (seen !== undefined && version !== seen) changes.tell('all');
      seen = version;
    }
    return true;
  };

  return countingTransactionFaults<SqliteStore>({
    engine: 'sqlite',
    location: path,
    hearsOtherProcesses: false,
    changes: { onChanged: changes.add, heard },
    db,
    ...reads,
    journal,
    signIns: createSignIns(db, reader, enqueue, fail),
    // clearing the charges empties the journal too (its ids go on: a cursor stays one)
    transaction: <T>(fn: (tx: Writes) => Promise<T>): Promise<T> => {
      counts.trips++;
      return enqueue((tx) => fn({ ...tx, clearCharges: async () => {
        await tx.clearCharges();
        await journal.clearAll();
      } }));
    },
    onEventsRecorded(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onChargesChanged(listener) {
      changeListeners.add(listener);
      return () => void changeListeners.delete(listener);
    },
    health: () => health.get(),
    onHealthChange: (listener) => health.onChange(listener),
    counts,
    async close() {
      const check = checking;
      checking = undefined;
      await check?.stop();
      await enqueue(async () => undefined, false);
      // a damaged file: the writer goes first, while the reader's open connection keeps it from checkpointing into the file
      if (damaged && db.open) db.close();
      await journal.close();
      reader?.close();
      if (db.open) db.close();
    },
  });
}
