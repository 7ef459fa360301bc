// A charge's record, kept as the JSON sent while nothing is committed (src/server/invoices/record-cache.ts):
// the same bytes as a record built anew, and never one change late: not after a change made through
// this server, nor after one committed by another process on the same file, nor past a pending
// charge's expiry, nor into another month. SQLite files only: the engine that can tell (data_version).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openStore } from '../../src/server/store/index.js';
import type { SqliteStore } from '../../src/server/store/sqlite/index.js';
import { ENGINE, request, startTestServer, validPix, type TestServer } from '../support/server.js';

const dirs: string[] = [];
const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinvoice-record-cache-'));
  dirs.push(dir);
  return join(dir, 'db.sqlite');
}

async function server(options: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const started = await startTestServer({ expiryCheckMs: 0, ...options });
  servers.push(started);
  return started;
}

/** The answer as sent: its text and content type. */
async function raw(server: TestServer, path: string): Promise<{ text: string; type: string | null }> {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.token}` } });
  expect(response.status).toBe(200);
  return { text: await response.text(), type: response.headers.get('content-type') };
}

describe.skipIf(ENGINE !== 'sqlite')('a charge read again while nothing changed', () => {
  it('is answered with the same bytes and type, and a change made through this server shows at once', async () => {
    const a = await server({ store: openStore(dbFile()) });
    const created = (await request(a, 'POST', '/api/v2/invoices', { body: validPix() })).body.data;
    for (const path of [`/api/v2/invoices/${created.id}`, `/api/v2/invoices/${created.secureId}`, `/api/v2/invoices?id=${created.secureId}`]) {
      const first = await raw(a, path);
      const again = await raw(a, path);
      expect(again).toEqual(first);
      expect(first.type).toBe('application/json; charset=utf-8');
      expect(JSON.parse(first.text).status).toBe('pending');
    }
    expect((await request(a, 'POST', `/api/v2/sandbox/invoices/${created.id}/pay`)).status).toBe(200);
    expect(JSON.parse((await raw(a, `/api/v2/invoices/${created.id}`)).text).status).toBe('paid');
  });

  it('shows at once a change another process committed to the same file', async () => {
    const file = dbFile();
    const a = await server({ store: openStore(file) });
    const b = await server({ store: openStore(file), token: a.token });
    const created = (await request(a, 'POST', '/api/v2/invoices', { body: validPix() })).body.data;
    const path = `/api/v2/invoices/${created.id}`;
    expect(JSON.parse((await raw(a, path)).text).status).toBe('pending');
    expect(JSON.parse((await raw(a, path)).text).status).toBe('pending');
    expect((await request(b, 'POST', `/api/v2/sandbox/invoices/${created.id}/pay`)).status).toBe(200);
    const after = JSON.parse((await raw(a, path)).text);
    expect(after.status).toBe('paid');
    expect(after).toEqual(JSON.parse((await raw(b, path)).text));
  });

  it('reads the change mark once per turn of the event loop, again in the next turn, and at once after its own commit', async () => {
    const file = dbFile();
    const store = openStore(file) as SqliteStore;
    // another process on the file, as far as the store can tell: a connection of its own
    const other = new Database(file);
    other.exec('CREATE TABLE scratch (x INTEGER)');
    try {
      const changeMark = store.changeMark as () => number;
      const first = changeMark();
      // a commit by another connection within the turn: the requests of this turn came in before it
      other.prepare('INSERT INTO scratch VALUES (1)').run();
      expect(changeMark()).toBe(first);
      await new Promise(setImmediate);
      const second = changeMark();
      expect(second).not.toBe(first);
      // this store's own commit is seen at once, in the same turn
      await store.transaction(async () => void store.db.prepare('INSERT INTO scratch VALUES (2)').run());
      expect(changeMark()).not.toBe(second);
    } finally {
      other.close();
      await store.close();
    }
  });

  it('is not served past a pending charge’s expiry, though nothing was committed meanwhile', async () => {
    let now = Date.parse('2026-03-10T12:00:00Z');
    const a = await server({ store: openStore(dbFile()), clock: () => new Date(now), pixExpirySeconds: 600 });
    const created = (await request(a, 'POST', '/api/v2/invoices', { body: validPix() })).body.data;
    const path = `/api/v2/invoices/${created.id}`;
    expect(JSON.parse((await raw(a, path)).text).status).toBe('pending');
    now += 599_000;
    expect(JSON.parse((await raw(a, path)).text).status).toBe('pending');
    now += 1000;
    expect(JSON.parse((await raw(a, path)).text).status).toBe('expired');
  });

  it('follows the month: the company’s paid total of the month starts again at 0, though nothing was committed', async () => {
    let now = Date.parse('2026-01-31T23:59:00Z');
    const a = await server({ store: openStore(dbFile()), clock: () => new Date(now) });
    const created = (await request(a, 'POST', '/api/v2/invoices', { body: validPix() })).body.data;
    expect((await request(a, 'POST', `/api/v2/sandbox/invoices/${created.id}/pay`)).status).toBe(200);
    const path = `/api/v2/invoices/${created.id}`;
    expect(JSON.parse((await raw(a, path)).text).enterprise.amount_invoices_competicion).toBe(1990);
    now = Date.parse('2026-02-01T00:01:00Z');
    expect(JSON.parse((await raw(a, path)).text).enterprise.amount_invoices_competicion).toBe(0);
  });
});
