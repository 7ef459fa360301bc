import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/server/store/sqlite/migrations.js';
import { CARDS, cardCharge, create, sandbox } from '../support/charges.js';
import type { SqliteStore } from '../../src/server/store/index.js';
import type { PostgresStore } from '../../src/server/store/postgres/index.js';
import { PG_MIGRATIONS } from '../../src/server/store/postgres/migrations.js';
import { ENGINE, request, startTestServer, validPix, type TestServer } from '../support/server.js';

const dir = mkdtempSync(join(tmpdir(), 'pinvoice-persist-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Takes a database back to schema 4, as versions before 5 wrote it: each event with its full body (the
 * payload the events endpoint shows), no kept totals, no claims, the old indexes.
 */
async function downgradeTo4(server: TestServer): Promise<void> {
  const db = (server.store as SqliteStore).db;
  const events = db.prepare('SELECT e.id, e.public_id, i.id AS invoice FROM events e JOIN invoices i ON i.id = e.invoice_id ORDER BY e.id').all() as { id: number; public_id: string; invoice: number }[];
  const payloads = new Map<string, unknown>();
  for (const invoice of new Set(events.map((e) => e.invoice))) {
    for (const event of (await request(server, 'GET', `/api/v2/invoices/${invoice}/events`)).body.data) payloads.set(event.id, event.payload);
  }
  const setBody = db.prepare('UPDATE events SET body = ? WHERE id = ?');
  for (const event of events) setBody.run(JSON.stringify(payloads.get(event.public_id)), event.id);
  db.exec(`
    DROP TABLE dashboard_sign_ins;
    DROP INDEX events_claimed;
    ALTER TABLE companies DROP COLUMN signing_token;
    ALTER TABLE companies DROP COLUMN signing_token_id;
    DROP INDEX invoices_listed;
    DROP INDEX invoices_status;
    DROP INDEX invoices_customer;
    DROP INDEX invoices_payer_email;
    DROP INDEX invoices_external_ref;
    DROP INDEX invoices_pix_txid;
    DROP INDEX invoices_boleto_barcode;
    DROP INDEX invoices_expiry_company;
    ALTER TABLE companies DROP COLUMN clock_offset_ms;
    ALTER TABLE companies DROP COLUMN chaos;
    ALTER TABLE delivery_attempts DROP COLUMN injected;
    DROP INDEX api_tokens_name;
    ALTER TABLE api_tokens DROP COLUMN name;
    ALTER TABLE api_tokens DROP COLUMN read_only;
    ALTER TABLE api_tokens DROP COLUMN revoked_at;
    ALTER TABLE timeline DROP COLUMN token_id;
    DROP TABLE company_totals;
    DROP TABLE company_paid_months;
    DROP INDEX events_due;
    DROP INDEX invoices_expiry;
    ALTER TABLE events DROP COLUMN snapshot;
    ALTER TABLE events DROP COLUMN claimed_by;
    ALTER TABLE events DROP COLUMN lease_until;
    CREATE INDEX movements_company ON financial_movements(company_id, balance);
    CREATE INDEX invoices_expiry ON invoices(status, expires_at);
    CREATE INDEX events_due ON events(state, next_attempt_at);
    PRAGMA user_version = 4;`);
}

describe('persistence', () => {
  it('an invoice answered with 200 survives a restart of the server on the same file', async () => {
    const db = join(dir, 'restart.db');
    const first = await startTestServer({ db });
    const created = await create(first, validPix());
    await first.close();

    const second = await startTestServer({ db, token: first.token });
    try {
      const found = await request(second, 'GET', `/api/v2/invoices/${created.secureId}`);
      expect(found.status).toBe(200);
      expect(found.body).toEqual(created);
      const next = await create(second, validPix());
      expect(next.id).toBe(created.id + 1);
    } finally {
      await second.close();
    }
  });

  it.skipIf(ENGINE !== 'sqlite')('uses WAL, foreign keys, and a file only its owner can read', async () => {
    const db = join(dir, 'pragmas.db');
    const server = await startTestServer({ db });
    try {
      expect((server.store as SqliteStore).db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect((server.store as SqliteStore).db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(statSync(db).mode & 0o777).toBe(0o600);
    } finally {
      await server.close();
    }
  });

  it.skipIf(ENGINE !== 'sqlite')('has an index for every lookup the server makes', async () => {
    const server = await startTestServer();
    try {
      const plans: [string, string][] = [
        ['SELECT * FROM invoices WHERE company_id = 1 AND id = 1', 'PRIMARY KEY'],
        ['SELECT * FROM invoices WHERE company_id = 1 AND secure_id = ?', 'sqlite_autoindex_invoices'],
        ['SELECT * FROM api_tokens WHERE token_hash = ?', 'sqlite_autoindex_api_tokens'],
        ['SELECT * FROM timeline WHERE invoice_id = 1 ORDER BY id', 'timeline_invoice'],
        ['SELECT * FROM refunds WHERE invoice_id = 1 ORDER BY id', 'refunds_invoice'],
        ['SELECT * FROM financial_movements WHERE invoice_id = 1 ORDER BY id', 'movements_invoice'],
        ['SELECT * FROM company_totals WHERE company_id = 1', 'PRIMARY KEY'],
        ['SELECT * FROM company_paid_months WHERE company_id = 1 AND month = ?', 'PRIMARY KEY'],
        ["SELECT * FROM invoices WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at", 'invoices_expiry'],
        ["SELECT * FROM events WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at", 'events_due'],
        ['SELECT * FROM events WHERE company_id = 1 AND public_id = ?', 'sqlite_autoindex_events'],
        ['SELECT * FROM events WHERE invoice_id = 1 ORDER BY id', 'events_invoice'],
        ['SELECT * FROM idempotency_keys WHERE company_id = 1 AND operation = ? AND key = ?', 'sqlite_autoindex_idempotency_keys'],
        ['SELECT * FROM customers WHERE company_id = 1 AND document = ?', 'sqlite_autoindex_customers'],
        ['SELECT * FROM dashboard_sign_ins WHERE hash = ?', 'PRIMARY KEY'],
        ['DELETE FROM dashboard_sign_ins WHERE expires_at <= ?', 'dashboard_sign_ins_expiry'],
      ];
      for (const [sql, index] of plans) {
        const statement = (server.store as SqliteStore).db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
        const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 'x');
        const plan = statement.all(...params).map((row: any) => row.detail).join(' ');
        expect(plan, sql).toContain(index);
        expect(plan, sql).not.toMatch(/^SCAN \w+$/);
      }
    } finally {
      await server.close();
    }
  });

  it.skipIf(ENGINE !== 'sqlite')('migrates a database of the previous version: postback bodies take the production shape, nothing is lost', async () => {
    const db = join(dir, 'migrate.db');
    const first = await startTestServer({ db });
    const pix = await create(first, validPix({ postback_url: '' }));
    await sandbox(first, pix.id, 'pay');
    const keyed = { 'idempotency-key': 'created-before-the-upgrade' };
    const card = cardCharge(CARDS.declined, { postback_url: '' });
    const answered = (await request(first, 'POST', '/api/v2/invoices', { body: card, headers: keyed })).body;
    const enterprise = (await request(first, 'GET', '/api/v2/company')).body;
    await downgradeTo4(first);
    const bodies = () => (first.store as SqliteStore).db.prepare('SELECT type, body FROM events ORDER BY id').all() as { type: string; body: string }[];
    const current = bodies().map((e) => ({ type: e.type, body: JSON.parse(e.body) }));
    // Back to schema 2, as the previous version wrote it: {id: evt_…, event, created_at, invoice_id, status, total, method, data}
    (first.store as SqliteStore).db.exec(`
      UPDATE events SET type = 'invoice.refused' WHERE type = 'invoice.failed';
      UPDATE events SET body = json_object('id', public_id, 'event', type, 'created_at', body ->> '$.created_at',
        'invoice_id', body ->> '$.invoice_id', 'status', body ->> '$.status', 'total', body ->> '$.total',
        'method', body ->> '$.method', 'data', body -> '$.transaction');
      UPDATE idempotency_keys SET response = json_remove(response -> '$.data', '$.invoice_id', '$.qr_code_pix');
      ALTER TABLE invoices DROP COLUMN external_ref;
      ALTER TABLE invoices DROP COLUMN metadata;
      PRAGMA user_version = 2;`);
    expect(bodies().map((e) => JSON.parse(e.body).data.secureId)).toEqual(current.map((e) => e.body.transaction.secureId));
    await first.close();

    const second = await startTestServer({ db, token: first.token });
    try {
      expect((second.store as SqliteStore).db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      const migrated = ((second.store as SqliteStore).db.prepare('SELECT type, body FROM events ORDER BY id').all() as { type: string; body: string }[])
        .map((e) => ({ type: e.type, body: JSON.parse(e.body) }));
      expect(migrated).toEqual(current);
      expect(migrated.map((e) => e.type)).toEqual(['invoice.created', 'invoice.paid', 'invoice.created', 'invoice.failed']);
      // the events endpoint shows the bodies as recorded, and migration 5 counted the balances and paid totals
      const listed = (await request(second, 'GET', `/api/v2/invoices/${pix.id}/events`)).body.data.map((e: { payload: unknown }) => e.payload);
      expect(listed).toEqual(current.slice(0, 2).map((e) => e.body));
      expect(enterprise.balance_pix).toBeGreaterThan(0);
      expect((await request(second, 'GET', '/api/v2/company')).body).toEqual(enterprise);
      expect((await request(second, 'GET', `/api/v2/invoices/${pix.id}`)).body).toMatchObject({ externalRef: null, metadata: null, status: 'paid' });
      // a create remembered before the upgrade replays in the new shape, qr_code_pix null for a card
      const replay = await request(second, 'POST', '/api/v2/invoices', { body: card, headers: keyed });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(answered);
      expect(replay.body.data.qr_code_pix).toBeNull();
    } finally {
      await second.close();
    }
  });

  it.skipIf(ENGINE !== 'postgres')('migration 14 drops the foreign keys to the rows every charge shares, keeps a charge\'s own, and runs again unharmed', async () => {
    const db = join(dir, 'migrate-14.db');
    const first = await startTestServer({ db });
    const pix = await create(first, validPix());
    const pool = () => (first.store as PostgresStore).pool;
    const keys = async (store: PostgresStore) => (await store.pool.query<{ key: string }>(
      "SELECT conname AS key FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text IN ('invoices', 'customers', 'timeline', 'events', 'financial_movements', 'idempotency_keys') ORDER BY 1",
    )).rows.map((row) => row.key);
    const own = ['events_invoice_id_fkey', 'financial_movements_invoice_id_fkey', 'timeline_invoice_id_fkey'];
    expect(await keys(first.store as PostgresStore)).toEqual(own);
    // back to schema 12, the keys as migration 1 made them
    await pool().query(`
      ALTER TABLE invoices ADD CONSTRAINT invoices_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
      ALTER TABLE invoices ADD CONSTRAINT invoices_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customers(id);
      ALTER TABLE customers ADD CONSTRAINT customers_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
      ALTER TABLE timeline ADD CONSTRAINT timeline_token_id_fkey FOREIGN KEY (token_id) REFERENCES api_tokens(id);
      ALTER TABLE events ADD CONSTRAINT events_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
      ALTER TABLE financial_movements ADD CONSTRAINT financial_movements_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
      ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id);
      UPDATE pinvoice_schema SET version = 12;`);
    expect(await keys(first.store as PostgresStore)).toHaveLength(own.length + 7);
    await first.close();
    for (const round of ['the keys there', 'the keys already gone']) {
      const again = await startTestServer({ db, token: first.token });
      try {
        expect(await keys(again.store as PostgresStore), round).toEqual(own);
        expect((await (again.store as PostgresStore).pool.query('SELECT version FROM pinvoice_schema')).rows[0]?.version).toBe(PG_MIGRATIONS.length);
        // (the payer's time moves with each of its charges: the record is the same but for it)
        expect((await request(again, 'GET', `/api/v2/invoices/${pix.secureId}`)).body).toMatchObject({ id: pix.id, secureId: pix.secureId, status: pix.status, amount: pix.amount });
        expect((await create(again, validPix())).id).toBeGreaterThan(pix.id);
        await (again.store as PostgresStore).pool.query('UPDATE pinvoice_schema SET version = 12');
      } finally {
        await again.close();
      }
    }
  });

  it.skipIf(ENGINE !== 'postgres')('migration 17 compresses the journal\'s texts with LZ4; entries compressed with pglz before read alike', async () => {
    const db = join(dir, 'migrate-17.db');
    const first = await startTestServer({ db });
    const store = () => first.store as PostgresStore;
    const lz4 = (await store().pool.query("SELECT 'lz4' = ANY (enumvals) AS has FROM pg_settings WHERE name = 'default_toast_compression'")).rows[0]?.has;
    expect(lz4, 'the tests\' PostgreSQL (Debian\'s) is built with LZ4').toBe(true);
    const methods = async (on: PostgresStore) => (await on.pool.query<{ column: string; method: string }>(
      "SELECT attname AS column, attcompression AS method FROM pg_attribute WHERE attrelid IN ('journal_entries'::regclass, 'journal_bodies'::regclass) AND attname IN ('request_body', 'response_body', 'detail', 'body') ORDER BY 1",
    )).rows.map((row) => `${row.column}:${row.method}`);
    expect(await methods(store())).toEqual(['body:l', 'detail:l', 'request_body:l', 'response_body:l']);
    // back to schema 16: pglz (PostgreSQL's default), and an entry written so
    await store().pool.query(`ALTER TABLE journal_entries ALTER COLUMN request_body SET COMPRESSION pglz, ALTER COLUMN response_body SET COMPRESSION pglz,
      ALTER COLUMN detail SET COMPRESSION pglz; ALTER TABLE journal_bodies ALTER COLUMN body SET COMPRESSION pglz; UPDATE pinvoice_schema SET version = 16`);
    const before = await create(first, validPix());
    const listed = (on: TestServer) => request(on, 'GET', '/api/v2/sandbox/requests?method=POST&path=/api/v2/invoices');
    const old = (await listed(first)).body.data as { response_body: { data: { secureId: string } } }[];
    expect(old).toHaveLength(1);
    const compression = async (on: PostgresStore) => (await on.pool.query<{ method: string }>(
      "SELECT pg_column_compression(response_body) AS method FROM journal_entries WHERE method = 'POST' ORDER BY id")).rows.map((row) => row.method);
    expect(await compression(store())).toEqual(['pglz']);
    await first.close();

    const again = await startTestServer({ db, token: first.token });
    try {
      const on = again.store as PostgresStore;
      expect(await methods(on)).toEqual(['body:l', 'detail:l', 'request_body:l', 'response_body:l']);
      const after = await create(again, validPix());
      const entries = (await listed(again)).body.data as typeof old;
      expect(await compression(on)).toEqual(['pglz', 'lz4']);
      // each reads back as the record answered
      expect(entries.map((entry) => entry.response_body.data.secureId)).toEqual([before.secureId, after.secureId]);
      expect(entries[0]?.response_body).toEqual(old[0]?.response_body);
    } finally {
      await again.close();
    }
  });

  it.skipIf(ENGINE !== 'sqlite')('migration 4 drops the hashes of card creates that earlier versions kept; their keys still replay', async () => {
    const db = join(dir, 'migrate-4.db');
    const first = await startTestServer({ db });
    const keyed = { 'idempotency-key': 'card-before-migration-4' };
    const card = cardCharge(CARDS.approved);
    const answered = (await request(first, 'POST', '/api/v2/invoices', { body: card, headers: keyed })).body;
    await downgradeTo4(first);
    (first.store as SqliteStore).db.exec("UPDATE idempotency_keys SET request_hash = 'raw-hash-of-the-card' ; PRAGMA user_version = 3;");
    await first.close();
    const second = await startTestServer({ db, token: first.token });
    try {
      const { request_hash } = (second.store as SqliteStore).db.prepare('SELECT request_hash FROM idempotency_keys').get() as { request_hash: string };
      expect(request_hash).toBe('unknown');
      const replay = await request(second, 'POST', '/api/v2/invoices', { body: card, headers: keyed });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(answered);
    } finally {
      await second.close();
    }
  });
});
