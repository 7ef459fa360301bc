// The journal's store door (port.ts JournalStore) on each engine, below the HTTP layer: ids, windows,
// filters and shared answers, exactly. SQLite keeps a batch of a company's entries as one row and its
// window's edge as a number (sqlite/journal.ts); PostgreSQL an entry a row: both must answer alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { addCompany } from '../../src/server/seed.js';
import { openStore } from '../../src/server/store/index.js';
import { BODY_GRACE_MS, createJournalWrites, openJournalFile, type JournalInsert } from '../../src/server/store/sqlite/journal.js';
import { PG_MIGRATIONS } from '../../src/server/store/postgres/migrations.js';
import { openPostgresStore } from '../../src/server/store/postgres/index.js';
import { postgresDatabase } from '../support/engine.js';
import type { JournalRow, JournalStore, NewJournalEntry } from '../../src/server/store/port.js';
import { addTestCompany, ENGINE, request, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let journal: JournalStore;
let a: number;
let b: number;
beforeAll(async () => {
  server = await startTestServer({ journal: 0 }); // the server records nothing itself: these tests write alone
  journal = server.store.journal;
  a = (await request(server, 'GET', '/api/v2/company')).body.id;
  b = await addTestCompany(server, 'pinv_test_journal_store_b', 'Loja B');
});
afterAll(() => server.close());

let clock = 1_700_000_000_000;
function entry(company: number, path: string, more: Partial<NewJournalEntry> = {}): NewJournalEntry {
  clock += 1000;
  return { company_id: company, at: clock, sandbox_at: clock + 5, direction: 'in', method: 'GET', path, status: 200, invoice_id: null, duration_ms: 1.25, request_body: null, response_body: null, detail: '{}', ...more };
}
const paths = (rows: JournalRow[]) => rows.map((row) => row.path);

describe('the journal store', () => {
  it("numbers each company's entries 1, 2, 3… of its own, in the order given: another company's traffic never shows in them", async () => {
    await journal.append([entry(a, '/a/1'), entry(b, '/b/1'), entry(a, '/a/2'), entry(b, '/b/2'), entry(a, '/a/3')], 100);
    await journal.append([entry(b, '/b/3'), entry(a, '/a/4')], 100);
    const ofA = await journal.list(a, {}, 0, 100);
    const ofB = await journal.list(b, {}, 0, 100);
    expect(ofA.map((row) => [row.id, row.path])).toEqual([[1, '/a/1'], [2, '/a/2'], [3, '/a/3'], [4, '/a/4']]);
    expect(ofB.map((row) => [row.id, row.path])).toEqual([[1, '/b/1'], [2, '/b/2'], [3, '/b/3']]);
    expect(await journal.last(a)).toBe(4);
    // each entry as it was given, found again by its id; the same id of another company is that company's own
    const second = ofA[1]!;
    expect(second).toMatchObject({ company_id: a, direction: 'in', method: 'GET', status: 200, invoice_id: null, duration_ms: 1.25, request_body: null, response_body: null, detail: '{}' });
    expect(second.sandbox_at - second.at).toBe(5);
    expect(await journal.get(a, second.id)).toEqual(second);
    expect((await journal.get(b, second.id))?.path).toBe('/b/2');
    expect(paths(await journal.list(a, {}, second.id, 2))).toEqual(['/a/3', '/a/4']);
    // a clear keeps the count: ids are never given twice (a cursor held across it misses nothing)
    expect(await journal.clear(a)).toBe(4);
    await journal.append([entry(a, '/a/5'), entry(b, '/b/4')], 100);
    expect((await journal.list(a, {}, 0, 100)).map((row) => [row.id, row.path])).toEqual([[5, '/a/5']]);
    expect((await journal.list(b, {}, 3, 100)).map((row) => [row.id, row.path])).toEqual([[4, '/b/4']]);
    await journal.clear(a);
    await journal.clear(b);
  });

  it('keeps each company’s newest `keep`, dropping the oldest one by one, counted, across batches', async () => {
    await journal.clear(a);
    await journal.clear(b);
    const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => entry(a, `/w/${from + i}`));
    await journal.append(batch(1, 3), 5);
    await journal.append(batch(4, 3), 5); // 6 > 5: /w/1 goes, the rest of its batch stays
    let rows = await journal.list(a, {}, 0, 100);
    expect(paths(rows)).toEqual(['/w/2', '/w/3', '/w/4', '/w/5', '/w/6']);
    let state = await journal.state(a);
    expect(state.dropped).toBe(1);
    const first = rows[0]!.id;
    expect(state.dropped_upto).toBe(first - 1);
    expect(await journal.get(a, first - 1)).toBeUndefined();
    expect(await journal.get(a, first)).toMatchObject({ path: '/w/2' });

    await journal.append(batch(7, 4), 5); // 9 > 5: /w/2 to /w/5 go: the end of one batch and the start of the next
    rows = await journal.list(a, {}, 0, 100);
    expect(paths(rows)).toEqual(['/w/6', '/w/7', '/w/8', '/w/9', '/w/10']);
    state = await journal.state(a);
    expect(state.dropped).toBe(5);
    expect(state.dropped_upto).toBe(rows[0]!.id - 1);
    // a cursor from before the window reads from its start; the other company is untouched
    expect(paths(await journal.list(a, {}, first, 2))).toEqual(['/w/6', '/w/7']);
    expect(await journal.state(b)).toEqual({ dropped: 0, dropped_upto: 0 });

    await journal.append([], 5, new Map([[a, 7]])); // entries lost before they reached the store: counted only
    expect((await journal.state(a)).dropped).toBe(12);

    const last = await journal.last(a);
    expect(await journal.clear(a)).toBe(5);
    expect(await journal.list(a, {}, 0, 100)).toEqual([]);
    expect(await journal.state(a)).toEqual({ dropped: 0, dropped_upto: 0 });
    await journal.append([entry(a, '/after')], 5);
    expect((await journal.list(a, {}, 0, 100))[0]!.id).toBeGreaterThan(last); // ids go on after a clear
  });

  it('filters by direction, method, path (with *), status range and charge, after a cursor, up to a limit', async () => {
    await journal.clear(a);
    await journal.append([
      entry(a, '/api/v2/invoices', { method: 'POST', status: 201, invoice_id: 10 }),
      entry(a, '/api/v2/invoices/10', { invoice_id: 10 }),
      entry(a, '/api/v2/invoices/11', { status: 404 }),
      entry(a, 'https://shop.example/hook', { direction: 'out', method: 'POST', status: 500, invoice_id: 10 }),
    ], 100);
    await journal.append([entry(a, '/api/v2/invoices/10/refund', { method: 'POST', status: 422, invoice_id: 10 }), entry(a, '/api/v2/invoices/12', { invoice_id: 12 })], 100);
    expect(paths(await journal.list(a, { direction: 'out' }, 0, 100))).toEqual(['https://shop.example/hook']);
    expect(paths(await journal.list(a, { method: 'POST', direction: 'in' }, 0, 100))).toEqual(['/api/v2/invoices', '/api/v2/invoices/10/refund']);
    expect(paths(await journal.list(a, { path: '/api/v2/invoices/*' }, 0, 100))).toEqual(['/api/v2/invoices/10', '/api/v2/invoices/11', '/api/v2/invoices/10/refund', '/api/v2/invoices/12']);
    expect(paths(await journal.list(a, { path: '/api/v2/invoices/1_*' }, 0, 100))).toEqual([]); // `_` and `%` are themselves
    expect(paths(await journal.list(a, { status: [400, 499] }, 0, 100))).toEqual(['/api/v2/invoices/11', '/api/v2/invoices/10/refund']);
    const charge = await journal.list(a, { invoiceId: 10 }, 0, 100);
    expect(paths(charge)).toEqual(['/api/v2/invoices', '/api/v2/invoices/10', 'https://shop.example/hook', '/api/v2/invoices/10/refund']);
    expect(paths(await journal.list(a, { invoiceId: 10 }, charge[1]!.id, 2))).toEqual(['https://shop.example/hook', '/api/v2/invoices/10/refund']);
    expect(paths(await journal.list(a, { invoiceId: 10, method: 'GET' }, 0, 100))).toEqual(['/api/v2/invoices/10']);
    expect(await journal.list(a, { invoiceId: 99 }, 0, 100)).toEqual([]);
    expect(await journal.list(b, { invoiceId: 10 }, 0, 100)).toEqual([]);
  });

  it("keeps a proxy's tunnel entry (pinvoice proxy --forward) as one, and finds it by its direction", async () => {
    await journal.clear(a);
    const tunnel = entry(a, 'psp.example:443', { direction: 'tunnel', method: 'CONNECT', detail: '{"host":"psp.example","port":443}' });
    await journal.append([entry(a, '/api/v2/invoices'), tunnel, entry(a, '/api/v2/invoices/1')], 100);
    const found = await journal.list(a, { direction: 'tunnel' }, 0, 100);
    expect(found).toEqual([expect.objectContaining({ direction: 'tunnel', method: 'CONNECT', path: 'psp.example:443', detail: tunnel.detail })]);
    expect((await journal.get(a, found[0]!.id))?.direction).toBe('tunnel');
    expect(paths(await journal.list(a, { direction: 'in' }, 0, 100))).toEqual(['/api/v2/invoices', '/api/v2/invoices/1']);
  });

  it('reads back whole the entries that repeat the one before (a client polling a charge), from any point of a batch', async () => {
    await journal.clear(a);
    await journal.clear(b);
    const poll = (company: number, n: number, more: Partial<NewJournalEntry> = {}) => entry(company, '/api/v2/invoices/7', { detail: '{"headers":{"user-agent":"shop"}}', request_body: '{"q":1}', duration_ms: n, ...more });
    const record = Buffer.from('{"id":7,"status":"pending"}');
    const given = [poll(a, 1), poll(b, 2), poll(a, 3), poll(a, 4), entry(a, '/other'), poll(a, 5), poll(b, 6), poll(a, 7, { status: 304 }), poll(a, 8, { response_body: record }), poll(a, 9, { response_body: record }), poll(a, 10, { response_body: record, invoice_id: 7 })];
    await journal.append(given, 100);
    const rows = await journal.list(a, {}, 0, 100);
    expect(rows.map((row) => [row.path, row.detail, row.request_body, row.duration_ms, row.status, row.response_body, row.invoice_id])).toEqual([
      ['/api/v2/invoices/7', '{"headers":{"user-agent":"shop"}}', '{"q":1}', 1, 200, null, null],
      ['/api/v2/invoices/7', '{"headers":{"user-agent":"shop"}}', '{"q":1}', 3, 200, null, null],
      ['/api/v2/invoices/7', '{"headers":{"user-agent":"shop"}}', '{"q":1}', 4, 200, null, null],
      ['/other', '{}', null, 1.25, 200, null, null],
      ['/api/v2/invoices/7', '{"headers":{"user-agent":"shop"}}', '{"q":1}', 5, 200, null, null],
      ['/api/v2/invoices/7', '{"headers":{"user-agent":"shop"}}', '{"q":1}', 7, 304, null, null],
      ['/api/v2/invoices/7', '{"headers":{"user-agent":"shop"}}', '{"q":1}', 8, 200, record.toString(), null],
      ['/api/v2/invoices/7', '{"headers":{"user-agent":"shop"}}', '{"q":1}', 9, 200, record.toString(), null],
      ['/api/v2/invoices/7', '{"headers":{"user-agent":"shop"}}', '{"q":1}', 10, 200, record.toString(), 7],
    ]);
    // each with its own times
    expect(rows.map((row) => [row.at, row.sandbox_at])).toEqual(given.filter((one) => one.company_id === a).map((one) => [one.at, one.sandbox_at]));
    expect((await journal.list(b, {}, 0, 100)).map((row) => [row.path, row.detail, row.duration_ms])).toEqual([['/api/v2/invoices/7', '{"headers":{"user-agent":"shop"}}', 2], ['/api/v2/invoices/7', '{"headers":{"user-agent":"shop"}}', 6]]);
    for (const row of rows) expect(await journal.get(a, row.id)).toEqual(row);
    expect(await journal.list(a, {}, rows[1]!.id, 2)).toEqual(rows.slice(2, 4));
    expect(await journal.list(a, { path: '/api/v2/invoices/*', method: 'GET' }, rows[2]!.id, 10)).toEqual(rows.slice(4));
    expect(await journal.list(a, { invoiceId: 7 }, 0, 10)).toEqual([rows[8]]);
  });

  it('reads back answers, the server’s kept buffers (handed over once) as their text', async () => {
    await journal.clear(a);
    const record = Buffer.from('{"data":{"id":10,"status":"pending","payer":{"name":"João"}}}');
    await journal.append([entry(a, '/r/1', { response_body: record }), entry(a, '/r/2', { response_body: '{"inline":true}', request_body: '{"amount":100}' })], 100);
    await journal.append([entry(a, '/r/3', { response_body: record })], 100);
    const rows = await journal.list(a, {}, 0, 100);
    expect(rows.map((row) => row.response_body)).toEqual([record.toString(), '{"inline":true}', record.toString()]);
    expect(rows[1]!.request_body).toBe('{"amount":100}');
    expect((await journal.get(a, rows[2]!.id))?.response_body).toBe(record.toString());
  });

  it("reads back a detail's shared members inside its detail (a proxy's findings), the same for every entry that shares them, repeats included", async () => {
    await journal.clear(a);
    const findings = Buffer.from('"findings":[{"kind":"unknown-field","path":"/fee/spreadPercentage","seen":"number"}]');
    const members = findings.toString();
    const record = Buffer.from('{"id":7,"status":"pending"}');
    const poll = (n: number, detail = '{"upstream":{"status":200}}') => entry(a, '/api/v2/invoices', { response_body: record, duration_ms: n, detail, detail_shared: findings });
    await journal.append([poll(1), poll(2), poll(3, '{"query":{"id":"8"}}'), entry(a, '/none', { detail: '{}', detail_shared: findings }), entry(a, '/plain')], 100);
    await journal.append([poll(4)], 100);
    const rows = await journal.list(a, {}, 0, 100);
    expect(rows.map((row) => [row.path, row.duration_ms, row.detail])).toEqual([
      ['/api/v2/invoices', 1, `{"upstream":{"status":200},${members}}`],
      ['/api/v2/invoices', 2, `{"upstream":{"status":200},${members}}`],
      ['/api/v2/invoices', 3, `{"query":{"id":"8"},${members}}`],
      ['/none', 1.25, `{${members}}`],
      ['/plain', 1.25, '{}'],
      ['/api/v2/invoices', 4, `{"upstream":{"status":200},${members}}`],
    ]);
    expect(rows.map((row) => (JSON.parse(row.detail) as { findings?: unknown[] }).findings?.length)).toEqual([1, 1, 1, 1, undefined, 1]);
    for (const row of rows) expect(await journal.get(a, row.id)).toEqual(row);
    expect(rows[0]).not.toHaveProperty('detail_shared');
  });

  it('reads back every body exactly, whatever its text: accents and emoji, empty, quotes and escapes, repeated; a lone surrogate as U+FFFD', async () => {
    await journal.clear(a);
    const bodies: (string | null)[] = ['{"payer":{"name":"Conceição 😀"}}', '', '"\\u0000\n"', '\ud800 alone', 'a\u2028b', null, '{"payer":{"name":"Conceição 😀"}}', 'x'.repeat(70_000)];
    await journal.append(bodies.map((body, k) => entry(a, `/b/${k}`, { request_body: body, response_body: k % 3 === 0 ? null : `${body ?? ''}!` })), 100);
    const rows = await journal.list(a, {}, 0, 100);
    const stored = bodies.map((body) => body?.toWellFormed() ?? null); // (PostgreSQL's text keeps no lone surrogate either)
    expect(stored[3]).toBe('\ufffd alone');
    expect(rows.map((row) => [row.request_body, row.response_body])).toEqual(stored.map((body, k) => [body, k % 3 === 0 ? null : `${body ?? ''}!`]));
    for (const row of rows) expect(await journal.get(a, row.id)).toEqual(row);
    expect((await journal.list(a, {}, rows[4]!.id, 100)).map((row) => row.request_body)).toEqual(stored.slice(5));
  });
});

describe.skipIf(ENGINE !== 'sqlite')('a batch’s bodies in the journal file', () => {
  it('are kept deflated from 1 KiB (a sixteenth of the bytes for creates), and bodies kept as text before are read as they are', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinvoice-journal-deflate-'));
    try {
      const db = join(dir, 'p.db');
      const request = '{"method":"pix","total_price_cents":1990,"payer":{"name":"Conceição 😀"}}';
      const answer = (id: number) => `{"data":{"id":${id},"status":"pending","items":${JSON.stringify(Array.from({ length: 20 }, (_, k) => ({ name: `Camiseta ${k}`, quantity: 1, unit_price: 1990 })))}}}`;
      const store = openStore(db);
      try {
        await store.journal.append([1, 2, 3].map((id) => entry(1, '/api/v2/invoices', { method: 'POST', request_body: request, response_body: answer(id) })), 100);
        await store.journal.append([entry(1, '/small', { request_body: '{"a":1}', response_body: '{"ok":true}' })], 100);
      } finally {
        await store.close();
      }
      const file = new Database(`${db}-requests`);
      const kept = file.prepare('SELECT last_id, typeof(bodies) AS kind, length(bodies) AS bytes FROM journal_batches ORDER BY last_id').all() as { last_id: number; kind: string; bytes: number }[];
      const text = 3 * (request.length + answer(1).length);
      expect(kept.map((row) => row.kind)).toEqual(['blob', 'text']);
      expect(kept[0]!.bytes).toBeLessThan(text / 4);
      // a batch kept by the pinvoice before, its bodies as text (each named by its length + 1)
      file.prepare('INSERT INTO journal_batches (company_id, first_id, last_id, entries, bodies) VALUES (1, 5, 5, ?, ?)').run(JSON.stringify([[1, 1000, 1005, 'in', 'POST', '/old', 201, null, 2.5, 10, 11, '{}', null]]), '{"old":1}{"kept":1}');
      file.exec('UPDATE journal_state SET entries = entries + 1, last_id = 5');
      file.close();
      const again = openStore(db);
      try {
        const rows = await again.journal.list(1, {}, 0, 10);
        expect(rows.map((row) => [row.path, row.request_body, row.response_body])).toEqual([
          ['/api/v2/invoices', request, answer(1)],
          ['/api/v2/invoices', request, answer(2)],
          ['/api/v2/invoices', request, answer(3)],
          ['/small', '{"a":1}', '{"ok":true}'],
          ['/old', '{"old":1}', '{"kept":1}'],
        ]);
        expect((await again.journal.get(1, rows[1]!.id))?.response_body).toBe(answer(2));
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(ENGINE !== 'sqlite')('a batch of polls in the journal file', () => {
  it('keeps an entry that repeats the one before but for its times as those three numbers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinvoice-journal-repeat-'));
    try {
      const db = join(dir, 'p.db');
      const record = Buffer.from('{"id":7,"status":"pending"}');
      const poll = (n: number) => entry(1, '/api/v2/invoices/7', { duration_ms: n, response_body: record, invoice_id: 7, detail: '{"headers":{"accept":"*/*"}}' });
      const given = [poll(1), poll(2), poll(3), entry(1, '/other'), poll(4), poll(5)];
      const store = openStore(db);
      try {
        await store.journal.append(given, 100);
      } finally {
        await store.close();
      }
      const file = new Database(`${db}-requests`, { readonly: true });
      const kept = JSON.parse((file.prepare('SELECT entries FROM journal_batches').get() as { entries: string }).entries) as unknown[][];
      file.close();
      expect(kept.map((row) => row.length)).toEqual([13, 3, 3, 13, 13, 3]);
      expect(kept[1]).toEqual([given[1]!.at, given[1]!.sandbox_at, 2]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(ENGINE !== 'sqlite')("a detail's shared members in the journal file", () => {
  it('are kept once, by ref beside the shared answers, not in each entry of the batch (journal version 6)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinvoice-journal-shared-detail-'));
    try {
      const db = join(dir, 'p.db');
      const findings = Buffer.from(`"findings":${JSON.stringify(Array.from({ length: 20 }, (_, k) => ({ kind: 'unknown-field', path: `/member${k}`, seen: 'string' })))}`);
      const record = Buffer.from('{"id":7,"status":"pending"}');
      const store = openStore(db);
      try {
        await store.journal.append(Array.from({ length: 10 }, (_, k) => entry(1, '/api/v2/invoices', { response_body: record, detail: `{"query":{"id":"${k}"}}`, detail_shared: findings })), 100);
      } finally {
        await store.close();
      }
      const file = new Database(`${db}-requests`, { readonly: true });
      const batch = file.prepare('SELECT entries, bodies FROM journal_batches').get() as { entries: string; bodies: string | Buffer | null };
      const kept = file.prepare('SELECT ref, body FROM journal_bodies').all() as { ref: string; body: Buffer }[];
      const version = file.pragma('user_version', { simple: true });
      file.close();
      expect(version).toBe(7);
      expect(kept.filter((row) => row.body.equals(findings))).toHaveLength(1);
      const ref = kept.find((row) => row.body.equals(findings))?.ref;
      const rows = JSON.parse(batch.entries) as unknown[][];
      expect(rows.every((row) => row[13] === ref)).toBe(true);
      expect(batch.entries).not.toContain('member1');
      expect(String(batch.bodies ?? '')).not.toContain('member1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The journal file's tables of the sixth form (user_version 6): a shared body's marks in its own row. */
const SIXTH_FORM = `
  CREATE TABLE journal_batches (batch INTEGER PRIMARY KEY, company_id INTEGER NOT NULL, first_id INTEGER NOT NULL, last_id INTEGER NOT NULL, entries TEXT NOT NULL, bodies TEXT);
  CREATE UNIQUE INDEX journal_batches_ids ON journal_batches(company_id, last_id);
  CREATE TABLE journal_batch_invoices (company_id INTEGER NOT NULL, invoice_id INTEGER NOT NULL, last_id INTEGER NOT NULL, PRIMARY KEY (company_id, invoice_id, last_id)) WITHOUT ROWID;
  CREATE TABLE journal_bodies (ref TEXT PRIMARY KEY, body BLOB NOT NULL, at INTEGER NOT NULL, batch INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
  CREATE INDEX journal_bodies_batch ON journal_bodies(batch);
  CREATE TABLE journal_state (company_id INTEGER PRIMARY KEY, entries INTEGER NOT NULL DEFAULT 0, dropped INTEGER NOT NULL DEFAULT 0, dropped_upto INTEGER NOT NULL DEFAULT 0, last_id INTEGER NOT NULL DEFAULT 0);`;

describe.skipIf(ENGINE !== 'sqlite')('a journal file of the sixth form (a shared body\'s marks in its own row)', () => {
  it('keeps each shared body\'s marks beside it (version 7): the bytes written once, a new batch moving only its mark', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinvoice-journal-v6-'));
    try {
      const db = join(dir, 'p.db');
      const old = new Database(`${db}-requests`);
      old.exec(SIXTH_FORM);
      const sentAt = Date.now() - 5000;
      old.prepare('INSERT INTO journal_batches (batch, company_id, first_id, last_id, entries) VALUES (9, 1, 1, 1, ?)')
        .run(JSON.stringify([[1, 1000, 1005, 'in', 'GET', '/api/v2/invoices/77', 200, 77, 1, null, null, '{}', 'r1']]));
      old.exec(`INSERT INTO journal_batch_invoices VALUES (1, 77, 1); INSERT INTO journal_bodies VALUES ('r1', CAST('{"id":77}' AS BLOB), ${sentAt}, 9);
        INSERT INTO journal_state VALUES (1, 1, 0, 0, 1); PRAGMA user_version = 6`);
      old.close();
      const record = Buffer.from('{"id":78,"status":"pending"}');
      const store = openStore(db);
      try {
        expect(await store.journal.get(1, 1)).toMatchObject({ invoice_id: 77, response_body: '{"id":77}' });
        await store.journal.append([entry(1, '/api/v2/invoices/78', { response_body: record }), entry(1, '/api/v2/invoices/78', { response_body: record, status: 404 })], 100);
        expect((await store.journal.list(1, {}, 0, 10)).map((row) => row.response_body)).toEqual(['{"id":77}', record.toString(), record.toString()]);
      } finally {
        await store.close();
      }
      const file = new Database(`${db}-requests`, { readonly: true });
      try {
        expect(file.pragma('user_version', { simple: true })).toBe(7);
        // (r1 first, then the body this pinvoice sent)
        const marks = file.prepare("SELECT ref, at, batch FROM journal_body_marks ORDER BY ref <> 'r1'").all() as { ref: string; at: number; batch: number }[];
        const newest = (file.prepare('SELECT MAX(batch) AS batch FROM journal_batches').get() as { batch: number }).batch;
        // r1's marks came along; the new body's mark names the batch that named it
        expect(marks[0]).toEqual({ ref: 'r1', at: sentAt, batch: 9 });
        expect(marks.slice(1)).toMatchObject([{ batch: newest }]);
        const bodies = file.prepare("SELECT ref, body, batch FROM journal_bodies ORDER BY ref <> 'r1'").all() as { ref: string; body: Buffer; batch: number }[];
        expect(bodies.map((row) => [row.ref, row.body.toString()])).toEqual([['r1', '{"id":77}'], [marks[1]?.ref, record.toString()]]);
        // the bytes' own row is not moved by the batches that name it (nor is its index kept)
        expect(bodies[1]?.batch).toBe(0);
        expect(file.prepare("SELECT name FROM sqlite_master WHERE name = 'journal_bodies_batch'").get()).toBeUndefined();
      } finally {
        file.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(ENGINE !== 'sqlite')('a shared body in the journal file', () => {
  it('is removed with its marks a minute after it was last sent once no batch names it; one a batch still names stays', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinvoice-journal-sweep-'));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-12-04T10:00:00Z'));
      const { db } = openJournalFile(join(dir, 'p.db-requests'));
      const writes = createJournalWrites(db);
      const row = (path: string, ref: string | null): JournalInsert => [1, Date.now(), Date.now(), 'in', 'GET', path, 200, 7, 1, null, null, '{}', ref];
      const sent = (ref: string) => ({ ref, body: Buffer.from(`{"ref":"${ref}"}`) });
      // "old" named by the first batch only, "kept" by the last: a window of 2 drops the first
      writes.append([row('/a', 'old')], [sent('old')], 2);
      writes.append([row('/b', 'kept')], [sent('kept')], 2);
      writes.append([row('/c', 'kept')], [], 2);
      const refs = (table: string) => (db.prepare(`SELECT ref FROM ${table} ORDER BY ref`).all() as { ref: string }[]).map((r) => r.ref);
      expect(refs('journal_bodies')).toEqual(['kept', 'old']);
      // past the grace, the next batch sweeps: "old" goes, bytes and marks; "kept" stays
      vi.setSystemTime(Date.now() + BODY_GRACE_MS + 1000);
      writes.append([row('/d', null)], [], 2);
      expect(refs('journal_bodies')).toEqual(['kept']);
      expect(refs('journal_body_marks')).toEqual(['kept']);
      db.close();
    } finally {
      vi.useRealTimers();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The journal file's tables of the third form (user_version 3): ids numbered across companies, from journal_seq. */
const THIRD_FORM = `
  CREATE TABLE journal_batches (last_id INTEGER PRIMARY KEY, company_id INTEGER NOT NULL, first_id INTEGER NOT NULL, entries TEXT NOT NULL, bodies TEXT);
  CREATE INDEX journal_batches_company ON journal_batches(company_id, last_id);
  CREATE TABLE journal_batch_invoices (company_id INTEGER NOT NULL, invoice_id INTEGER NOT NULL, last_id INTEGER NOT NULL, PRIMARY KEY (company_id, invoice_id, last_id)) WITHOUT ROWID;
  CREATE TABLE journal_bodies (ref TEXT PRIMARY KEY, body BLOB NOT NULL, at INTEGER NOT NULL, last_id INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
  CREATE TABLE journal_state (company_id INTEGER PRIMARY KEY, entries INTEGER NOT NULL DEFAULT 0, dropped INTEGER NOT NULL DEFAULT 0, dropped_upto INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE journal_seq (last_id INTEGER NOT NULL);
  INSERT INTO journal_seq (last_id) VALUES (0);`;

describe.skipIf(ENGINE !== 'sqlite')('a journal file of the third form (ids numbered across companies)', () => {
  it("is numbered again company by company, each batch's size, window edge, charges and shared answers kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinvoice-journal-v3-'));
    try {
      const db = join(dir, 'p.db');
      const old = new Database(`${db}-requests`);
      old.exec(THIRD_FORM);
      const row = (company: number, path: string, invoice: number | null = null, ref: string | null = null) => [company, 1000, 1005, 'in', 'GET', path, 200, invoice, 1, null, null, '{}', ref];
      const batch = old.prepare('INSERT INTO journal_batches (last_id, company_id, first_id, entries) VALUES (?, ?, ?, ?)');
      // company 1: ids 1-3 and 6-7; company 2: 4-5 (4 dropped from its window) and 8-9, 9 a charge's with a shared answer
      batch.run(3, 1, 1, JSON.stringify([row(1, '/1a'), row(1, '/1b'), row(1, '/1c')]));
      batch.run(5, 2, 4, JSON.stringify([row(2, '/2a'), row(2, '/2b')]));
      batch.run(7, 1, 6, JSON.stringify([row(1, '/1d'), row(1, '/1e')]));
      batch.run(9, 2, 8, JSON.stringify([row(2, '/2c'), row(2, '/2d', 77, 'r1')]));
      old.exec(`INSERT INTO journal_batch_invoices VALUES (2, 77, 9); INSERT INTO journal_bodies VALUES ('r1', CAST('{"id":77}' AS BLOB), ${Date.now()}, 9);
        INSERT INTO journal_state VALUES (1, 5, 0, 0), (2, 3, 1, 4); UPDATE journal_seq SET last_id = 9; PRAGMA user_version = 3`);
      old.close();
      const store = openStore(db);
      try {
        const ids = async (company: number, filter = {}) => (await store.journal.list(company, filter, 0, 10)).map((entry) => [entry.id, entry.path]);
        expect(await ids(1)).toEqual([[1, '/1a'], [2, '/1b'], [3, '/1c'], [4, '/1d'], [5, '/1e']]);
        expect(await ids(2)).toEqual([[2, '/2b'], [3, '/2c'], [4, '/2d']]);
        expect(await store.journal.state(2)).toEqual({ dropped: 1, dropped_upto: 1 });
        expect(await store.journal.get(2, 1)).toBeUndefined();
        expect(await store.journal.get(2, 4)).toMatchObject({ path: '/2d', invoice_id: 77, response_body: '{"id":77}' });
        expect(await ids(2, { invoiceId: 77 })).toEqual([[4, '/2d']]);
        // and they go on from there, each company from its own
        await store.journal.append([entry(2, '/2e'), entry(1, '/1f')], 100);
        expect((await ids(2)).at(-1)).toEqual([5, '/2e']);
        expect((await ids(1)).at(-1)).toEqual([6, '/1f']);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(ENGINE !== 'postgres')('a kept buffer in the PostgreSQL journal', () => {
  it('is written once, by ref after (journal_bodies), resent after a failed batch, and removed once no entry names it', async () => {
    const url = await postgresDatabase();
    const store = await openPostgresStore(url);
    try {
      const company = (await addCompany(store, { token: 'pinv_test_pg_bodies' }, (n) => randomBytes(n), new Date())).id;
      const record = Buffer.from(`{"data":{"id":1,"note":"${'x'.repeat(3000)}"}}`);
      for (let batch = 0; batch < 3; batch++) await store.journal.append(Array.from({ length: 20 }, (_, i) => entry(company, `/r/${batch}/${i}`, { response_body: record })), 1000);
      const stored = await store.pool.query('SELECT count(*)::int AS bodies, (SELECT count(*)::int FROM journal_entries WHERE response_body IS NOT NULL) AS inline FROM journal_bodies');
      expect(stored.rows[0]).toEqual({ bodies: 1, inline: 0 });
      const rows = await store.journal.list(company, {}, 0, 100);
      expect(rows).toHaveLength(60);
      expect(new Set(rows.map((row) => row.response_body))).toEqual(new Set([record.toString()]));
      // a batch that fails after sending the body: the next sends it again (its ref named nothing stored)
      const other = Buffer.from('{"data":{"id":2}}');
      await expect(store.journal.append([entry(company, '/fails', { response_body: other, status: 2 ** 40 })], 1000)).rejects.toThrow();
      await store.journal.append([entry(company, '/after', { response_body: other })], 1000);
      expect((await store.journal.list(company, { path: '/after' }, 0, 10))[0]?.response_body).toBe(other.toString());
      // dropped entries leave their body behind only for the grace
      await store.journal.clear(company);
      await store.pool.query('UPDATE journal_bodies SET sent_at = 0');
      await store.journal.append([entry(company, '/new')], 1000);
      await store.journal.clear(company);
      expect((await store.pool.query('SELECT count(*)::int AS n FROM journal_bodies')).rows[0].n).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(ENGINE !== 'postgres')('a PostgreSQL journal of schema 10 (ids numbered across companies)', () => {
  it("is numbered again company by company by migration 11, in each company's order, and goes on from there", async () => {
    const url = await postgresDatabase();
    const first = await openPostgresStore(url);
    const [one, two] = [(await addCompany(first, { token: 'pinv_test_pg_journal_one' }, (n) => randomBytes(n), new Date())).id, (await addCompany(first, { token: 'pinv_test_pg_journal_two' }, (n) => randomBytes(n), new Date())).id];
    // the journal's tables as migrations 8 and 9 made them, schema 10; entries of both companies interleaved
    expect(PG_MIGRATIONS[7]).toContain('CREATE TABLE journal_entries');
    await first.pool.query(`DROP TABLE journal_entries, journal_state; ${PG_MIGRATIONS[7]} ${PG_MIGRATIONS[8]} UPDATE pinvoice_schema SET version = 10`);
    for (const [company, path] of [[one, '/1a'], [two, '/2a'], [two, '/2b'], [one, '/1b'], [two, '/2c']] as const) {
      await first.pool.query(`INSERT INTO journal_entries (company_id, at, sandbox_at, direction, method, path, status, detail) VALUES ($1, 1000, 1005, 'in', 'GET', $2, 200, '{}')`, [company, path]);
    }
    await first.pool.query(`INSERT INTO journal_state (company_id, entries) VALUES ($1, 2), ($2, 3)`, [one, two]);
    await first.close();
    const store = await openPostgresStore(url);
    try {
      const ids = async (company: number, after = 0) => (await store.journal.list(company, {}, after, 10)).map((row) => [row.id, row.path]);
      expect(await ids(one)).toEqual([[1, '/1a'], [2, '/1b']]);
      expect(await ids(two)).toEqual([[1, '/2a'], [2, '/2b'], [3, '/2c']]);
      await store.journal.append([entry(two, '/2d'), entry(one, '/1c')], 100);
      expect(await ids(two, 3)).toEqual([[4, '/2d']]);
      expect(await ids(one, 2)).toEqual([[3, '/1c']]);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(ENGINE !== 'sqlite')('a journal file of the second form (bodies inside the batch’s JSON)', () => {
  it('is read as it was, and goes on with the bodies beside', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinvoice-journal-v2-'));
    try {
      const db = join(dir, 'p.db');
      const old = new Database(`${db}-requests`);
      old.exec(THIRD_FORM.replace(', bodies TEXT', ''));
      const kept = [[1, 1000, 1005, 'in', 'POST', '/api/v2/invoices', 201, 7, 2.5, '{"amount":100}', '{"data":{"id":7}}', '{}', null], [1, 2000, 2005, 'in', 'POST', 0, 201, 8, 3, 0, '{"data":{"id":8}}', 0, null]];
      old.prepare('INSERT INTO journal_batches (last_id, company_id, first_id, entries) VALUES (2, 1, 1, ?)').run(JSON.stringify(kept));
      old.exec("INSERT INTO journal_state (company_id, entries) VALUES (1, 2); UPDATE journal_seq SET last_id = 2; PRAGMA user_version = 2");
      old.close();
      const store = openStore(db);
      try {
        expect(store.journal.notice).toBeUndefined();
        await store.journal.append([entry(1, '/new', { request_body: '{"new":true}', response_body: '{"ok":1}' })], 10);
        const rows = await store.journal.list(1, {}, 0, 10);
        expect(rows.map((row) => [row.id, row.path, row.request_body, row.response_body, row.invoice_id])).toEqual([
          [1, '/api/v2/invoices', '{"amount":100}', '{"data":{"id":7}}', 7],
          [2, '/api/v2/invoices', '{"amount":100}', '{"data":{"id":8}}', 8],
          [3, '/new', '{"new":true}', '{"ok":1}', null],
        ]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(ENGINE !== 'sqlite')('a journal file of the first form (an entry a row)', () => {
  it('is begun anew in batches, and says so once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinvoice-journal-v1-'));
    try {
      const db = join(dir, 'p.db');
      const old = new Database(`${db}-requests`);
      old.exec("CREATE TABLE journal_entries (id INTEGER PRIMARY KEY AUTOINCREMENT, company_id INTEGER NOT NULL, path TEXT); INSERT INTO journal_entries (company_id, path) VALUES (1, '/old'); CREATE TABLE journal_state (company_id INTEGER PRIMARY KEY, entries INTEGER, dropped INTEGER, dropped_upto INTEGER)");
      old.close();
      const store = openStore(db);
      try {
        expect(store.journal.notice).toBe(`${db}-requests: the journal was kept an entry a row by an earlier pinvoice; it was begun anew in batches`);
        await store.journal.append([entry(1, '/new')], 10);
        expect(paths(await store.journal.list(1, {}, 0, 10))).toEqual(['/new']);
      } finally {
        await store.close();
      }
      const again = openStore(db);
      expect(again.journal.notice).toBeUndefined(); // told once
      expect(paths(await again.journal.list(1, {}, 0, 10))).toEqual(['/new']);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
