// The database file on disk: owner-only modes, files that are not databases, and the one-server lock.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseOpenError } from '../../src/server/store/database.js';
import { openStore, type Store } from '../../src/server/store/index.js';
import { DatabaseInUseError, lockDatabase, lockPathOf } from '../../src/server/store/lock.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const tempDir = () => mkdtempSync(join(tmpdir(), 'pinvoice-store-'));
let opened: Store | undefined;
afterEach(() => opened?.close());

describe('file modes', () => {
  it('makes an existing 644 database owner-only, and its -wal and -shm are created owner-only', () => {
    const db = join(tempDir(), 'shared.db');
    openStore(db).close();
    chmodSync(db, 0o644);
    opened = openStore(db);
    opened.companies.list();
    expect(mode(db)).toBe('600');
    expect(mode(`${db}-wal`)).toBe('600');
    expect(mode(`${db}-shm`)).toBe('600');
  });

  it('fixes a -wal and -shm left readable by others', () => {
    const db = join(tempDir(), 'left.db');
    writeFileSync(db, '');
    for (const file of [`${db}-wal`, `${db}-shm`]) writeFileSync(file, '', { mode: 0o644 });
    chmodSync(`${db}-wal`, 0o644);
    chmodSync(`${db}-shm`, 0o666);
    opened = openStore(db);
    expect([mode(db), mode(`${db}-wal`), mode(`${db}-shm`)]).toEqual(['600', '600', '600']);
  });

  it('keeps a read-only file read-only (only the group and other bits go)', () => {
    const db = join(tempDir(), 'ro.db');
    openStore(db).close();
    chmodSync(db, 0o444);
    try {
      opened = openStore(db);
    } catch {
      // not root: a read-only file is refused; root writes anyway
    }
    expect(mode(db)).toBe('400');
  });

  it.skipIf(process.getuid?.() !== 0)("refuses another user's database that others may read, naming it", () => {
    const db = join(tempDir(), 'theirs.db');
    openStore(db).close();
    chmodSync(db, 0o644);
    chownSync(db, 65534, 65534);
    expect(() => openStore(db)).toThrow(new DatabaseOpenError(`${db} may be read by other users (mode 644) and belongs to another user: make it owner-only (chmod 600 ${db}) or use another --db`));
    expect(mode(db)).toBe('644');
  });
});

describe('files that are not databases', () => {
  it('names the path of a file that is not SQLite (noticed at the first statement, not at open)', () => {
    const db = join(tempDir(), 'notes.txt');
    writeFileSync(db, 'these are my notes, not a database\n'.repeat(100));
    expect(() => openStore(db)).toThrow(DatabaseOpenError);
    expect(() => openStore(db)).toThrow(`cannot open database ${db}: the file is not a SQLite database`);
  });

  it('names the path of a folder, and leaves its mode alone', () => {
    const db = tempDir();
    chmodSync(db, 0o1777);
    expect(() => openStore(db)).toThrow(`cannot open database ${db}: the file cannot be opened or created`);
    expect((statSync(db).mode & 0o7777).toString(8)).toBe('1777');
  });
});

describe('the lock of `serve`', () => {
  it('refuses a second holder, naming this process, and is free again once released', () => {
    const db = join(tempDir(), 'one.db');
    const lock = lockDatabase(db);
    expect(readFileSync(lockPathOf(db), 'utf8').trim()).toBe(String(process.pid));
    expect(() => lockDatabase(db)).toThrow(new DatabaseInUseError(db, process.pid));
    expect(() => lockDatabase(db)).toThrow(`(PID ${process.pid}): stop that one first (kill ${process.pid})`);
    lock.release();
    expect(existsSync(lockPathOf(db))).toBe(false);
    lockDatabase(db).release();
  });

  it('takes over a stale lock whose process is gone, or that an earlier process with our PID left', () => {
    const db = join(tempDir(), 'stale.db');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    for (const pid of [gone.stdout, String(process.pid), 'garbage', '']) {
      writeFileSync(lockPathOf(db), `${pid}\n`);
      const lock = lockDatabase(db);
      expect(readFileSync(lockPathOf(db), 'utf8').trim()).toBe(String(process.pid));
      lock.release();
    }
  });

  it('does not touch a lock another process holds when released twice, and :memory: needs none', () => {
    const db = join(tempDir(), 'twice.db');
    const lock = lockDatabase(db);
    lock.release();
    writeFileSync(lockPathOf(db), `${process.ppid}\n`);
    lock.release();
    expect(readFileSync(lockPathOf(db), 'utf8').trim()).toBe(String(process.ppid));
    lockDatabase(':memory:').release();
    expect(existsSync(lockPathOf(':memory:'))).toBe(false);
  });
});
