// The SQLite file under faults, with the built binary: a disk that fills up (a small tmpfs, filled
// for real) is answered 507 naming the database, told once on stderr, and over by itself once space
// is freed, the file whole afterwards; a file with 4 KiB overwritten in its middle is refused at
// start, naming it and what to do, and not one of its bytes changes.
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { ENGINE } from '../support/engine.js';
import { call, killAll, pixBody, removeWorkDirs, startServe, workDir } from '../support/processes.js';
import { canMountTmpfs, fill, mountTmpfs, type Tmpfs } from '../support/tmpfs.js';
import { eventually } from '../support/receiver.js';
import { scrape } from '../support/metrics.js';

const TOKEN = 'ci_fixed_token_0123456789';
const mounts: Tmpfs[] = [];
afterEach(async () => {
  await killAll();
  for (const mount of mounts.splice(0)) mount.unmount();
});
afterAll(removeWorkDirs);

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const create = (url: string, key = randomUUID()) => call(url, TOKEN, 'POST', '/api/v2/invoices', pixBody({ external_id: key }), { 'idempotency-key': key });
const integrity = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('integrity_check', { simple: true });
  } finally {
    db.close();
  }
};

const tmpfsAllowed = ENGINE === 'sqlite' && canMountTmpfs();

describe.skipIf(ENGINE !== 'sqlite')('a full disk under a SQLite database', () => {
  it.runIf(process.env.CI === 'true')('can be made here: a tmpfs is mounted (.ci/run runs as root)', () => {
    expect(tmpfsAllowed).toBe(true);
  });

  it.skipIf(!tmpfsAllowed)('is answered 507 insufficient_storage naming the file, told once, and over once space is freed; the file stays whole', async () => {
    const mount = mountTmpfs(8 * 1024) as Tmpfs;
    mounts.push(mount);
    const db = join(mount.dir, 'full.db');
    const { env } = workDir();
    const node = await startServe(['--port', '0', '--db', db, '--token', TOKEN], env);
    const before = await create(node.url);
    expect(before.status).toBe(200);

    const filler = fill(mount.dir);
    let full: Awaited<ReturnType<typeof create>> | undefined;
    const acknowledged = [before.body.data.id as number];
    for (let i = 0; i < 2000 && !full; i++) {
      const answer = await create(node.url);
      if (answer.status === 200) acknowledged.push(answer.body.data.id);
      else full = answer;
    }
    expect(full?.status).toBe(507);
    expect(full?.body).toEqual({
      error: 'insufficient_storage',
      message: `The disk holding the database ${db} is full (SQLite: database or disk is full): nothing was saved; changes work again once space is freed, reads work meanwhile.`,
    });
    // reads go on; /health says what is wrong; a second change is refused the same way
    expect((await call(node.url, TOKEN, 'GET', `/api/v2/invoices/${acknowledged[0]}`)).status).toBe(200);
    expect((await call(node.url, TOKEN, 'GET', '/health')).body).toMatchObject({ status: 'degraded', code: 'insufficient_storage' });
    expect((await create(node.url)).status).toBe(507);
    // /metrics counts the changes refused, by the code they were answered with
    const metrics = await scrape(node.url);
    expect(metrics.value('pinvoice_store_errors_total', { engine: 'sqlite', code: 'insufficient_storage' })).toBeGreaterThanOrEqual(2);
    expect(metrics.value('pinvoice_store_healthy', { engine: 'sqlite' })).toBe(0);

    rmSync(filler);
    const after = await create(node.url);
    expect(after.status).toBe(200);
    acknowledged.push(after.body.data.id);
    expect((await call(node.url, TOKEN, 'GET', '/health')).body).toMatchObject({ status: 'ok' });
    // the journal (its own file, on the same full disk) kept the requests answered meanwhile, and wrote them once space came back
    const refused = await eventually(async () => {
      const page = await call(node.url, TOKEN, 'GET', '/api/v2/sandbox/requests?status=507&limit=500');
      return page.status === 200 && page.body.data.length >= 2 && page.body;
    }, 5000, 'the 507s in the journal');
    expect(refused.data[0]).toMatchObject({ method: 'POST', status: 507, error: 'insufficient_storage' });

    expect(node.child.exitCode).toBeNull();
    expect(await node.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    const lines = node.stderr().split('\n').filter((line) => line.startsWith('store: '));
    expect(lines).toEqual([
      `store: The disk holding the database ${db} is full (SQLite: database or disk is full): nothing was saved; changes work again once space is freed, reads work meanwhile. Meanwhile changes are answered 507 insufficient_storage until a change can be saved again.`,
      expect.stringMatching(/^store: changes are saved again after \d+\.\d s: serving as usual$/),
    ]);
    expect(node.stderr()).not.toMatch(/^\s+at /m);
    expect(integrity(db)).toBe('ok');
    expect(integrity(`${db}-requests`)).toBe('ok');
    const file = new Database(db, { readonly: true });
    const kept = file.prepare('SELECT id FROM invoices ORDER BY id').pluck().all();
    file.close();
    expect(kept).toEqual(expect.arrayContaining(acknowledged));
  }, 60_000);
});

describe.skipIf(ENGINE !== 'sqlite')('a damaged SQLite file', () => {
  it('of the journal is set aside at start, said once, and a new journal begun: the server starts and journals', async () => {
    const { dir, env } = workDir();
    const db = join(dir, 'journaled.db');
    const node = await startServe(['--port', '0', '--db', db, '--token', TOKEN], env);
    expect((await create(node.url)).status).toBe(200);
    expect(await node.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    const fd = openSync(`${db}-requests`, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 0); // its header gone: not a database any more
    closeSync(fd);
    const again = await startServe(['--port', '0', '--db', db, '--token', TOKEN], env);
    expect(again.stderr()).toContain(`journal: the journal file ${db}-requests was damaged (SQLite: file is not a database); it was moved to ${db}-requests.damaged and a new, empty journal begun`);
    expect((await create(again.url)).status).toBe(200);
    const page = await call(again.url, TOKEN, 'GET', '/api/v2/sandbox/requests');
    expect(page.body.data.map((e: { method: string }) => e.method)).toEqual(['POST']);
    expect(statSync(`${db}-requests.damaged`).size).toBeGreaterThan(0);
    expect(integrity(`${db}-requests`)).toBe('ok');
  }, 60_000);

  it('is refused at start, naming the file, the problem and what to do (exit 1); not one byte of it changes', async () => {
    const { dir, env } = workDir();
    const db = join(dir, 'damaged.db');
    const node = await startServe(['--port', '0', '--db', db, '--token', TOKEN], env);
    for (let i = 0; i < 150; i++) expect((await create(node.url)).status).toBe(200);
    expect(await node.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    // 4 KiB overwritten in the middle of the file, on a page boundary
    const size = statSync(db).size;
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
    const damaged = sha256(db);

    const result = await run(['serve', '--port', '0', '--db', db], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^pinvoice: ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(SQLite's quick_check: .+\\); it was not opened, and nothing was written to it: restore a backup, or recover what it holds with: sqlite3 \\S+ "\\.recover" \\| sqlite3 recovered\\.db\\n$`));
    expect(sha256(db)).toBe(damaged);
  }, 60_000);
});
