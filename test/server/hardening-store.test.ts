// The database file on disk: owner-only modes, files that are not databases, and several stores on one file.
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINE } from '../support/server.js';
import { addCompany, DEFAULT_FEES, sandboxProfile } from '../../src/server/seed.js';
import { openStore, type Store } from '../../src/server/store/index.js';
import { DatabaseOpenError } from '../../src/server/store/port.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const tempDir = () => mkdtempSync(join(tmpdir(), 'pinvoice-store-'));
let opened: Store | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

// The SQLite file itself: the same in both runs of the suite, so only in the SQLite one.
describe.skipIf(ENGINE !== 'sqlite')('file modes', () => {
  it('makes an existing 644 database owner-only, and its -wal and -shm are created owner-only', async () => {
    const db = join(tempDir(), 'shared.db');
    await openStore(db).close();
    chmodSync(db, 0o644);
    opened = openStore(db);
    await opened.companies.list();
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

  it('keeps a read-only file read-only (only the group and other bits go)', async () => {
    const db = join(tempDir(), 'ro.db');
    await openStore(db).close();
    chmodSync(db, 0o444);
    try {
      opened = openStore(db);
    } catch {
      // not root: a read-only file is refused; root writes anyway
    }
    expect(mode(db)).toBe('400');
  });

  it.skipIf(process.getuid?.() !== 0)("refuses another user's database that others may read, naming it", async () => {
    const db = join(tempDir(), 'theirs.db');
    await openStore(db).close();
    chmodSync(db, 0o644);
    chownSync(db, 65534, 65534);
    expect(() => openStore(db)).toThrow(new DatabaseOpenError(`${db} may be read by other users (mode 644) and belongs to another user: make it owner-only (chmod 600 ${db}) or use another --db`));
    expect(mode(db)).toBe('644');
  });
});

describe.skipIf(ENGINE !== 'sqlite')('files that are not databases', () => {
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

describe.skipIf(ENGINE !== 'sqlite')('several stores on one file', () => {
  it('each sees what the other committed, and a second open of a migrated file changes nothing', async () => {
    const db = join(tempDir(), 'shared.db');
    const first = openStore(db);
    const second = openStore(db);
    try {
      const { id } = await addCompany(first, { token: 'pinv_test_shared_file_token' }, (n) => randomBytes(n), new Date());
      expect((await second.companies.list()).map((c) => c.id)).toEqual([id]);
      expect((await second.companies.authenticate('pinv_test_shared_file_token'))?.company).toMatchObject({ id });
      await addCompany(second, { token: 'pinv_test_shared_file_other' }, (n) => randomBytes(n), new Date());
      expect(await first.companies.list()).toHaveLength(2);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe.skipIf(ENGINE !== 'sqlite')('transactions that share a commit', () => {
  it('one that fails rolls back alone; the others of its group are written', async () => {
    const db = join(tempDir(), 'group.db');
    const store = openStore(db);
    opened = store;
    const now = new Date();
    const add = (name: string, fail = false) =>
      store.transaction(async (tx) => {
        await tx.companies.create({ ...sandboxProfile({ fantasyName: name }, (n) => randomBytes(n)) }, DEFAULT_FEES, 'whsec_x', now.toISOString());
        if (fail) throw new Error(`${name} changed its mind`);
        return name;
      });
    // started together: they queue while the first runs, and share its commit
    const results = await Promise.allSettled([add('Um'), add('Dois', true), add('Três')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('Dois changed its mind');
    expect((await store.companies.list()).map((c) => c.fantasy_name)).toEqual(['Um', 'Três']);
  });

  it('a transaction that breaks the engine’s own settles every one of its group (none left waiting), and the store goes on', async () => {
    const db = join(tempDir(), 'engine.db');
    const store = openStore(db);
    opened = store;
    const now = new Date().toISOString();
    const good = () => store.transaction((tx) => tx.companies.create(sandboxProfile({}, (n) => randomBytes(n)), DEFAULT_FEES, 'whsec_x', now));
    // a statement that breaks the transaction itself: COMMIT inside a savepoint
    const bad = store.transaction(async () => {
      store.db.exec('COMMIT');
    });
    const results = await Promise.allSettled([good(), bad, good()]);
    expect(results.some((r) => r.status === 'rejected')).toBe(true);
    await expect(good()).resolves.toEqual(expect.any(Number));
  });
});
