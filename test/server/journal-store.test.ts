// The journal's store door (port.ts JournalStore) on each engine, below the HTTP layer: ids, windows,
// filters and shared answers, exactly. SQLite keeps a batch of a company's entries as one row and its
// window's edge as a number (sqlite/journal.ts); PostgreSQL an entry a row: both must answer alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/store/index.js';
import { JOURNAL_SCHEMA } from '../../src/server/store/sqlite/journal.js';
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
  it('gives ids that only grow across companies, each company reading its own in order', async () => {
    await journal.clear(a);
    await journal.clear(b);
    await journal.append([entry(a, '/a/1'), entry(b, '/b/1'), entry(a, '/a/2'), entry(b, '/b/2'), entry(a, '/a/3')], 100);
    await journal.append([entry(b, '/b/3'), entry(a, '/a/4')], 100);
    const ofA = await journal.list(a, {}, 0, 100);
    const ofB = await journal.list(b, {}, 0, 100);
    expect(paths(ofA)).toEqual(['/a/1', '/a/2', '/a/3', '/a/4']);
    expect(paths(ofB)).toEqual(['/b/1', '/b/2', '/b/3']);
    const ids = [...ofA, ...ofB].map((row) => row.id).sort((x, y) => x - y);
    expect(new Set(ids).size).toBe(7);
    // within a company, in the order given; the second batch's ids above the first's
    for (const rows of [ofA, ofB]) expect(rows.map((row) => row.id)).toEqual([...rows.map((row) => row.id)].sort((x, y) => x - y));
    expect(Math.min(ofA[3]!.id, ofB[2]!.id)).toBeGreaterThan(Math.max(ofA[2]!.id, ofB[1]!.id));
    expect(await journal.last(a)).toBe(ofA[3]!.id);
    // each entry as it was given, found again by its id
    const second = ofA[1]!;
    expect(second).toMatchObject({ company_id: a, direction: 'in', method: 'GET', status: 200, invoice_id: null, duration_ms: 1.25, request_body: null, response_body: null, detail: '{}' });
    expect(second.sandbox_at - second.at).toBe(5);
    expect(await journal.get(a, second.id)).toEqual(second);
    expect(await journal.get(b, second.id)).toBeUndefined(); // another company's entry is not there
    expect(paths(await journal.list(a, {}, second.id, 2))).toEqual(['/a/3', '/a/4']);
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
      file.prepare('INSERT INTO journal_batches (last_id, company_id, first_id, entries, bodies) VALUES (5, 1, 5, ?, ?)').run(JSON.stringify([[1, 1000, 1005, 'in', 'POST', '/old', 201, null, 2.5, 10, 11, '{}', null]]), '{"old":1}{"kept":1}');
      file.exec('UPDATE journal_state SET entries = entries + 1; UPDATE journal_seq SET last_id = 5');
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

describe.skipIf(ENGINE !== 'sqlite')('a journal file of the second form (bodies inside the batch’s JSON)', () => {
  it('is read as it was, and goes on with the bodies beside', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinvoice-journal-v2-'));
    try {
      const db = join(dir, 'p.db');
      const old = new Database(`${db}-requests`);
      old.exec('CREATE TABLE journal_batches (last_id INTEGER PRIMARY KEY, company_id INTEGER NOT NULL, first_id INTEGER NOT NULL, entries TEXT NOT NULL)');
      old.exec(JOURNAL_SCHEMA);
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
