// Ground floor (src/base): imports nothing of ours but src/domain.
// The one place that creates pinvoice's files and folders, and the one that checks those it finds:
// what pinvoice writes holds tokens, webhook secrets, private keys, payers' names and documents, so
// every file is 0600 and every folder 0700, exactly (set with fchmod/chmod: a umask only narrows the
// mode open gives, and a umask of 000 or 277 must change nothing). A file or folder found wider is
// tightened when pinvoice opens it for writing, told once through `notify` (the server's log line,
// the CLI's stderr); one that cannot be (another user's, EPERM) is refused, naming it and the chmod
// that fixes it. SQLite gives a database's -wal and -shm the main file's mode, so the main file is
// created here first (createPrivateFile) and SQLite then opens it.
// Whatever writes a file on the user's disk goes through here: the coming `pinvoice proxy`'s
// recordings too.
import { chmodSync, closeSync, fchmodSync, linkSync, mkdirSync, openSync, renameSync, rmSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';

export const FILE_MODE = 0o600;
export const FOLDER_MODE = 0o700;

/** Where a line about a file found wider goes: said once, when it was tightened. */
export type Notify = (line: string) => void;

/** A file or folder that others may read and that cannot be made owner-only: the message says how. */
export class PrivateFileError extends Error {
  override readonly name = 'PrivateFileError';
}

// Windows has no such modes: Node's chmod sets only the read-only flag there.
const POSIX = process.platform !== 'win32';
const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');
const wider = (stat: Stats) => (stat.mode & 0o077) !== 0;
const ours = (stat: Stats) => process.getuid === undefined || stat.uid === process.getuid();

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Makes a folder and those above it that are missing, each exactly 0700. Folders already there are
 * left as they are (the folder a --db names is the user's): ownFolder is for pinvoice's own.
 */
export function makePrivateFolder(path: string): void {
  const missing: string[] = [];
  for (let at = resolve(path); !statOf(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  // one at a time, each made exact before the next goes in it (a umask of 277 would leave it 0500)
  for (const folder of missing) {
    try {
      mkdirSync(folder, FOLDER_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue; // another process made it this moment
      throw error;
    }
    if (POSIX) chmodSync(folder, FOLDER_MODE);
  }
}

/**
 * pinvoice's own folder (the config folder, a key folder, servers/): made 0700, or tightened when
 * found wider. Another user's is refused whatever its mode (one in /tmp may have been made to be read).
 */
export function ownFolder(path: string, notify: Notify, advice = ''): void {
  makePrivateFolder(path);
  if (POSIX && !ours(statSync(path))) throw new PrivateFileError(`${path} belongs to another user: remove it${advice}`);
  tighten([path], notify, advice, 'folder');
}

/**
 * Files about to be opened for writing, those that exist and others may read made owner-only (only
 * the group's and others' bits go: a read-only file stays read-only), in one line told to `notify`.
 * Anything but a regular file is left alone (a folder given as --db is for the opener to refuse).
 * Another user's file, or one whose mode cannot be changed, is a PrivateFileError; `advice` ends it.
 */
export function tightenFiles(paths: readonly string[], notify: Notify, advice = ''): void {
  tighten(paths, notify, advice, 'file');
}

function tighten(paths: readonly string[], notify: Notify, advice: string, kind: 'file' | 'folder'): void {
  if (!POSIX) return;
  const done: string[] = [];
  for (const path of paths) {
    const stat = statOf(path);
    if (!stat || !(kind === 'file' ? stat.isFile() : stat.isDirectory()) || !wider(stat)) continue;
    const fix = `chmod ${kind === 'file' ? '600' : '700'} ${path}`;
    if (!ours(stat)) {
      throw new PrivateFileError(`${path} may be read by other users (mode ${octal(stat.mode)}) and belongs to another user: make it owner-only (${fix})${advice}`);
    }
    try {
      chmodSync(path, stat.mode & 0o700);
    } catch (error) {
      throw new PrivateFileError(`cannot make ${path} owner-only (mode ${octal(stat.mode)}): ${(error as Error).message}; run ${fix}${advice}`);
    }
    done.push(`${path} (was ${octal(stat.mode)})`);
  }
  if (done.length > 0) notify(`made owner-only, as other users could read ${done.length === 1 ? 'it' : 'them'}: ${done.join(', ')}`);
}

/** Sets the exact mode of a file or folder pinvoice has just written through a library (conf): 0600 or 0700. */
export function setOwnerOnly(path: string): void {
  if (POSIX) chmodSync(path, statSync(path).isDirectory() ? FOLDER_MODE : FILE_MODE);
}

/** Opens a new file, 0600 exactly; EEXIST when one is there. */
function openNew(path: string): number {
  const fd = openSync(path, 'wx', FILE_MODE);
  try {
    if (POSIX) fchmodSync(fd, FILE_MODE);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Creates the file empty, 0600, unless it is there (a database file before SQLite opens it, so its -wal and -shm follow). */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openNew(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Writes a new file whole, 0600; EEXIST when the name is taken (two writers: one wins). */
export function writeNewPrivateFile(path: string, text: string): void {
  const temp = temporaryName(path);
  writeTemporary(temp, text);
  try {
    linkSync(temp, path);
  } finally {
    unlinkSync(temp);
  }
}

const temporaryName = (path: string) => join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);

function writeTemporary(temp: string, text: string): void {
  try {
    const fd = openNew(temp);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Writes the file 0600, whole or not at all: a temporary file beside it, then renamed over it (a
 * reader never sees half of it). A file it replaces that others could read is told to `notify`.
 */
export function writePrivateFile(path: string, text: string, notify: Notify): void {
  const before = statOf(path);
  const temp = temporaryName(path);
  writeTemporary(temp, text);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  if (POSIX && before?.isFile() && wider(before)) notify(`replaced ${path} (mode ${octal(before.mode)}, which other users could read) with an owner-only one (600)`);
}

/**
 * Opens a file for writing ('w' empties it, 'a' appends, 'a+' appends and reads): a new one 0600, one found wider tightened
 * first (before 'w' empties another user's file, it is refused). Answers the descriptor.
 */
export function openPrivateFile(path: string, flags: 'w' | 'a' | 'a+', notify: Notify, advice = ''): number {
  const before = statOf(path);
  if (before) tightenFiles([path], notify, advice);
  const fd = openSync(path, flags, FILE_MODE);
  try {
    if (POSIX && !before) fchmodSync(fd, FILE_MODE);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}
