// Opens the SQLite database: owner-only files, WAL, foreign keys, the chosen durability, and the migrations.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { pathProblem } from '../../../base/path-problem.js';
import { createPrivateFile, makePrivateFolder, PrivateFileError, tightenFiles, type Notify } from '../../../base/private-file.js';
import { DEFAULT_DURABILITY } from '../../config.js';
import { DatabaseOpenError, type Durability } from '../port.js';
import { CHECK_BEFORE_START_BYTES, firstProblem } from './check.js';
import { recoverAdvice } from './faults.js';
import { MIGRATIONS } from './migrations.js';

export { DatabaseOpenError };

export type Db = Database.Database;


export const MEMORY = ':memory:';

/** The journal's file beside a database file: `<db>-requests` (SQLite adds its -wal and -shm). */
export const journalFileOf = (dbPath: string) => `${dbPath}-requests`;

/**
 * The files of a database file: it, the journal's, and SQLite's -wal and -shm of each. They hold
 * token hashes, webhook secrets and every request body: each is made owner-only before SQLite opens
 * any (it gives a new -wal or -shm the main file's mode); someone else's that others may read is refused.
 */
function tightenDatabaseFiles(path: string, notify: Notify): void {
  if (isForeign(path)) return; // SQLite refuses it next; a file of the user's that was never ours keeps its mode
  const files = [path, journalFileOf(path)].flatMap((file) => [file, `${file}-wal`, `${file}-shm`]);
  try {
    tightenFiles(files, notify, ' or use another --db');
  } catch (error) {
    throw error instanceof PrivateFileError ? new DatabaseOpenError(error.message) : error;
  }
}

const HEADER = Buffer.from('SQLite format 3\0');

/** Whether the path is a file that holds something, but not a SQLite database (notes given as --db by mistake). */
function isForeign(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(HEADER.length);
    const read = readSync(fd, head, 0, head.length, 0);
    return read > 0 && !head.subarray(0, read).equals(HEADER.subarray(0, read));
  } catch {
    return false; // missing, or a folder: not a file of the user's to protect
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A new database file, made 0600 before SQLite opens it: its -wal and -shm then follow. */
function createDatabaseFile(path: string): void {
  try {
    createPrivateFile(path);
  } catch (error) {
    throw new DatabaseOpenError(`cannot open database ${path}: ${pathProblem(error, path, 'write')}`);
  }
}

/** SQLite's reasons, in words that say what is wrong with the path. */
function openProblem(error: unknown): string {
  const { code = '', message } = error as { code?: string; message: string };
  if (code === 'SQLITE_NOTADB') return 'the file is not a SQLite database (give --db a pinvoice database, or a new file name)';
  if (code.startsWith('SQLITE_READONLY')) return `the file or its folder is read-only (SQLite: ${message})`;
  if (code === 'SQLITE_CANTOPEN') return `the file cannot be opened or created: is it a folder, or is its folder read-only? (SQLite: ${message})`;
  return message;
}

/**
 * Page caches, in KiB. better-sqlite3 builds SQLite with 16 MiB per connection; the operating system
 * caches the file anyway. The writer's 2 MiB (SQLite's own default) holds what a commit touches: the
 * server's memory outside the JavaScript heap fell from about 25 MB to 8 MB under load, at the same
 * throughput. The reader's 8 MiB holds the inner pages of the trees a read walks at a million charges
 * (measured: GET p50 at 1M 0.56–0.83 ms against 0.73–0.91 ms with 2 MiB), so a read mostly costs its
 * leaf pages, whatever the size of the database.
 */
const CACHE_KIB = 2048;
const READER_CACHE_KIB = 8192;

export interface OpenOptions {
  durability?: Durability;
  /** a file larger than this is checked for damage after start, in a worker (default 256 MiB) */
  checkBeforeBytes?: number;
  /** where a file found readable by others, and made owner-only, is told (default: stderr) */
  notify?: Notify;
}

export interface Opened {
  db: Db;
  created: boolean;
  /** the file is large and was not checked yet: the store checks it now, and writes wait */
  unchecked: boolean;
}

export function openDatabase(path: string, options: OpenOptions = {}): Opened {
  const notify = options.notify ?? ((line: string) => console.error(line));
  return openWithPragmas(path, options.durability ?? DEFAULT_DURABILITY, options.checkBeforeBytes ?? CHECK_BEFORE_START_BYTES, notify);
}

/** A second connection to an open file database, for reads: it never takes the write lock. */
export function openReader(path: string): Db {
  const db = new Database(path, { readonly: true });
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${READER_CACHE_KIB}`);
  return db;
}

/** The message for a file quick_check finds damaged: nothing is written to it. */
export const damagedMessage = (path: string, problem: string) =>
  `${path} is damaged (SQLite's quick_check: ${problem}); it was not opened, and nothing was written to it: ${recoverAdvice(path)}`;

/**
 * Checks an existing file on a read-only connection, before anything could write to it: a damaged
 * file is refused. A `large` file whose schema is current is left for the store to
 * check after start ('deferred'); one that needs migrating is checked now, before it is changed.
 */
function checkExisting(path: string, large: boolean): 'checked' | 'deferred' {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    if (large && db.pragma('user_version', { simple: true }) === MIGRATIONS.length) return 'deferred';
    const problem = firstProblem(db);
    if (problem !== undefined) throw new DatabaseOpenError(damagedMessage(path, problem));
    return 'checked';
  } finally {
    db.close();
  }
}

function openWithPragmas(path: string, durability: Durability, checkBeforeBytes: number, notify: Notify): Opened {
  const isFile = path !== MEMORY;
  const created = !isFile || !existsSync(path);
  let db: Db | undefined;
  let unchecked = false;
  try {
    if (isFile) {
      makePrivateFolder(dirname(path));
      tightenDatabaseFiles(path, notify);
      if (created) createDatabaseFile(path);
      // an empty file (made by hand, or by a start that stopped at once) is a new database; a folder is SQLite's to refuse
      const stat = created ? undefined : statSync(path);
      // (another process may be setting the file up this moment: its locks are waited for, as below)
      if (stat?.isFile() && stat.size > 0) whileBusy(() => void (unchecked = checkExisting(path, stat.size > checkBeforeBytes) === 'deferred'));
    }
    db = new Database(path);
    // First: several processes may open a new file at once, and each waits for the others' locks.
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${CACHE_KIB}`);
    // A savepoint's journal (one a create, SAVEPOINT of the commit group) in memory: past 64 KiB (a
    // create changes ~18 pages) SQLite spills it to a temporary file, opened, unlinked and written
    // for every create (strace: 8 system calls and ~8 writes of the 45 a lone create made)
    db.pragma('temp_store = MEMORY');
    // A file that is not a database, or cannot be written, is only noticed by the first statement.
    const opened = db;
    whileBusy(() => {
      opened.pragma('journal_mode = WAL');
      opened.pragma(`synchronous = ${durability === 'power' ? 'FULL' : 'NORMAL'}`);
      // an unchecked file's schema is current (checkExisting): nothing is written before its check
      if (!unchecked) migrate(opened);
    });
    return { db, created, unchecked };
  } catch (error) {
    if (db?.open) db.close();
    if (error instanceof DatabaseOpenError) throw error;
    throw new DatabaseOpenError(`cannot open database ${path}: ${openProblem(error)}`);
  }
}

const OPEN_PATIENCE_MS = 5000;

/**
 * Runs fn again while SQLite answers "busy" without waiting for it (it does so in a few cases where
 * waiting could deadlock, such as a connection turning a new file to WAL while another process sets it
 * up, or running recovery), for up to five seconds: processes starting together on one new file.
 */
function whileBusy(fn: () => void): void {
  const deadline = Date.now() + OPEN_PATIENCE_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      fn();
      return;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error;
      Atomics.wait(pause, 0, 0, 10 + Math.random() * 40);
    }
  }
}

/** Brings the schema up to date, once: the version is read under the write lock, so processes opening a new file together migrate it once. */
export function migrate(db: Db): void {
  // Foreign keys are off while a migration rebuilds a table (SQLite's procedure for it), and checked before it commits.
  db.pragma('foreign_keys = OFF');
  try {
    migrateTogether(db);
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

function migrateTogether(db: Db): void {
  db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > MIGRATIONS.length) {
      throw new DatabaseOpenError(`the database was written by a newer pinvoice (schema ${current}, this one knows ${MIGRATIONS.length})`);
    }
    for (let version = current; version < MIGRATIONS.length; version++) {
      db.exec(MIGRATIONS[version] ?? '');
    }
    if (current < MIGRATIONS.length) {
      const broken = db.pragma('foreign_key_check') as unknown[];
      if (broken.length > 0) throw new DatabaseOpenError(`migrating left ${broken.length} rows pointing at nothing; the database is unchanged`);
    }
    // written even when unchanged: a file that cannot be written is found out here, at open
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
