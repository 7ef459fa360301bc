// Opens the store for a --db: the engine is chosen here and nowhere else.
import { locationProblem } from './location.js';
import { DatabaseOpenError } from './port.js';
import type { OpenOptions } from './sqlite/database.js';
import { openSqliteStore, type SqliteStore } from './sqlite/index.js';

export type { Store, Writes, Reads } from './port.js';
export type StoreOptions = OpenOptions;

export function openStore(location: string, options: StoreOptions = {}): SqliteStore {
  const problem = locationProblem(location);
  if (problem) throw new DatabaseOpenError(`--db ${location} ${problem}`);
  return openSqliteStore(location, options);
}

export type { SqliteStore };
