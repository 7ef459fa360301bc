// Opens the SQLite database: owner-only files, WAL, foreign keys, durable commits, and the migrations.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export class DatabaseOpenError extends Error {}

export const MEMORY = ':memory:';

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

/**
 * The file holds token hashes and webhook secrets: it and its -wal and -shm are made owner-only.
 * SQLite gives a new -wal or -shm the database file's mode, so the file is fixed before it is opened.
 * Someone else's file that others may read is refused: changing its mode is not ours to do.
 */
function makeOwnerOnly(path: string): void {
  if (process.platform === 'win32') return;
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (!existsSync(file)) continue;
    const stat = statSync(file);
    // Only regular files: a folder given as --db (/tmp, say) is SQLite's to refuse, never ours to chmod.
    if (!stat.isFile() || (stat.mode & 0o077) === 0) continue;
    const { mode, uid } = stat;
    if (uid !== process.getuid?.()) {
      throw new DatabaseOpenError(`${file} may be read by other users (mode ${octal(mode)}) and belongs to another user: make it owner-only (chmod 600 ${file}) or use another --db`);
    }
    try {
      chmodSync(file, mode & 0o700);
    } catch (error) {
      throw new DatabaseOpenError(`cannot make ${file} owner-only (mode ${octal(mode)}): ${(error as Error).message}`);
    }
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

export function openDatabase(path: string): { db: Db; created: boolean } {
  // New files (the database, its -wal and -shm, the folder) are created for their owner alone.
  const previousMask = process.umask(0o077);
  try {
    return openWithPragmas(path);
  } finally {
    process.umask(previousMask);
  }
}

function openWithPragmas(path: string): { db: Db; created: boolean } {
  const isFile = path !== MEMORY;
  const created = !isFile || !existsSync(path);
  let db: Db | undefined;
  try {
    if (isFile) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      makeOwnerOnly(path);
    }
    db = new Database(path);
    if (isFile && created) chmodSync(path, 0o600);
    // A file that is not a database, or cannot be written, is only noticed by the first statement.
    db.pragma('journal_mode = WAL');
    // FULL: a charge answered with 200 survives a crash of the machine, not only of the process.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    return { db, created };
  } catch (error) {
    if (db?.open) db.close();
    if (error instanceof DatabaseOpenError) throw error;
    throw new DatabaseOpenError(`cannot open database ${path}: ${openProblem(error)}`);
  }
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new DatabaseOpenError(`the database was written by a newer pinvoice (schema ${current}, this one knows ${MIGRATIONS.length})`);
  }
  db.transaction(() => {
    for (let version = current; version < MIGRATIONS.length; version++) {
      db.exec(MIGRATIONS[version] ?? '');
    }
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
