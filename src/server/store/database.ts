// Opens the SQLite database: WAL, foreign keys, durable commits, and the migrations.
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export class DatabaseOpenError extends Error {}

export const MEMORY = ':memory:';

function prepareFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
}

export function openDatabase(path: string): { db: Db; created: boolean } {
  // The file holds token hashes and webhook secrets: its owner alone may read it (and its -wal, -shm).
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
  let db: Db;
  try {
    if (isFile) prepareFile(path);
    db = new Database(path);
  } catch (error) {
    throw new DatabaseOpenError(`cannot open database ${path}: ${(error as Error).message}`);
  }
  if (isFile && created) chmodSync(path, 0o600);
  db.pragma('journal_mode = WAL');
  // FULL: a charge answered with 200 survives a crash of the machine, not only of the process.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return { db, created };
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
