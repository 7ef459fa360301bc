// Which `pinvoice serve` processes run on a database, and where they listen: each serve writes one small
// file in the data directory (servers/<pid>.json, owner-only) once its port is bound and removes it when
// it closes, so `serve company add` and `serve token add`, which work on the database directly, can print
// a login line with the right address. A server killed without closing leaves its file: readers drop
// files whose process is gone. Servers on other machines (a team's PostgreSQL) cannot be seen from here.
import { readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ownFolder, PrivateFileError, writePrivateFile, type Notify } from '../../base/private-file.js';
import { dataDir } from '../../cli/paths.js';
import { DEFAULT_BASE_URL } from '../../cli/config.js';
import { loginLine } from './login-line.js';

interface Entry {
  pid: number;
  url: string;
  db: string;
  started_at: string;
}

const folder = () => join(dataDir(), 'servers');

/** The same database, however it was named: a file by its real absolute path; a PostgreSQL URL without its password. */
export function databaseKey(db: string): string | undefined {
  if (db === ':memory:') return undefined; // no other process can reach it
  if (/^postgres(ql)?:\/\//i.test(db)) {
    try {
      const url = new URL(db);
      url.password = '';
      return url.href;
    } catch {
      return db;
    }
  }
  const absolute = resolve(db);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // someone else's process: alive
  }
}

/** Records this process as serving `db` at `url`; the function returned removes the record. Never fails the server. */
export function registerServer(db: string, url: string, notify: Notify): () => void {
  const key = databaseKey(db);
  if (key === undefined) return () => undefined;
  const file = join(folder(), `${process.pid}.json`);
  try {
    ownFolder(folder(), notify);
    const entry: Entry = { pid: process.pid, url, db: key, started_at: new Date().toISOString() };
    writePrivateFile(file, `${JSON.stringify(entry)}\n`, notify);
  } catch (error) {
    // a read-only data directory: the address is then unknown to company add, nothing worse
    if (error instanceof PrivateFileError) notify(`${error.message}; this server is not listed for serve company add`);
    return () => undefined;
  }
  return () => rmSync(file, { force: true });
}

/** The URLs of the live servers on `db` on this machine, oldest first. */
export function serversOn(db: string): string[] {
  const key = databaseKey(db);
  if (key === undefined) return [];
  let names: string[];
  try {
    names = readdirSync(folder()).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return [];
  }
  const entries: Entry[] = [];
  for (const name of names) {
    try {
      const entry = JSON.parse(readFileSync(join(folder(), name), 'utf8')) as Entry;
      if (!alive(entry.pid)) rmSync(join(folder(), name), { force: true });
      else if (entry.db === key && typeof entry.url === 'string') entries.push(entry);
    } catch {
      // a file being written or removed right now: skip it
    }
  }
  return entries.sort((a, b) => a.started_at.localeCompare(b.started_at)).map((entry) => entry.url);
}

/** The advice after a token is shown once: the login line with the address of the server running on `db`, or why it is unknown. */
export function loginAdvice(token: string, profile: string, db: string): string {
  const [url, ...others] = serversOn(db);
  if (url !== undefined) {
    const also = others.length ? `\n(other servers on this database listen on ${others.join(', ')})` : '';
    return `  ${loginLine(token, profile, url)}\n${also}`;
  }
  const where = db === ':memory:' ? 'an in-memory database' : db;
  return (
    `  ${loginLine(token, profile, '<server URL>')}\n\n` +
    `No pinvoice serve runs on ${where} on this machine, so its address is unknown: put the URL it listens on ` +
    `in place of <server URL> (serve listens on ${DEFAULT_BASE_URL} unless --host or --port say otherwise).\n`
  );
}
