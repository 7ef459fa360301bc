// The listing's plans: each filter that leaves few charges is found by its index, never by a walk over
// the company's charges, and a later page starts where the cursor points inside the index (keyset),
// so that it costs what the first page does. Checked with each engine's own EXPLAIN; PostgreSQL plans
// by statistics, so it is given a company of 30,000 charges of many payers, analysed, first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceFilter } from '../../src/server/store/port.js';
import { pageStatement as pgPage } from '../../src/server/store/postgres/charges.js';
import { pageStatement as sqlitePage } from '../../src/server/store/sqlite/charges.js';
import { ENGINE, startTestServer, type TestServer } from '../support/server.js';

const AFTER = { created_at: '2026-01-01T06:00:00.000Z', id: 20_000 };

const CASES: [string, string, InvoiceFilter, boolean][] = [
  ['no filter, the first page', 'invoices_listed', {}, false],
  ['no filter, a later page', 'invoices_listed', {}, true],
  ['one status, a later page', 'invoices_status', { statuses: ['refunded'] }, true],
  ['several statuses', 'invoices_status', { statuses: ['refunded', 'chargedback'] }, false],
  ['a created_at range', 'invoices_listed', { created_from: '2026-01-01T01:00:00.000Z', created_to: '2026-01-01T02:00:00.000Z' }, false],
  ['payer_document', 'invoices_customer', { payer_document: '00000000042' }, false],
  ['payer_email', 'invoices_payer_email', { payer_email: 'payer41@example.com' }, false],
  ['payer_document and one status (the document drives)', 'invoices_customer', { payer_document: '00000000042', statuses: ['refunded'] }, false],
  ['payer_email and statuses (the e-mail drives)', 'invoices_payer_email', { payer_email: 'payer41@example.com', statuses: ['paid', 'refunded'] }, false],
  ['external_id', 'invoices_external_ref', { external_id: 'order-20' }, true],
  ['token_checkout', 'invoices_token_checkout_key|sqlite_autoindex_invoices_2', { token_checkout: 'c4ca4238a0b923820dcc509a6f75849b' }, false],
  ['a pix code, by its txid', 'invoices_pix_txid', { pix_txid: 'txid-3' }, false],
  ['a boleto line, by its barcode', 'invoices_boleto_barcode', { boleto_barcode: '0'.repeat(43) + '2' }, false],
];

/** A company of `n` charges: 5,000 payers, every tenth with an external_ref, statuses and methods mixed, one a second. */
const SEED = `
  INSERT INTO customers (company_id, document, created_at, updated_at)
  SELECT $1, lpad(g::text, 11, '0'), '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM generate_series(1, 5000) g;
  INSERT INTO invoices (company_id, secure_id, token_checkout, customer_id, method, status, amount, installments, postback_url, payer, items, fee,
    pix_txid, boleto, created_at, updated_at, external_ref)
  SELECT $1, 'INV-' || g, md5(g::text), (SELECT id FROM customers WHERE company_id = $1 AND document = lpad((g % 5000 + 1)::text, 11, '0')),
    (ARRAY['pix','credit_card','boleto'])[g % 3 + 1], (ARRAY['pending','paid','paid','paid','expired','refused','refunded','chargedback'])[g % 8 + 1],
    1000 + g % 5000, 1, '', json_build_object('email', 'payer' || (g % 5000) || '@Example.com')::text, '[]', '{}',
    CASE WHEN g % 3 = 0 THEN 'txid-' || g END, CASE WHEN g % 3 = 2 THEN json_build_object('barcode', lpad(g::text, 44, '0'))::text END,
    to_char(timestamp '2026-01-01' + g * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '2026-01-01T00:00:00.000Z',
    CASE WHEN g % 10 = 0 THEN 'order-' || g END
  FROM generate_series(1, $2) g;
  INSERT INTO timeline (invoice_id, status, note, at) SELECT id, status, 'created', created_at FROM invoices;
  ANALYZE`;

describe(`the listing's plans (${ENGINE})`, () => {
  let server: TestServer;
  let companyId: number;
  beforeAll(async () => {
    server = await startTestServer();
    companyId = (await server.store.companies.list())[0]?.id as number;
    if (server.store.engine === 'postgres') {
      for (const statement of SEED.split(';')) await server.store.pool.query(statement, statement.includes('$2') ? [companyId, 30_000] : statement.includes('$1') ? [companyId] : []);
    }
  });
  afterAll(() => server.close());

  async function plan(filter: InvoiceFilter, later: boolean): Promise<string[]> {
    const page = { filter, after: later ? AFTER : null, limit: 51 };
    const store = server.store;
    if (store.engine === 'sqlite') {
      const { text, values } = sqlitePage(companyId, page, '2026-01');
      return (store.db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(values) as { detail: string }[]).map((row) => row.detail);
    }
    const { text, values } = pgPage(companyId, page, '2026-01');
    return (await store.pool.query(`EXPLAIN (COSTS OFF) ${text}`, values)).rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']);
  }

  it.each(CASES)('%s: by %s', async (_, index, filter, later) => {
    const lines = await plan(filter, later);
    const text = lines.join('\n');
    const uses = new RegExp(server.store.engine === 'sqlite' ? `USING (COVERING )?INDEX (${index})` : `using (${index}) on invoices`);
    expect(text, text).toMatch(uses);
    // the charges are never scanned: every look at invoices goes by an index
    expect(text, text).not.toMatch(/SCAN i\b|Seq Scan on invoices/);
    if (later) expect(text, text).toMatch(server.store.engine === 'sqlite' ? /created_at<\?/ : /ROW\(created_at, id\) < ROW\(/);
  });
});
