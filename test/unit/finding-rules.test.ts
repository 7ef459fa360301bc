// The proxy's finding rules against the real schemas of src/api: each kind from one change to a record
// our own server made (which alone gives no finding), with its exact severity, pointer, expected and seen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerFindings, type Difference } from '../../src/api/finding-rules.js';
import { headerFindings, requestFindings, statusFinding } from '../../src/api/exchange-rules.js';
import { operation } from '../../src/api/operations.js';
import { Boleto, CreateInvoiceResponse, Enterprise, SearchTransactionAnswer, Transaction } from '../../src/api/schemas.js';
import { create } from '../support/charges.js';
import { request, startTestServer, validPix, type TestServer } from '../support/server.js';

let server: TestServer;
let record: any;
let company: any;
beforeAll(async () => {
  server = await startTestServer();
  record = await create(server, validPix());
  company = (await request(server, 'GET', '/api/v2/company')).body;
});
afterAll(() => server.close());

/** The record with one change made to a copy of it. */
const changed = (change: (copy: any) => void) => {
  const copy = structuredClone(record);
  change(copy);
  return copy;
};
const one = (kind: Difference['kind'], path: string, expected: string, seen: string): Difference[] => [
  { severity: ({ 'unknown-field': 'info', 'extra-header': 'info', null: 'warning', format: 'warning', 'new-value': 'warning' } as Record<string, Difference['severity']>)[kind] ?? 'error', kind, path, expected, seen },
];
const STATUSES_WORDS = 'one of pending, waiting_3ds, paid, refused, expired, canceled, …';

describe('the answer rules, one change to a record serve made', () => {
  it('find nothing in the record itself, nor in its page or its create answer', () => {
    expect(answerFindings(Transaction, record)).toEqual([]);
    expect(answerFindings(SearchTransactionAnswer, { data: [record, record], next_cursor: null })).toEqual([]);
    expect(answerFindings(CreateInvoiceResponse, { data: { ...record, invoice_id: record.secureId, qr_code_pix: record.pix.qrCode } })).toEqual([]);
    expect(answerFindings(Enterprise, company)).toEqual([]);
  });

  it.each([
    ['a member nobody listed', (r: any) => { r.antifraud = { score: 12, deeper: { provider: 'x' } }; }, one('unknown-field', '/antifraud', 'no such member', 'object')],
    ['a member of a record inside', (r: any) => { r.invoice.nsu = '004242'; }, one('unknown-field', '/invoice/nsu', 'no such member', 'string, 6 digits')],
    ['a card of production\'s shape (card\'s members are not shown)', (r: any) => { r.card = { brand: 'visa', last_four: '1111' }; }, one('unknown-field', '/card/last_four', 'no such member', 'string, 4 digits')],
    ['a member the spec shows, absent', (r: any) => { delete r.client.email; }, one('missing-field', '/client/email', 'a member of the record', 'absent')],
    ['null where a string goes', (r: any) => { r.client.name = null; }, one('null', '/client/name', 'string', 'null')],
    ['null where an object goes', (r: any) => { r.fee = null; }, one('null', '/fee', 'object', 'null')],
    ['a string where an integer goes', (r: any) => { r.installments = '1'; }, one('type', '/installments', 'integer', 'string, 1 digit')],
    ['a fraction where an integer goes', (r: any) => { r.installments = 1.5; }, one('type', '/installments', 'integer', 'number with a fraction')],
    ['a string where an object goes', (r: any) => { r.client = 'Maria Silva'; }, one('type', '/client', 'object', 'string, 11 characters')],
    ['an object where an array goes', (r: any) => { r.items = {}; }, one('type', '/items', 'array', 'object')],
    ['a number where a boolean goes', (r: any) => { r.traceable = 0; }, one('type', '/traceable', 'boolean', 'integer')],
    ['a status we do not know', (r: any) => { r.status = 'in_analysis'; }, one('new-value', '/status', STATUSES_WORDS, 'string "in_analysis"')],
    ['a method that is no code, by its shape', (r: any) => { r.paymentMethod = 'Cartão de crédito'; }, one('new-value', '/paymentMethod', 'one of pix, credit_card, boleto', 'string, 17 characters')],
    ['a number where a status goes', (r: any) => { r.status = 1; }, one('type', '/status', 'string', 'integer')],
    ['six fraction digits', (r: any) => { r.createdAt = '2026-11-25T23:38:17.443211Z'; }, one('format', '/createdAt', 'timestamp, 3 fraction digits, Z', 'timestamp, 6 fraction digits')],
    ['an offset', (r: any) => { r.updatedAt = '2026-11-25T20:40:00.123456-03:00'; }, one('format', '/updatedAt', 'timestamp, 3 fraction digits, Z', 'timestamp, 6 fraction digits, offset -03:00')],
    ['PHP\'s form', (r: any) => { r.client.created_at = '2026-11-25 23:38:17'; }, one('format', '/client/created_at', 'timestamp, 3 fraction digits, Z', 'timestamp, PHP form YYYY-MM-DD HH:MM:SS')],
    ['no fraction', (r: any) => { r.invoice.updated_at = '2026-11-25T23:38:17Z'; }, one('format', '/invoice/updated_at', 'timestamp, 3 fraction digits, Z', 'timestamp, no fraction digits')],
    ['no timestamp at all', (r: any) => { r.createdAt = 'yesterday'; }, one('type', '/createdAt', 'timestamp, 3 fraction digits, Z', 'string, 9 characters')],
    ['a unix time', (r: any) => { r.createdAt = 1764113897; }, one('type', '/createdAt', 'timestamp, 3 fraction digits, Z', 'integer')],
    ['an unformatted CNPJ', (r: any) => { r.enterprise.cnpj = '11222333000181'; }, one('format', '/enterprise/cnpj', 'NN.NNN.NNN/NNNN-NN', 'string, 14 digits')],
    ['cents with a fraction', (r: any) => { r.amount = 19.9; }, one('format', '/amount', 'integer amount in cents', 'number with a fraction')],
    ['cents with a fraction, in an element', (r: any) => { r.items[0].unitPrice = 19.9; }, one('format', '/items/*/unitPrice', 'integer amount in cents', 'number with a fraction')],
  ])('%s', (_, change, expected) => {
    expect(answerFindings(Transaction, changed(change))).toEqual(expected);
  });

  it('ask nothing of production that the specification does not show: pix.expiresAt, boleto, card, elements not shown, metadata keys', () => {
    const r = changed((copy) => {
      copy.pix = { qrCode: copy.pix.qrCode };
      copy.boleto = { url: 'https://b.example/x.pdf' };
      copy.timeline = [{}];
      copy.refunds = [{ id: 9 }];
      copy.financial_movements = [{}];
      copy.metadata = { pedido: '1', anything: { at: 'all' } };
    });
    expect(answerFindings(Transaction, r).filter((found) => found.kind !== 'unknown-field')).toEqual([]);
    expect(answerFindings(Transaction, r).map((found) => found.path)).toEqual(['/boleto/url']);
  });

  it('say each (kind, path) once: every element of a list at one pointer', () => {
    const r = changed((copy) => {
      copy.items = [{ ...copy.items[0], unitPrice: 1.5, extra: 1 }, { ...copy.items[0], unitPrice: 2.5, extra: 2 }];
    });
    expect(answerFindings(Transaction, r)).toEqual([
      ...one('format', '/items/*/unitPrice', 'integer amount in cents', 'number with a fraction'),
      ...one('unknown-field', '/items/*/extra', 'no such member', 'integer'),
    ]);
  });

  it('report a union by the branch that fits best, not both', () => {
    const r = changed((copy) => {
      copy.antifraud = {};
    });
    expect(answerFindings(SearchTransactionAnswer, r)).toEqual(one('unknown-field', '/antifraud', 'no such member', 'object'));
    expect(answerFindings(SearchTransactionAnswer, { data: [r], next_cursor: null })).toEqual(one('unknown-field', '/data/*/antifraud', 'no such member', 'object'));
  });

  it('read production\'s `data` envelope as the CLI does: the record at /data, the envelope\'s other members unknown', () => {
    expect(answerFindings(Enterprise, { data: { ...company, create_at: '2025-01-10 13:02:44' }, meta: {} })).toEqual([
      ...one('unknown-field', '/meta', 'no such member', 'object'),
      ...one('format', '/data/create_at', 'timestamp, 3 fraction digits, Z', 'timestamp, PHP form YYYY-MM-DD HH:MM:SS'),
    ]);
  });

  it('ask of a create answer only invoice_id, qr_code_pix and status', () => {
    expect(answerFindings(CreateInvoiceResponse, { data: { invoice_id: 'INV-1-2', qr_code_pix: null, status: 'pending' } })).toEqual([]);
    expect(answerFindings(CreateInvoiceResponse, { data: { invoice_id: 'INV-1-2', qr_code_pix: '000201' } })).toEqual(
      one('missing-field', '/data/status', 'a member of the record', 'absent'),
    );
  });

  it('take a date in another form as a format, a date in words as a type', () => {
    const boleto = { barcode: '1', digitableLine: '2', dueDate: '2026-12-01', expiresAt: '2026-12-01T02:59:59.000Z' };
    expect(answerFindings(Boleto, boleto)).toEqual([]);
    expect(answerFindings(Boleto, { ...boleto, dueDate: '01/12/2026' })).toEqual(one('format', '/dueDate', 'date, YYYY-MM-DD', 'string, 10 characters'));
    expect(answerFindings(Boleto, { ...boleto, dueDate: 'tomorrow' })).toEqual(one('type', '/dueDate', 'date, YYYY-MM-DD', 'string, 8 characters'));
  });
});

describe('the request rules', () => {
  const create = operation('createInvoice');
  it('find nothing in a request serve accepts, nor in an operation without a body', () => {
    expect(requestFindings(create, validPix())).toEqual([]);
    expect(requestFindings(operation('createRefund'), undefined)).toEqual([]);
    expect(requestFindings(operation('getTransaction'), { anything: 1 })).toEqual([]);
  });

  it('name each problem serve would refuse, by pointer, the element as *', () => {
    const body = validPix({ total_price_cents: '19,90', items: [{ name: 'a', quantity: 1.5, unit_price: 1990 }] });
    expect(requestFindings(create, body)).toEqual([
      ...one('request', '/total_price_cents', 'must be a whole number from 1 to 100000000 (cents)', 'string, 5 characters'),
      ...one('request', '/items/*/quantity', 'must be a whole number from 1 to 1000000', 'number with a fraction'),
    ]);
  });

  it('check a create with serve\'s cross-field rules, a CPF\'s digits included, shown by shape only', () => {
    const found = requestFindings(create, validPix({ payer: { name: 'Maria Silva', email: 'maria@example.com', cpf_cnpj: '52998224724' } }));
    expect(found).toEqual(one('request', '/payer/cpf_cnpj', expect.stringMatching(/CPF/) as unknown as string, 'string, 11 digits'));
  });

  it('read no body as {} (a refund of the whole remainder), and a wrong one by its schema', () => {
    expect(requestFindings(operation('activate3ds'), undefined).map((found) => found.path)).toEqual(['/cavv', '/xid', '/eci', '/version', '/referenceid']);
  });
});

describe('the status and header rules', () => {
  it('give the statuses of the operation table and the OpenAPI document, and no other', () => {
    expect(statusFinding(operation('getTransaction'), 404)).toBeUndefined();
    expect(statusFinding(operation('getTransaction'), 429)).toBeUndefined();
    expect(statusFinding(operation('getTransaction'), 201)).toEqual(one('status-code', '', 'one of 200, 400, 401, 404, 429, 500, 503', '201')[0]);
    expect(statusFinding(operation('publicInvoice'), 401)).toEqual(one('status-code', '', 'one of 200, 400, 404, 500, 503', '401')[0]);
  });

  it('name a header beyond HTTP\'s and the contract\'s, its value by shape', () => {
    const headers = { 'content-type': 'application/json', server: 'nginx', 'x-ratelimit-remaining': '59', 'pinvoice-serve': '1', 'x-powered-by': 'PHP/8.2.1', 'cf-ray': ['a', 'b'] };
    expect(headerFindings(headers)).toEqual([
      ...one('extra-header', 'headers.x-powered-by', 'no such header', 'string, 9 characters'),
      ...one('extra-header', 'headers.cf-ray', 'no such header', '2 values'),
    ]);
  });
});
