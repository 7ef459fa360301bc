// Opens the server's store on --db (default: as for serve) for a command that works on the file
// directly, also while servers run on it, and closes it after.
import { statSync } from 'node:fs';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { defaultDbPath } from '../../cli/paths.js';
import { connectStore } from '../../server/store/index.js';
import { isPostgresUrl, locationProblem } from '../../server/store/location.js';
import { DatabaseOpenError, type Store } from '../../server/store/port.js';

/** The --db (or $PINVOICE_DB) as given, or a usage error (exit 2) when it is a URL this version cannot open. */
export function checkedDb(db: string): string {
  const problem = locationProblem(db);
  const from = process.env.PINVOICE_DB === db ? ' (it came from PINVOICE_DB)' : '';
  if (problem) throw usageError(`--db ${db} ${problem}${from}`);
  // a folder is what SQLite cannot tell apart from a read-only one: said before it tries
  if (!isPostgresUrl(db) && db !== ':memory:' && isFolder(db)) throw usageError(`--db: ${db} is a folder, not a file${from}`);
  return db;
}

/** Whether the path is a folder (not whether it can be opened: what cannot be is said by the store, which tries). */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export async function withStore<T>(db: string | undefined, fn: (store: Store) => Promise<T>): Promise<T> {
  let store: Store;
  const location = checkedDb(db ?? defaultDbPath());
  try {
    store = await connectStore(location);
  } catch (error) {
    if (error instanceof DatabaseOpenError) throw new CliError(error.message, EXIT.unexpected);
    throw error;
  }
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
