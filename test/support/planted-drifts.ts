// The proxy's checks' acceptance test, as data: answers (and one request) of the production stand-in
// that differ from the contract in one known way each, with the findings a correct checker reports
// for them, and answers that match the contract exactly and must give no finding at all.
// Serve one with `gateway.plant(item)` and send `item.method item.path` (with `item.body`) through
// the proxy: that request, and only it, gets `item.answer`.
//
// What "matches the contract" means here (contract, "Production through a proxy", "Checks"):
// - the schemas of src/api/schemas.ts (what serve writes), read the way production is asked for them:
//   a member the specification shows for that record must be there (missing-field); members serve
//   adds beyond the specification (pix.expiresAt) and the shapes the specification does not show
//   (card, boleto, a create's answer) are not asked of production, but a member of them that the
//   contract does not list is still unknown-field;
// - timestamps with exactly 3 fraction digits and a Z; enterprise.cnpj formatted; whole cents;
// - an error body the CLI's tolerant reader finds a message in (src/client/read/error-body.ts:
//   ours `{error, message}`, Laravel's `{message, errors}`, `{message}`) for a status the operation
//   gives (src/api/operations.ts); the stand-in's everyday headers (server, date, cache-control,
//   content-type, content-length) are ordinary HTTP and no extra-header.
// Pointers are JSON pointers with array indices as `*`; a header is `headers.<name>`; the body as a
// whole (a status, a page that is not JSON) is ``. Severities are findings.ts's, never restated.
import { FINDING_KINDS, type FindingKind, type Severity } from '../../src/api/findings.js';
import { htmlPage, productionRecord, type Canned } from './production-gateway.js';

type Json = Record<string, any>;

export interface ExpectedFinding {
  kind: FindingKind;
  severity: Severity;
  operation: string;
  direction: 'request' | 'answer';
  path: string;
}

export interface Planted {
  name: string;
  method: string;
  /** the path with its query, exactly as sent */
  path: string;
  /** the request's JSON body, for a POST */
  body?: unknown;
  answer: Canned;
  /** for PLANTED: findings that must be among the entry's (more may be, for the stand-in's own habits); for CLEAN: none */
  expect: ExpectedFinding[];
}

const CREATED = '2026-11-25T23:38:17.443Z';
const UPDATED = '2026-11-25T23:38:17.512Z';
const PAID = '2026-11-25T23:41:02.118Z';

/** Carbon's six fraction digits cut to the contract's three, everywhere in a record. */
function threeDigits(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})\d{3}Z$/, '$1Z');
  if (Array.isArray(value)) return value.map(threeDigits);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, threeDigits(member)]));
  return value;
}

/** The card as the contract (serve) writes it: what a card of the contract's shape holds. */
const contractCard = () => ({
  brand: 'visa', holderName: 'MARIA SILVA', firstDigits: '411111', lastDigits: '1111', expirationMonth: '12', expirationYear: '2030',
  installments: 1, tokenized: false, threeDSecure: 'not_required',
});

/** A stand-in record (production's habits included) with the seed's id and method. */
const standIn = (id: number, method = 'pix', status = 'pending') =>
  productionRecord({ id, amount: 15990, status, method, createdAt: '2026-11-25T23:38:17.443211Z', updatedAt: '2026-11-25T23:38:17.512904Z' });

/** A record exactly as the contract has it: the stand-in's, its extras removed and its times in the contract's form. */
export function contractRecord(id: number, method: 'pix' | 'credit_card' = 'pix'): Json {
  const record = threeDigits(standIn(id, method, method === 'pix' ? 'pending' : 'paid')) as Json;
  delete record.antifraud;
  delete record.gateway_reference;
  delete record.invoice.nsu;
  Object.assign(record, { createdAt: CREATED, updatedAt: UPDATED }, method === 'pix' ? {} : { paidAt: PAID });
  Object.assign(record.invoice, { created_at: CREATED, updated_at: UPDATED });
  if (method === 'credit_card') {
    record.card = contractCard();
    record.invoice.qr_code_pix = ''; // as serve writes it for a method without a pix code
  }
  return record;
}

/** A contract record with `change` applied to it. */
const drifted = (id: number, change: (record: Json) => void): Json => {
  const record = contractRecord(id);
  change(record);
  return record;
};

const ok = (body: object, headers?: Record<string, string>): Canned => ({ status: 200, body, ...(headers ? { headers } : {}) });
const byId = (id: number) => `/api/v2/invoices?id=${id}`;

function finding(kind: FindingKind, path: string, operation = 'searchTransaction', direction: 'request' | 'answer' = 'answer'): ExpectedFinding {
  return { kind, severity: FINDING_KINDS[kind], operation, direction, path };
}

/** A create request the contract accepts. */
export const validCreate = () => ({
  method: 'pix',
  total_price_cents: 1990,
  payer: { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25' },
  items: [{ name: 'Camiseta', quantity: 1, unit_price: 1990 }],
});

const created = contractRecord(5200);
const minimalCreated = { data: { invoice_id: created.secureId, qr_code_pix: created.pix.qrCode, status: 'pending' } };

const STAND_IN_TIMES = ['/createdAt', '/updatedAt', '/client/created_at', '/client/updated_at', '/customer/createdAt', '/enterprise/create_at', '/enterprise/update_at', '/invoice/created_at', '/invoice/updated_at'];

export const PLANTED: Planted[] = [
  {
    name: 'unknown-field: members the contract does not list, at the top and in every item',
    method: 'GET', path: byId(5001),
    answer: ok(drifted(5001, (r) => Object.assign(r, { risk_score: 12 }, { items: [{ ...r.items[0], sku: 'SKU-1' }] }))),
    expect: [finding('unknown-field', '/risk_score'), finding('unknown-field', '/items/*/sku')],
  },
  {
    name: "extra-header: a header of production's own",
    method: 'GET', path: byId(5002),
    answer: ok(contractRecord(5002), { 'x-gateway-trace-id': 'a1b2c3d4e5f6' }),
    expect: [finding('extra-header', 'headers.x-gateway-trace-id')],
  },
  {
    name: 'new-value: a status we do not know, at the top and in invoice',
    method: 'GET', path: byId(5003),
    answer: ok(drifted(5003, (r) => { r.status = 'in_analysis'; r.invoice.status = 'in_analysis'; })),
    expect: [finding('new-value', '/status'), finding('new-value', '/invoice/status')],
  },
  {
    name: 'new-value: a payment method we do not know',
    method: 'GET', path: `/api/v2/invoices/5004`,
    answer: ok(drifted(5004, (r) => { r.paymentMethod = 'picpay'; r.invoice.payment_method = 'picpay'; })),
    expect: [finding('new-value', '/paymentMethod', 'getTransaction'), finding('new-value', '/invoice/payment_method', 'getTransaction')],
  },
  {
    name: 'new-value: a document type we do not know',
    method: 'GET', path: byId(5005),
    answer: ok(drifted(5005, (r) => { r.customer.document.type = 'passport'; })),
    expect: [finding('new-value', '/customer/document/type')],
  },
  {
    name: 'format: a timestamp with six fraction digits',
    method: 'GET', path: byId(5006),
    answer: ok(drifted(5006, (r) => { r.createdAt = '2026-11-25T23:38:17.443211Z'; })),
    expect: [finding('format', '/createdAt')],
  },
  {
    name: 'format: a timestamp with an offset instead of Z',
    method: 'GET', path: byId(5007),
    answer: ok(drifted(5007, (r) => { r.updatedAt = '2026-11-25T20:38:17.512-03:00'; })),
    expect: [finding('format', '/updatedAt')],
  },
  {
    name: 'format: an unformatted CNPJ',
    method: 'GET', path: byId(5008),
    answer: ok(drifted(5008, (r) => { r.enterprise.cnpj = '11222333000181'; })),
    expect: [finding('format', '/enterprise/cnpj')],
  },
  {
    name: 'format: cents with a fraction',
    method: 'GET', path: byId(5009),
    answer: ok(drifted(5009, (r) => { r.amount = 15990.5; })),
    expect: [finding('format', '/amount')],
  },
  {
    name: 'null: null where the contract has a value, at the top and in every item',
    method: 'GET', path: byId(5010),
    answer: ok(drifted(5010, (r) => { r.customer.phone = null; r.items[0].title = null; })),
    expect: [finding('null', '/customer/phone'), finding('null', '/items/*/title')],
  },
  {
    name: 'type: numbers and booleans as strings',
    method: 'GET', path: byId(5011),
    answer: ok(drifted(5011, (r) => { r.amount = '15990'; r.traceable = 'false'; r.items[0].quantity = '1'; })),
    expect: [finding('type', '/amount'), finding('type', '/traceable'), finding('type', '/items/*/quantity')],
  },
  {
    name: 'missing-field: members the specification shows, absent',
    method: 'GET', path: byId(5012),
    answer: ok(drifted(5012, (r) => { delete r.refundedAmount; delete r.invoice.token_checkout; delete r.items[0].tangible; })),
    expect: [finding('missing-field', '/refundedAmount'), finding('missing-field', '/invoice/token_checkout'), finding('missing-field', '/items/*/tangible')],
  },
  {
    name: 'status-code: a status the operation does not give',
    method: 'GET', path: byId(5013),
    answer: { status: 402, body: { message: 'Payment Required.' } },
    expect: [finding('status-code', '')],
  },
  {
    name: 'error-shape: an error body with no message to read',
    method: 'GET', path: byId(5014),
    answer: { status: 404, body: { status: 'fail', code: 40401 } },
    expect: [finding('error-shape', '')],
  },
  {
    name: 'not-json: a maintenance page answered 200',
    method: 'GET', path: byId(5015),
    answer: { status: 200, body: '<!doctype html><html><body><h1>Em manutenção</h1></body></html>\n' },
    expect: [finding('not-json', '')],
  },
  {
    name: "not-json: the load balancer's HTML 502",
    method: 'GET', path: byId(5016),
    answer: { status: 502, body: htmlPage(502) },
    expect: [finding('not-json', '')],
  },
  {
    name: 'request: a create the contract refuses (amount as a string, no e-mail)',
    method: 'POST', path: '/api/v2/invoices',
    body: { ...validCreate(), total_price_cents: '1990', payer: { name: 'Fulano de Tal', cpf_cnpj: '529.982.247-25' } },
    answer: ok(minimalCreated),
    expect: [finding('request', '/total_price_cents', 'createInvoice', 'request'), finding('request', '/payer/email', 'createInvoice', 'request')],
  },
  // The stand-in's own records, as addRecord() and a lookup answer them: production's habits are drifts too.
  {
    name: "the stand-in's pix record: Carbon's six digits, antifraud, gateway_reference, invoice.nsu",
    method: 'GET', path: byId(5018),
    answer: ok(standIn(5018)),
    expect: [...STAND_IN_TIMES.map((path) => finding('format', path)), ...['/antifraud', '/gateway_reference', '/invoice/nsu'].map((path) => finding('unknown-field', path))],
  },
  {
    name: "the stand-in's card record: a card of another shape",
    method: 'GET', path: byId(5019),
    answer: ok(standIn(5019, 'credit_card', 'paid')),
    expect: [finding('format', '/paidAt'), ...['/card/last_four', '/card/first_six', '/card/holder_name', '/card/exp'].map((path) => finding('unknown-field', path))],
  },
  {
    name: "the stand-in's boleto record: a boleto of another shape",
    method: 'GET', path: byId(5020),
    answer: ok(standIn(5020, 'boleto')),
    expect: ['/boleto/url', '/boleto/line', '/boleto/due_date'].map((path) => finding('unknown-field', path)),
  },
];

export const CLEAN: Planted[] = [
  {
    name: 'a pix record with every member the specification shows (no pix.expiresAt, which it does not)',
    method: 'GET', path: byId(5101), answer: ok(contractRecord(5101)), expect: [],
  },
  {
    name: 'a pix record as serve writes it, pix.expiresAt too, looked up by path',
    method: 'GET', path: '/api/v2/invoices/5102',
    answer: ok(drifted(5102, (r) => { r.pix.expiresAt = '2026-11-26T23:38:17.443Z'; })), expect: [],
  },
  {
    name: "a paid card record with the contract's card",
    method: 'GET', path: byId(5103), answer: ok(contractRecord(5103, 'credit_card')), expect: [],
  },
  {
    name: 'a create answered {data: {invoice_id, qr_code_pix, status}}',
    method: 'POST', path: '/api/v2/invoices', body: validCreate(), answer: ok(minimalCreated), expect: [],
  },
  {
    name: "a create refused with Laravel's 422 {message, errors}",
    method: 'POST', path: '/api/v2/invoices', body: validCreate(),
    answer: { status: 422, body: { message: 'The given data was invalid.', errors: { 'payer.cpf_cnpj': ['The payer.cpf_cnpj is invalid.'] } } }, expect: [],
  },
  {
    name: 'a 404 in our own shape {error, message}',
    method: 'GET', path: byId(5106), answer: { status: 404, body: { error: 'not_found', message: 'Transaction not found.' } }, expect: [],
  },
  {
    name: "Laravel's 401 {message}",
    method: 'GET', path: byId(5107), answer: { status: 401, body: { message: 'Unauthenticated.' } }, expect: [],
  },
];
