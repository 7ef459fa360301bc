// One `pinvoice serve` per database file, until the store is safe for several processes (issue 11):
// a lock file beside the database names the process holding it. A lock whose process is gone
// (killed, crashed) is stale and taken over, so nothing is left to clean up by hand.
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseOpenError, MEMORY } from './database.js';

export class DatabaseInUseError extends Error {
  constructor(readonly db: string, readonly pid: number) {
    super(`the database ${db} is in use by another pinvoice serve (PID ${pid}): stop that one first (kill ${pid}), or give this one another --db`);
  }
}

export interface DatabaseLock {
  release(): void;
}

/** Locks held by this process: a lock naming our own PID but not in here was left by an earlier process. */
const held = new Set<string>();

export const lockPathOf = (db: string) => `${db}.lock`;

/** A killed process stays a zombie until its parent reaps it: alive to kill(pid, 0), but holding nothing. */
function isZombie(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The live process named by the lock file, or undefined when the lock is stale (or gone). */
function holder(path: string): number | undefined {
  const pid = readPid(path);
  if (pid === undefined) return undefined;
  if (pid === process.pid) return held.has(path) ? pid : undefined;
  return isAlive(pid) ? pid : undefined;
}

/** Creates the lock file whole or not at all: written aside, then linked into place (which fails if it exists). */
function tryCreate(path: string): boolean {
  const aside = `${path}.${process.pid}`;
  writeFileSync(aside, `${process.pid}\n`, { mode: 0o600 });
  try {
    linkSync(aside, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

function acquire(db: string, path: string): DatabaseLock {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path)) {
      held.add(path);
      const release = () => {
        process.off('exit', release);
        if (!held.delete(path)) return;
        if (readPid(path) === process.pid) rmSync(path, { force: true });
      };
      process.once('exit', release);
      return { release };
    }
    const pid = holder(path);
    if (pid !== undefined) throw new DatabaseInUseError(db, pid);
    rmSync(path, { force: true }); // stale: its process is gone
  }
  throw new DatabaseOpenError(`cannot lock the database ${db}: ${path} keeps coming back; is another pinvoice serve starting?`);
}

/** Takes the database's lock, or throws DatabaseInUseError naming the live process that holds it. */
export function lockDatabase(db: string): DatabaseLock {
  if (db === MEMORY) return { release: () => undefined };
  const path = lockPathOf(db);
  try {
    mkdirSync(dirname(db), { recursive: true, mode: 0o700 });
    return acquire(db, path);
  } catch (error) {
    if (error instanceof DatabaseInUseError || error instanceof DatabaseOpenError) throw error;
    const { code = '', message } = error as NodeJS.ErrnoException;
    const why = ['EACCES', 'EPERM', 'EROFS'].includes(code) ? `its folder is read-only (${code})` : message;
    throw new DatabaseOpenError(`cannot open database ${db}: cannot create its lock file ${path}: ${why}`);
  }
}
