// The store at fault, through the real app over HTTP: a large SQLite file checked after start (changes
// wait, reads go on), a damaged one found then or while serving (read-only from then on, the file
// never written again), and a PostgreSQL connection cut with the COMMIT on its way (a 503, and the
// retry with the same Idempotency-Key makes exactly one charge, whether the COMMIT was applied or not).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, writeSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { addCompany } from '../../src/server/seed.js';
import { startServer } from '../../src/server/serve.js';
import { openStore, type SqliteStore } from '../../src/server/store/index.js';
import { openPostgresStore } from '../../src/server/store/postgres/index.js';
import type { StoreHealth } from '../../src/server/store/faults.js';
import { postgresDatabase } from '../support/engine.js';
import { ENGINE, request, sql, startTestServer, validPix, type TestServer } from '../support/server.js';
import { scrape } from '../support/metrics.js';

const TOKEN = 'pinv_test_store_faults_token';
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const create = (key?: string) => request(server as TestServer, 'POST', '/api/v2/invoices', { body: validPix(), ...(key && { headers: { 'idempotency-key': key } }) });

/** A pinvoice database with its company, a few charges, and `fillerMiB` of other pages, all in the main file (no -wal). */
async function databaseFile(fillerMiB = 0): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'pinvoice-faults-')), 'store.db');
  const store = openStore(path);
  await addCompany(store, { token: TOKEN }, (n) => randomBytes(n), new Date());
  await store.close();
  server = await startTestServer({ store: openStore(path), token: TOKEN });
  for (let i = 0; i < 40; i++) expect((await create()).status).toBe(200);
  await server.close();
  server = undefined;
  const db = new Database(path);
  db.exec('CREATE TABLE filler (b BLOB)');
  const insert = db.prepare('INSERT INTO filler VALUES (zeroblob(4000))');
  db.transaction(() => {
    for (let i = 0; i < fillerMiB * 256; i++) insert.run();
  })();
  db.close(); // the last connection: checkpoints everything into the file
  return path;
}

/** Overwrites one page of `table` (its first leaf, which a new row does not touch) with junk, as a failing disk does. */
function damage(path: string, table: string): void {
  const db = new Database(path, { readonly: true });
  const page = db.prepare(`SELECT min(pageno) FROM dbstat WHERE name = ? AND pagetype = 'leaf'`).pluck().get(table) as number;
  db.close();
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, (page - 1) * 4096);
  closeSync(fd);
}

const healthOf = async () => (await request(server as TestServer, 'GET', '/health')).body as StoreHealth & { code?: string };

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not within time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(ENGINE !== 'sqlite')('a large SQLite file, checked after start', () => {
  it('answers reads at once and changes 503 store_checking until the check is done, then serves as usual', async () => {
    const path = await databaseFile(40);
    const lines: string[] = [];
    server = await startTestServer({ store: openStore(path, { checkBeforeBytes: 1024 * 1024 }), token: TOKEN, logLine: (line) => lines.push(line) });
    const waiting = await create();
    expect(waiting.status).toBe(503);
    expect(waiting.headers.get('retry-after')).toBe('2');
    expect(waiting.body).toEqual({ error: 'store_checking', message: `The database ${path} is large and is being checked for damage after start (SQLite's quick_check): changes wait until the check is done; reads work.` });
    expect((await request(server, 'GET', '/api/v2/invoices/1')).status).toBe(200);
    await until(async () => (await healthOf()).status === 'ok');
    expect((await create()).status).toBe(200);
    expect(lines).toEqual([expect.stringMatching(/^store: The database .+ is being checked/), expect.stringMatching(/^store: the check found no damage after \d+\.\d s: serving as usual$/)]);
  });

  it('serve listens at once on it, and a token to add waits for the check instead of failing the start', async () => {
    const path = await databaseFile(40);
    const quiet = { host: '127.0.0.1', port: 0, db: path, version: 'test', postbacks: false as const, checkBeforeBytes: 1024 * 1024 };
    const first = await startServer(quiet);
    try {
      const answer = await fetch(`${first.url}/health`);
      expect((await answer.json()) as unknown).toMatchObject({ status: 'degraded', code: 'store_checking' });
    } finally {
      await first.close();
    }
    const second = await startServer({ ...quiet, token: 'pinv_test_added_while_checking' });
    try {
      expect(second.store.health()).toEqual({ status: 'ok' });
      expect(await second.store.companies.hasToken('pinv_test_added_while_checking')).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('found damaged by that check: changes 503 store_damaged for good, undamaged reads go on, and the file is never written', async () => {
    const path = await databaseFile(8);
    damage(path, 'filler');
    const damaged = sha256(path);
    server = await startTestServer({ store: openStore(path, { checkBeforeBytes: 1024 * 1024 }), token: TOKEN });
    await until(async () => (await healthOf()).code === 'store_damaged');
    const refused = await create();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(refused.body.error).toBe('store_damaged');
    expect(refused.body.message).toMatch(/^The database .+ is damaged \(SQLite's quick_check: .+\): the server only reads from it, and writes nothing more to the file\. Stop the server, then restore a backup, or recover what it holds with: sqlite3 \S+ "\.recover" \| sqlite3 recovered\.db\.$/);
    expect((await request(server, 'GET', '/api/v2/invoices/1')).status).toBe(200);
    await server.close();
    server = undefined;
    expect(sha256(path)).toBe(damaged);
  });
});

describe.skipIf(ENGINE !== 'sqlite')('a SQLite file damaged while serving', () => {
  it('turns the server read-only at the first damaged page read: 503 store_damaged, and not a byte written to the file after', async () => {
    const path = await databaseFile();
    const store: SqliteStore = openStore(path);
    server = await startTestServer({ store, token: TOKEN });
    expect((await create()).status).toBe(200);
    store.db.pragma('wal_checkpoint(TRUNCATE)'); // everything in the file, where the damage is
    damage(path, 'invoices');
    const damaged = sha256(path);
    // a change the writer makes from its cache, before anything read the damage: in the -wal, never to reach the file
    expect((await create()).status).toBe(200);
    const list = await request(server, 'GET', '/api/v2/invoices?limit=100');
    expect(list.status).toBe(503);
    expect(list.body.error).toBe('store_damaged');
    expect(list.body.message).toMatch(/is damaged \(SQLite: database disk image is malformed\)/);
    const refused = await create();
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe('store_damaged');
    expect(await healthOf()).toMatchObject({ status: 'degraded', code: 'store_damaged' });
    // /metrics tells it: the read and the change refused, the store not healthy
    const metrics = await scrape(server.url);
    expect(metrics.value('pinvoice_store_errors_total', { engine: 'sqlite', code: 'store_damaged' })).toBeGreaterThanOrEqual(2);
    expect(metrics.value('pinvoice_store_healthy', { engine: 'sqlite' })).toBe(0);
    await server.close();
    server = undefined;
    expect(sha256(path)).toBe(damaged);
  });
});

/** Whether a chunk the client sent holds a simple-protocol query ('Q') whose text has a COMMIT (among the pipelined messages before it). */
function holdsCommit(chunk: Buffer): boolean {
  for (let at = 0; at + 5 <= chunk.length; ) {
    const length = chunk.readInt32BE(at + 1);
    if (length < 4) return false;
    if (chunk[at] === 0x51 && chunk.subarray(at, at + 1 + length).includes('COMMIT')) return true;
    at += 1 + length;
  }
  return false;
}

/**
 * A TCP proxy in front of PostgreSQL that, when armed, cuts the first connection that sends a COMMIT:
 * after passing it on (applied, the answer lost) or instead of passing it on (never applied).
 */
async function commitCutter(target: URL) {
  let armed: 'after' | 'before' | undefined;
  let cuts = 0;
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      // a simple-protocol query ('Q') whose text holds the COMMIT the store sends with its last statements
      const commit = armed && holdsCommit(chunk);
      if (!commit) return void upstream.write(chunk);
      const mode = armed;
      armed = undefined;
      cuts++;
      if (mode === 'after') upstream.write(chunk);
      // long enough for PostgreSQL to apply it, then the connection is gone before its answer comes back
      upstream.unpipe(client);
      setTimeout(() => {
        client.destroy();
        upstream.destroy();
      }, 200);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as net.AddressInfo;
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    arm: (mode: 'after' | 'before') => void (armed = mode),
    cuts: () => cuts,
    close: () => new Promise((resolve) => proxy.close(resolve)),
  };
}

describe.skipIf(ENGINE !== 'postgres')('a PostgreSQL connection lost with the COMMIT on its way', () => {
  for (const mode of ['after', 'before'] as const) {
    it(`(${mode === 'after' ? 'applied' : 'never applied'}) is a 503 that says so, and the retry with the same Idempotency-Key makes exactly one charge`, async () => {
      const direct = await postgresDatabase();
      const cutter = await commitCutter(new URL(direct));
      try {
        const lines: string[] = [];
        // (the journal off: its batches commit on connections of their own, and the COMMIT cut here must be the create's)
        server = await startTestServer({ store: await openPostgresStore(cutter.url), token: TOKEN, logLine: (line) => lines.push(line), journal: 0 });
        expect((await create()).status).toBe(200);
        const key = randomUUID();
        cutter.arm(mode);
        const lost = await create(key);
        expect(cutter.cuts()).toBe(1);
        expect(lost.status).toBe(503);
        // /metrics counted the transaction the cut failed (its reads, made before, did not fail)
        expect((await scrape(server.url)).value('pinvoice_store_errors_total', { engine: 'postgres', code: 'store_unavailable' })).toBeGreaterThanOrEqual(1);
        expect(lost.headers.get('retry-after')).toBe('1');
        expect(lost.body).toEqual({
          error: 'store_unavailable',
          message: expect.stringMatching(/^The connection to the database postgres:\/\/…@127\.0\.0\.1:\d+\/\w+ was lost while committing: the change may or may not have been saved\. Retry with the same Idempotency-Key: it never makes a change twice\.$/),
        });
        // the node finds the database again by itself; the retry makes or replays the one charge
        await until(async () => (await healthOf()).status === 'ok');
        const retried = await create(key);
        expect(retried.status).toBe(200);
        expect(retried.headers.get('idempotent-replayed')).toBe(mode === 'after' ? 'true' : null);
        expect(await sql(server, 'SELECT count(*) AS n FROM idempotency_keys WHERE key = ?', key)).toEqual([{ n: 1 }]);
        const charges = await request(server, 'GET', '/api/v2/invoices?limit=100');
        expect(charges.body.data.map((c: { id: number }) => c.id)).toEqual([retried.body.data.id, 1]);
        expect(lines).toEqual([expect.stringMatching(/^store: The database .+ does not answer/), expect.stringMatching(/^store: the database answers again after/)]);
      } finally {
        await server?.close();
        server = undefined;
        await cutter.close();
      }
    });
  }
});
