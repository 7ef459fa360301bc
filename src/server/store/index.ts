// Opens the store for a --db: the engine is chosen here and nowhere else.
import { isPostgresUrl, locationProblem } from './location.js';
import { DatabaseOpenError, type Store } from './port.js';
import type { OpenOptions } from './sqlite/database.js';
import type { PgOptions } from './postgres/index.js';
import { openSqliteStore, type SqliteStore } from './sqlite/index.js';

export type { Store, Writes, Reads } from './port.js';
export type StoreOptions = OpenOptions & PgOptions;

/** The store a --db names: PostgreSQL for a postgres:// URL, SQLite otherwise. */
export async function connectStore(location: string, options: StoreOptions = {}): Promise<Store> {
  const problem = locationProblem(location);
  if (problem) throw new DatabaseOpenError(`--db ${location} ${problem}`);
  if (isPostgresUrl(location)) return (await import('./postgres/index.js')).openPostgresStore(location, options);
  return openSqliteStore(location, options);
}

/** A SQLite store (a file, or :memory:), opened at once. */
export function openStore(location: string, options: StoreOptions = {}): SqliteStore {
  const problem = locationProblem(location);
  if (problem) throw new DatabaseOpenError(`--db ${location} ${problem}`);
  return openSqliteStore(location, options);
}

export type { SqliteStore };

/** A journal in a SQLite file of its own (`pinvoice proxy`'s), made if missing: serve's journal store, at any path. */
export { journalAt as openJournalAt, readJournalAt } from './sqlite/journal-file.js';
export type { SqliteJournal as JournalFile } from './sqlite/journal-file.js';
