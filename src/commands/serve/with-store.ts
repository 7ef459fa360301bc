// Opens the server's store on --db (default: as for serve) for a command that works on the file
// directly, also while servers run on it, and closes it after.
import { CliError, EXIT } from '../../cli/errors.js';
import { defaultDbPath } from '../../cli/paths.js';
import { openStore } from '../../server/store/index.js';
import { DatabaseOpenError, type Store } from '../../server/store/port.js';

export async function withStore<T>(db: string | undefined, fn: (store: Store) => Promise<T>): Promise<T> {
  let store: Store;
  try {
    store = openStore(db ?? defaultDbPath());
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
