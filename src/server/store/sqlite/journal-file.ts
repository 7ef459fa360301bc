// The SQLite store's journal door (port.ts JournalStore). For a database file, the journal lives in a
// file of its own beside it (`<db>-requests`), written by a thread of its own (journal-worker.ts): a
// batch never waits for the charges' writer, never holds it up, and costs the main thread only its
// hand-over; reads go through a connection of the main thread, which in WAL mode never waits for the
// writer. Several processes on one database share the one journal file. In memory, the tables sit in
// the one database and batches go through the store's writer queue.
//
// Running from source (the tests' transform, no compiled worker beside this file), the file is written
// on the main thread instead: the same statements, only not off the thread.
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync } from 'node:fs';
import Database from 'better-sqlite3';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { StoreFault } from '../faults.js';
import { createBodyRefs } from '../shared-bodies.js';
import type { JournalReads, JournalStore, NewJournalEntry, Writes } from '../port.js';
import { journalFileOf, type Db } from './database.js';
import { sqliteFault } from './faults.js';
import { createJournalReads, createJournalWrites, insertRows, JOURNAL_READS_FROM, JOURNAL_SCHEMA, JOURNAL_VERSION, openJournalFile, type JournalInsert, type SharedBody } from './journal.js';
import type { JournalAnswer, JournalCall } from './journal-worker.js';

export interface SqliteJournal extends JournalStore {
  /** empties the journal (clearCharges, inside its transaction: in memory, on the transaction's own connection) */
  clearAll(): Promise<void>;
  close(): Promise<void>;
}

/** A journal fault in words that name the journal's file (a full disk, a damaged file), or the error as it came. */
const journalFault = (error: unknown, file: string): unknown => {
  const fault = sqliteFault(error, file);
  return fault ? new StoreFault(fault.code, `The journal: ${fault.message}`, fault.retryAfter) : error;
};


/** Splits a batch into the rows to insert and the bodies to keep once (shared-bodies.ts). */
function bodySharing() {
  const refOf = createBodyRefs(randomBytes(6).toString('hex'));
  return (entries: NewJournalEntry[]): { rows: JournalInsert[]; bodies: SharedBody[] } => {
    const now = Date.now();
    const bodies: SharedBody[] = [];
    const rows = insertRows(entries, (body) => refOf(body, now, (ref) => bodies.push({ ref, body })));
    return { rows, bodies };
  };
}

/** In memory: the tables in the database itself, every call through the writer's queue. */
export function memoryJournal(db: Db, enqueue: <T>(run: (tx: Writes) => Promise<T>, write?: boolean) => Promise<T>): SqliteJournal {
  db.exec(JOURNAL_SCHEMA); // (the database's own user_version is the charges' schema's)
  const reads = createJournalReads(db);
  const writes = createJournalWrites(db);
  const share = bodySharing();
  return {
    list: (...args) => enqueue(() => reads.list(...args), false),
    get: (...args) => enqueue(() => reads.get(...args), false),
    state: (...args) => enqueue(() => reads.state(...args), false),
    last: (...args) => enqueue(() => reads.last(...args), false),
    dropped: () => enqueue(() => reads.dropped(), false),
    // (in memory there are no files to bound: the journal's tables share the database with the charges)
    append: (entries, keep, lost) => {
      const { rows, bodies } = share(entries);
      return enqueue(async () => writes.append(rows, bodies, keep, lost));
    },
    clear: (companyId) => enqueue(async () => writes.clear(companyId)),
    clearAll: async () => writes.clearAll(),
    close: async () => undefined,
  };
}

const WORKER = new URL('./journal-worker.js', import.meta.url);
/**
 * The writer's heap: a young generation that holds a whole batch, whose every object lives only as
 * long as it (100 ms of creates, some 180 entries, is a few MB of text, received, joined and written
 * out); at 2 MB a batch's objects outlived their young generation and were collected again as old,
 * which cost the process 9% more CPU a create (839 against 771 CPU-µs, every thread counted).
 * Its old generation may grow for a batch that waited through a fault (20,000 entries, some MB of JSON).
 */
const WRITER_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 512 };

/**
 * Opens the journal's file; one that is damaged (not a database, or broken) is set aside, renamed with
 * `.damaged` (its -wal and -shm with it), and a new one made: the journal is a record of what passed,
 * never a reason for the server not to start. Answers the connection and what was done, if anything.
 */
function openOrSetAside(file: string): { db: Db; notice?: string } {
  try {
    const { db, notice } = openJournalFile(file);
    return { db, ...(notice !== undefined && { notice: `${file}: ${notice}` }) };
  } catch (error) {
    const code = String((error as { code?: unknown }).code);
    if (code !== 'SQLITE_NOTADB' && !code.startsWith('SQLITE_CORRUPT')) throw journalFault(error, file);
    const aside = `${file}.damaged`;
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
    return { db: openJournalFile(file).db, notice: `the journal file ${file} was damaged (SQLite: ${(error as Error).message}); it was moved to ${aside} and a new, empty journal begun` };
  }
}

/** A database file's journal: `<db>-requests`, beside it. */
export const fileJournal = (dbPath: string): SqliteJournal => journalAt(journalFileOf(dbPath));

/** A journal in a file of its own at `file` (a database's, or `pinvoice proxy`'s). */
export function journalAt(file: string): SqliteJournal {
  // made here, synchronously: the file and its tables exist before anything reads them
  const { db: reader, notice } = openOrSetAside(file);
  const reads = createJournalReads(reader);
  const guard = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => (...args: A) => fn(...args).catch((error: unknown) => Promise.reject(journalFault(error, file)));
  const readDoor = { list: guard(reads.list), get: guard(reads.get), state: guard(reads.state), last: guard(reads.last), dropped: guard(reads.dropped) };
  const share = bodySharing();

  if (!existsSync(fileURLToPath(WORKER))) {
    const writes = createJournalWrites(reader);
    const now = <R>(fn: () => R) => new Promise<R>((resolve, reject) => {
      try {
        resolve(fn());
      } catch (error) {
        reject(journalFault(error, file));
      }
    });
    return {
      ...readDoor,
      ...(notice && { notice }),
      append: (entries, keep, lost, maxBytes) => now(() => {
        const { rows, bodies } = share(entries);
        writes.append(rows, bodies, keep, lost, maxBytes);
      }),
      clear: (companyId) => now(() => writes.clear(companyId)),
      clearAll: () => now(() => writes.clearAll()),
      close: async () => void reader.close(),
    };
  }

  let next = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let closing = false;
  let worker: Worker | undefined;
  /** The writer thread, started again on the next call if it stopped (it never should: its calls answer their errors). */
  const writer = (): Worker => {
    if (worker) return worker;
    const started = new Worker(WORKER, { workerData: { file }, resourceLimits: WRITER_LIMITS });
    started.unref();
    started.on('message', (answer: JournalAnswer) => {
      const call = waiting.get(answer.id);
      if (!call) return;
      waiting.delete(answer.id);
      if (answer.ok) call.resolve(answer.value);
      else call.reject(journalFault(Object.assign(new Error(answer.message), answer.code === undefined ? {} : { code: answer.code }), file));
    });
    const stopped = (error: Error) => {
      if (worker !== started) return;
      worker = undefined;
      for (const call of waiting.values()) {
        call.reject(new StoreFault('store_unavailable', `The journal's writer stopped (${error.message}); it starts again with the next batch.`, 1));
      }
      waiting.clear();
    };
    started.on('error', stopped);
    started.on('exit', (code) => stopped(new Error(`it exited with code ${code}`)));
    return (worker = started);
  };
  const call = <R>(op: JournalCall['op'], args: unknown[]): Promise<R> => {
    if (closing && op !== 'close') return Promise.reject(new StoreFault('store_unavailable', 'The journal is closed.', 1));
    const id = ++next;
    return new Promise<R>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      writer().postMessage({ id, op, args } as JournalCall);
    });
  };
  return {
    ...readDoor,
    ...(notice && { notice }),
    append: (entries, keep, lost, maxBytes) => {
      const { rows, bodies } = share(entries);
      return call('append', [rows, bodies, keep, lost, maxBytes]);
    },
    clear: (companyId) => call('clear', [companyId]),
    clearAll: () => call('clearAll', []),
    async close() {
      closing = true;
      const running = worker;
      if (running) {
        await call('close', []).catch(() => undefined);
        worker = undefined;
        await running.terminate();
      }
      reader.close();
    },
  };
}

/**
 * A journal's file opened to read it only, as it is: nothing is made, migrated or set aside (a file that
 * is no journal of this version is refused, left as it was). A writer may be at work on it meanwhile.
 */
export function readJournalAt(file: string): JournalReads & { close(): void } {
  let db: Db;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    const version = Number(db.pragma('user_version', { simple: true }));
    const tables = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal_batches'").get();
    if (version < JOURNAL_READS_FROM || version > JOURNAL_VERSION || tables === undefined) {
      db.close();
      throw new Error(version > JOURNAL_VERSION ? 'it was written by a newer pinvoice' : 'it holds no journal of this pinvoice');
    }
  } catch (error) {
    const code = String((error as { code?: unknown }).code);
    throw new Error(code === 'SQLITE_NOTADB' ? 'it is not a SQLite database' : (error as Error).message);
  }
  return { ...createJournalReads(db), close: () => db.close() };
}
