// A charge's record, kept as the JSON sent until what it shows changes (src/server/invoices/record-cache.ts):
// the same bytes as a record built anew, and never one change late: not after a change made through
// this server, nor after one committed by another process on the same file (SQLite: data_version),
// nor past a pending charge's expiry, nor into another month; and kept while other charges change.
// Two nodes on PostgreSQL: test/e2e/team-caches.test.ts.
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

describe('a charge read again while nothing changed', () => {
  it('is answered with the same bytes and type, and a change made through this server shows at once', async () => {
    const a = await server({});
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

  it.skipIf(ENGINE !== 'sqlite')('shows at once a change another process committed to the same file', async () => {
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

  it.skipIf(ENGINE !== 'sqlite')('looks once per turn of the event loop whether another process committed, and drops everything kept when one did', async () => {
    const file = dbFile();
    const store = openStore(file) as SqliteStore;
    // another process on the file, as far as the store can tell: a connection of its own
    const other = new Database(file);
    other.exec('CREATE TABLE scratch (x INTEGER)');
    const told: string[] = [];
    const stop = store.changes.onChanged((changed) => told.push(changed === 'all' ? 'all' : [...changed].join(',')));
    try {
      expect(store.changes.heard()).toBe(true);
      // a commit by another connection within the turn: the requests of this turn came in before it
      other.prepare('INSERT INTO scratch VALUES (1)').run();
      expect(store.changes.heard()).toBe(true);
      expect(told).toEqual([]);
      await new Promise(setImmediate);
      store.changes.heard();
      expect(told).toEqual(['all']);
      // this store's own commit names what it changed, at once, and is not taken for another's
      await store.transaction(async (tx) => void (await tx.companies.setClock(1, 0)));
      expect(told).toEqual(['all', 'c1']);
      await new Promise(setImmediate);
      store.changes.heard();
      expect(told).toEqual(['all', 'c1']);
    } finally {
      stop();
      other.close();
      await store.close();
    }
  });

  it('stays kept while other charges are created, and is dropped by a change of its own', async () => {
    const a = await server({});
    const x = (await request(a, 'POST', '/api/v2/invoices', { body: validPix() })).body.data;
    const path = `/api/v2/invoices/${x.id}`;
    const before = JSON.parse((await raw(a, path)).text).externalRef;
    expect(before).not.toBe('behind');
    // a change no commit of the server names (behind its back): what it kept hides it, which tells it kept
    const behindItsBack = async (value: string | null | undefined) => {
      const sql = `UPDATE invoices SET external_ref = ${value == null ? 'NULL' : `'${value}'`} WHERE id = ${Number(x.id)}`;
      if (ENGINE === 'postgres') await (a.store as unknown as { pool: { query(sql: string): Promise<unknown> } }).pool.query(sql);
      else (a.store as SqliteStore).db.prepare(sql).run();
    };
    await behindItsBack('behind');
    const other = validPix({ payer: { name: 'Beltrana', email: 'b@example.com', cpf_cnpj: '390.533.447-05', phone: '+5511988887777' } });
    // (PostgreSQL: a listening connection that missed its ping, 2 s on a loaded machine, drops everything kept, as it must: the
    // charge is then set back, read again to be kept, and the creates made again)
    for (let attempt = 1; ; attempt++) {
      let lost = false;
      const stop = a.store.changes.onChanged((changed) => void (lost ||= changed === 'all'));
      for (let i = 0; i < 3; i++) expect((await request(a, 'POST', '/api/v2/invoices', { body: other })).status).toBe(200);
      const ref = JSON.parse((await raw(a, path)).text).externalRef;
      stop();
      if (!lost || attempt === 3) {
        expect(ref).not.toBe('behind');
        break;
      }
      await behindItsBack(before);
      expect(JSON.parse((await raw(a, path)).text).externalRef).toBe(before);
      await behindItsBack('behind');
    }
    // its own change drops it: the next read is the charge as stored
    expect((await request(a, 'POST', `/api/v2/sandbox/invoices/${x.id}/pay`)).status).toBe(200);
    const after = JSON.parse((await raw(a, path)).text);
    expect([after.status, after.externalRef]).toEqual(['paid', 'behind']);
  });

  it('is not served past a pending charge’s expiry, though nothing was committed meanwhile', async () => {
    let now = Date.parse('2026-03-10T12:00:00Z');
    const a = await server({ clock: () => new Date(now), pixExpirySeconds: 600 });
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
    const a = await server({ clock: () => new Date(now) });
    const created = (await request(a, 'POST', '/api/v2/invoices', { body: validPix() })).body.data;
    expect((await request(a, 'POST', `/api/v2/sandbox/invoices/${created.id}/pay`)).status).toBe(200);
    const path = `/api/v2/invoices/${created.id}`;
    expect(JSON.parse((await raw(a, path)).text).enterprise.amount_invoices_competicion).toBe(1990);
    now = Date.parse('2026-02-01T00:01:00Z');
    expect(JSON.parse((await raw(a, path)).text).enterprise.amount_invoices_competicion).toBe(0);
  });
});
