// SQLite's errors that are the store's faults, as the StoreFault each means: a full disk, a damaged
// file, an I/O error, a lock another process holds too long. Anything else is not a fault of the store.
import { StoreFault } from '../faults.js';

/** A path as a shell word: as it is when it holds nothing a shell would read, else in single quotes. */
const shellWord = (path: string) => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`);

/** The advice for a damaged file, shown at start and when met later. */
export const recoverAdvice = (path: string) =>
  `restore a backup, or recover what it holds with: sqlite3 ${shellWord(path)} ".recover" | sqlite3 recovered.db`;

/** A damaged file met while serving: the store only reads from now on. */
export const damagedFault = (where: string, said: string) =>
  new StoreFault('store_damaged', `The database ${where} is damaged ${said}: the server only reads from it, and writes nothing more to the file. Stop the server, then ${recoverAdvice(where)}.`);

export function sqliteFault(error: unknown, path: string): StoreFault | undefined {
  if (error instanceof StoreFault) return error;
  const { code, message } = error as { code?: unknown; message?: string };
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  const where = path === ':memory:' ? 'the in-memory database' : path;
  const said = `(SQLite: ${message ?? code})`;
  if (code === 'SQLITE_FULL') {
    return new StoreFault('insufficient_storage', `The disk holding the database ${where} is full ${said}: nothing was saved; changes work again once space is freed, reads work meanwhile.`, 30);
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return damagedFault(where, said);
  }
  if (code.startsWith('SQLITE_BUSY')) {
    return new StoreFault('store_unavailable', `The database ${where} was locked by another process for more than 5 s ${said}.`, 1);
  }
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_PROTOCOL') {
    return new StoreFault('store_unavailable', `The database ${where} cannot be read or written ${said}.`, 5);
  }
  return undefined;
}
