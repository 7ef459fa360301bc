// A stand-in for the REAL production gateway (not our `pinvoice serve`), for running the built CLI
// against: built only from the interface specification's field list, with production's habits.
// It is a PHP/Laravel back end behind nginx, so: six fractional digits on every timestamp (Carbon's
// JSON form), "Y-m-d H:i:s" on Company Infos, fields nobody listed, no pix.expiresAt, card/boleto/
// timeline/refunds of shapes of its own, `{"message": …}` errors and Laravel's 422 shape, HTML 404s
// for routes it does not have, and a create answer that may hold only the invoice_id.
// Tests steer it with once()/always() (a 429, a silent socket, an HTML 502) and mutate records
// between polls through record(id) or setStatus().
// For a proxy in front of it, an answer can also be sent byte for byte (`raw`), gzipped (`gzip`: only
// when the request's Accept-Encoding allows it, as nginx does), in separate chunks (`chunks`), cut
// short (`cut`: a content-length larger than what is written, then the socket destroyed) or late
// (`delayMs`); `answers` keeps every answer's status, headers and body bytes as sent on the wire, and
// `requests` every request's body bytes, to compare with what a client on the far side of the proxy
// saw. plant(item) answers the next request of exactly that method and path-with-query with the
// item's answer (the drifts of test/support/planted-drifts.ts).
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { barcodeToDigitableLine, buildBarcode } from '../../src/domain/boleto.js';
import { buildPixCode } from '../../src/domain/pix.js';

export interface Canned {
  status: number;
  headers?: Record<string, string>;
  body?: string | object;
  /** never answer (keep the socket open) */
  silent?: boolean;
  /** the body's bytes exactly as they are (body is then ignored; no content-type unless headers give one) */
  raw?: Buffer;
  /** gzip the body (content-encoding: gzip) when the request's Accept-Encoding allows it */
  gzip?: boolean;
  /** the body in pieces, each written on its own a few ms apart (chunked transfer; body and raw are ignored) */
  chunks?: Array<string | Buffer>;
  /** send the headers with a content-length larger than the body, write half of it, and destroy the socket */
  cut?: boolean;
  /** wait this long before answering */
  delayMs?: number;
}

/** An answer as it went out: the body as the bytes on the wire (gzipped, if it was; only what was written, if cut). */
export interface Sent {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A request answered by plant(): exactly this method and path with query. */
export interface Plant {
  method: string;
  path: string;
  answer: Canned;
}

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** the body's bytes as received */
  bytes: Buffer;
}

export interface ProductionGateway {
  /** base URL without a trailing slash and without /api/v2 */
  url: string;
  /** the one bearer token it accepts */
  token: string;
  /** every request received, in order (canned answers included) */
  requests: Recorded[];
  /** every answer sent, in order */
  answers: Sent[];
  /** how many requests had a path (without the query) matching this, by any method */
  countRequests(path: RegExp): number;
  /** stores a record (Search Transaction's shape) and returns it; overrides are deep-merged over the default */
  addRecord(overrides?: Record<string, unknown>): Record<string, any>;
  /** the stored record by integer id, to mutate between polls */
  record(id: number): Record<string, any> | undefined;
  /** the next request whose "METHOD path" (path without query) matches is answered with this instead (FIFO; each used once) */
  once(method: string, path: RegExp, answer: Canned): void;
  /** answer every request with this until cleared (undefined clears) */
  always(answer: Canned | undefined): void;
  /** the next request of exactly item.method and item.path (with its query) is answered item.answer (FIFO; each used once; before once()) */
  plant(item: Plant): void;
  /** 'minimal' = {"data":{invoice_id, qr_code_pix, status}}; 'full' = {"data": record + invoice_id + qr_code_pix}; 'bare' = the record */
  createAnswer: 'minimal' | 'full' | 'bare';
  close(): Promise<void>;
}

type Json = Record<string, any>;

// ---- production's shapes -------------------------------------------------------------------

/** Carbon's JSON form: six fractional digits, always (a stored time without them reads ".000000Z"). */
function microTime(date?: Date): string {
  const micros = date ? 0 : Number(process.hrtime.bigint() % 1000n);
  return `${(date ?? new Date()).toISOString().slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
}

/** PHP's "Y-m-d H:i:s", which the company endpoint writes (UTC). */
function phpTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

// Fixed times for addRecord(), so a test can expect what the CLI prints.
const CREATED = '2026-11-25T23:38:17.443211Z';
const UPDATED = '2026-11-25T23:38:17.512904Z';
const PAID = '2026-11-25T23:41:02.118734Z';
const MERCHANT = { name: 'Loja Exemplo', city: 'SAO PAULO' };
const FEES: Record<string, [spread: number, fixed: number]> = { pix: [0.99, 0], credit_card: [3.99, 39], boleto: [0, 349] };
const PAID_LIKE = new Set(['paid', 'refunded', 'chargedback']);

/** A card as production writes it (not our holderName/firstDigits/lastDigits). */
export function cardOfAnotherShape(): Json {
  return { brand: 'visa', last_four: '1111', first_six: '411111', holder_name: 'MARIA SILVA', exp: '12/2030' };
}

/** A boleto as production writes it: snake_case, a PDF url, barcode and line with correct check digits. */
export function boletoOfAnotherShape(amountCents = 15990): Json {
  const dueDate = '2026-12-01';
  const barcode = buildBarcode({ bankCode: '341', amountCents, dueDate, freeField: '1090000424200123456789012' });
  return { url: 'https://boletos.gateway-prod.example/b/9f8e7d/boleto.pdf', barcode, line: barcodeToDigitableLine(barcode), due_date: dueDate };
}

/** A timeline as production writes it: its own keys, mixed timestamp forms, a status we do not have. */
export function productionTimeline(): Json[] {
  return [
    { status: 'pending', created_at: '2026-11-25 23:38:17' },
    { status: 'in_analysis', created_at: '2026-11-25T23:40:00.123456-03:00', description: 'antifraud review' },
  ];
}

export function productionRefunds(): Json[] {
  return [{ id: 9, amount: 500, created_at: '2026-11-26T01:00:00.000001Z', status: 'done' }];
}

/** Sets status (top level and invoice), updatedAt and paidAt together, as production would. */
export function setStatus(record: Json, status: string): Json {
  const now = microTime();
  record.status = status;
  record.updatedAt = now;
  if (PAID_LIKE.has(status)) record.paidAt ??= now;
  if (record.invoice) Object.assign(record.invoice, { status, updated_at: now });
  return record;
}

function enterprise(timestamp: (date: Date) => string): Json {
  return {
    id: 17,
    cnpj: '11.222.333/0001-81',
    company_type: 'LTDA',
    corporate_reason: 'Loja Exemplo Comercio Digital LTDA',
    fantasy_name: MERCHANT.name,
    url_website: 'https://loja.example.com.br',
    address: 'Avenida Paulista',
    address_city: 'São Paulo',
    address_number: '1000',
    address_postal_code: '01310-100',
    address_province: 'Bela Vista',
    address_state: 'SP',
    bank_account: '123456',
    bank_agency: '0001',
    bank_digit: '7',
    bank_name: 'Banco Exemplo S.A.',
    bank_type: 'corrente',
    amount_invoice_total: 1250000,
    amount_invoices_competicion: 98000,
    balance_bank_slip: 0,
    balance_card: 45000,
    balance_pix: 120500,
    blocked_bank_slip: false,
    blocked_card: false,
    blocked_pix: false,
    blocked_processing: false,
    blocked_sake: false,
    blocked_system: false,
    is_custom: false,
    create_at: timestamp(new Date('2025-01-10T13:02:44Z')),
    update_at: timestamp(new Date('2026-11-25T23:38:17Z')),
  };
}

export interface Seed {
  id: number;
  amount: number;
  status: string;
  method: string;
  createdAt: string;
  updatedAt: string;
}

/** Exactly the specification's fields (plus production's extras), consistent for the seed's amount, status and method. */
export function productionRecord({ id, amount, status, method, createdAt, updatedAt }: Seed): Json {
  const secureId = `INV-${Math.floor(Date.parse(createdAt) / 1000)}-${id}`;
  const digest = createHash('sha256').update(secureId).digest('hex');
  const qrCode = method === 'pix' ? buildPixCode({ merchantName: MERCHANT.name, merchantCity: MERCHANT.city, amountCents: amount, url: `pix.gateway-prod.example/qr/v2/${digest.slice(0, 32)}` }) : null;
  const [spread, fixed] = FEES[method] ?? [0, 0];
  const estimatedFee = Math.round((amount * spread) / 100) + fixed;
  const paidAt = PAID_LIKE.has(status) ? PAID : null;
  return {
    id,
    secureId,
    companyId: 17,
    amount,
    installments: 1,
    status,
    paymentMethod: method,
    createdAt,
    updatedAt,
    paidAt,
    refundedAmount: status === 'refunded' ? amount : 0,
    refusedReason: null,
    postbackUrl: '',
    traceable: false,
    externalRef: null,
    metadata: null,
    ip: null,
    delivery: null,
    shipping: null,
    boleto: method === 'boleto' ? boletoOfAnotherShape(amount) : null,
    card: method === 'credit_card' ? cardOfAnotherShape() : null,
    card_associate: null,
    pix: qrCode === null ? null : { qrCode },
    client: { id: 9001, name: 'Maria Silva', cpf_cnpj: '52998224725', email: 'maria.silva@example.com', phone: '11987654321', created_at: '2025-03-14T12:00:05.000000Z', updated_at: '2025-03-14T12:00:05.000000Z' },
    customer: {
      id: 7001,
      name: 'Maria Silva',
      email: 'maria.silva@example.com',
      phone: '11987654321',
      birthdate: null,
      externalRef: null,
      createdAt: '2025-03-14T12:00:05.000000Z',
      document: { number: '52998224725', type: 'cpf' },
      address: { city: 'São Paulo', complement: null, country: 'BR', neighborhood: 'Bela Vista', state: 'SP', street: 'Avenida Paulista', streetNumber: '1578', zipCode: '01310200' },
    },
    enterprise: enterprise(microTime),
    fee: { estimatedFee, fixedAmount: fixed, netAmount: amount - estimatedFee, spreadPercentage: spread },
    invoice: {
      id,
      invoice_id: secureId,
      invoice_id_external: null,
      invoice_id_external2: null,
      invoice_id_external3: null,
      status,
      payment_method: method,
      is_pix: method === 'pix',
      is_bank_slip: method === 'boleto',
      is_credit_card: method === 'credit_card',
      is_anticipated: false,
      anticipation_approved: false,
      is_indication_tax: false,
      postback_url: '',
      qr_code_pix: qrCode,
      token_checkout: digest.slice(32, 64),
      retention_tax: 0,
      value_adq: Math.round(estimatedFee * 0.4),
      value_platform: estimatedFee,
      value_indication: 0,
      value_seller: amount - estimatedFee,
      value_total: amount,
      created_at: createdAt,
      updated_at: updatedAt,
      nsu: String(id % 1_000_000).padStart(6, '0'),
    },
    items: [{ title: 'Assinatura mensal', quantity: 1, unitPrice: amount, tangible: false, externalRef: null }],
    financial_movements: [],
    refunds: [],
    splits: [],
    timeline: [],
    antifraud: { score: 12, provider: 'clearsale' },
    gateway_reference: 'gw_9f8e7d',
  };
}

const isPlain = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Objects merge key by key; anything else (arrays, null) replaces. */
function deepMerge(base: Json, over: Json): Json {
  for (const [key, value] of Object.entries(over)) base[key] = isPlain(base[key]) && isPlain(value) ? deepMerge(base[key], value) : structuredClone(value);
  return base;
}

/** An nginx-style error page, for a canned proxy failure or a route production does not have. */
export function htmlPage(status: number, reason = status === 404 ? 'Not Found' : status === 502 ? 'Bad Gateway' : 'Error'): string {
  return `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

// ---- sending an answer ----------------------------------------------------------------------

const CHUNK_GAP_MS = 5;

/** The body as bytes, and the content-type it gets unless the answer's headers name one (none for raw bytes). */
function bodyOf(answer: Canned): { bytes: Buffer; type?: string } {
  if (answer.chunks) return { bytes: Buffer.concat(answer.chunks.map((chunk) => Buffer.from(chunk))), type: 'application/json' };
  if (answer.raw) return { bytes: answer.raw };
  const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  const type = typeof answer.body === 'object' ? 'application/json' : text.trimStart().startsWith('<') ? 'text/html; charset=UTF-8' : 'text/plain; charset=UTF-8';
  return { bytes: Buffer.from(text), type };
}

/**
 * Writes the answer and resolves with what went on the wire (undefined for a silent one). Every
 * header is set here, Date included, so that `Sent.headers` is all the headers but Node's own
 * connection, keep-alive and transfer-encoding (hop-by-hop, which a proxy drops).
 */
async function writeAnswer(request: IncomingMessage, response: ServerResponse, answer: Canned): Promise<Sent | undefined> {
  if (answer.silent) return undefined;
  if (answer.delayMs) await sleep(answer.delayMs);
  const { bytes, type } = bodyOf(answer);
  const zipped = answer.gzip === true && /\bgzip\b/i.test(String(request.headers['accept-encoding'] ?? ''));
  const body = zipped ? gzipSync(bytes) : bytes;
  const headers: Record<string, string> = { server: 'nginx', date: new Date().toUTCString(), 'cache-control': 'no-cache, private', ...(type ? { 'content-type': type } : {}) };
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
  if (zipped) Object.assign(headers, { 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
  if (!answer.chunks) headers['content-length'] = String(answer.cut ? body.length + 1000 : body.length);
  response.sendDate = false;
  response.writeHead(answer.status, headers);
  const sent = (written: Buffer): Sent => ({ url: request.url ?? '/', status: answer.status, headers, body: written });
  if (answer.cut) {
    const half = body.subarray(0, Math.ceil(body.length / 2));
    response.write(half);
    await sleep(CHUNK_GAP_MS);
    response.socket?.destroy();
    return sent(half);
  }
  if (answer.chunks) {
    // gzipped, the compressed bytes are cut into as many pieces as there were chunks
    const size = Math.ceil(body.length / answer.chunks.length);
    const pieces = zipped ? answer.chunks.map((_, i) => body.subarray(i * size, (i + 1) * size)) : answer.chunks.map((chunk) => Buffer.from(chunk));
    for (const piece of pieces) {
      response.write(piece);
      await sleep(CHUNK_GAP_MS);
    }
  }
  response.end(answer.chunks ? undefined : body);
  return sent(body);
}

// ---- the server ----------------------------------------------------------------------------

const ROUTES: Array<{ path: RegExp; methods: string[] }> = [
  { path: /^\/api\/v2\/invoices\/?$/, methods: ['GET', 'POST'] },
  { path: /^\/api\/v2\/invoices\/[^/]+\/?$/, methods: ['GET'] },
  { path: /^\/api\/v2\/invoices\/[^/]+\/(refund|3ds)\/?$/, methods: ['POST'] },
  { path: /^\/api\/v2\/company\/?$/, methods: ['GET'] },
];
const METHODS = ['pix', 'credit_card', 'boleto'];

/** Laravel's 422: one entry per failing field, each an array of messages. */
function invalid(errors: Record<string, string[]>): Canned {
  return { status: 422, body: { message: 'The given data was invalid.', errors } };
}

function validateCreate(body: Json): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const at = (path: string) => path.split('.').reduce<any>((value, key) => (isPlain(value) ? value[key] : undefined), body);
  for (const field of ['method', 'total_price_cents', 'payer.name', 'payer.email', 'payer.cpf_cnpj']) {
    const value = at(field);
    if (value === undefined || value === null || value === '') errors[field] = [`The ${field} field is required.`];
  }
  if (!errors.method && !METHODS.includes(String(body.method))) errors.method = ['The selected method is invalid.'];
  if (!errors.total_price_cents && !Number.isInteger(body.total_price_cents)) errors.total_price_cents = ['The total_price_cents must be an integer.'];
  if (!errors['payer.email'] && !/^[^@\s]+@[^@\s]+$/.test(String(at('payer.email')))) errors['payer.email'] = ['The payer.email must be a valid email address.'];
  return errors;
}

export async function startProductionGateway(options: { token?: string; tls?: { key: string; cert: string }; host?: string } = {}): Promise<ProductionGateway> {
  const token = options.token ?? 'prod_live_3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e';
  const records = new Map<number, Json>();
  const queue: Array<{ method: string; path: RegExp; answer: Canned }> = [];
  const plants: Plant[] = [];
  let standing: Canned | undefined;
  let nextId = 4242;
  let refundIds = 1;

  const find = (ref: string) => (/^\d+$/.test(ref) ? records.get(Number(ref)) : [...records.values()].find((record) => record.secureId === ref));
  const notFound: Canned = { status: 404, body: { message: 'Transaction not found.' } };

  const store = (overrides: Json, createdAt = CREATED, updatedAt = UPDATED) => {
    const seed: Seed = {
      id: nextId++,
      amount: Number.isInteger(overrides.amount) ? (overrides.amount as number) : 15990,
      status: typeof overrides.status === 'string' ? overrides.status : 'pending',
      method: typeof overrides.paymentMethod === 'string' ? overrides.paymentMethod : 'pix',
      createdAt,
      updatedAt,
    };
    const record = deepMerge(productionRecord(seed), overrides);
    records.set(record.id, record);
    return record;
  };

  const create = (body: Json): Canned => {
    const errors = validateCreate(body);
    if (Object.keys(errors).length) return invalid(errors);
    const method = body.method as string;
    const payer = body.payer as Json;
    const card = isPlain(body.card) ? body.card : {};
    const now = microTime();
    const document = String(payer.cpf_cnpj).replace(/\D/g, '');
    const record = store({ amount: body.total_price_cents, paymentMethod: method, status: method === 'credit_card' ? 'paid' : 'pending' }, now, now);
    if (record.paidAt) record.paidAt = now;
    const items = Array.isArray(body.items) ? body.items : [];
    const tangible = ['1', 'true', 'yes', 'sim'].includes(String(body.product_fisical ?? '').toLowerCase());
    deepMerge(record, {
      postbackUrl: body.postback_url ?? '',
      invoice: { postback_url: body.postback_url ?? '' },
      ip: body.ip_payer ?? null,
      installments: Number.isInteger(card.installment) ? card.installment : 1,
      client: { name: payer.name, email: payer.email, cpf_cnpj: document, phone: payer.phone ?? '', created_at: now, updated_at: now },
      customer: { name: payer.name, email: payer.email, phone: payer.phone ?? '', createdAt: now, document: { number: document, type: document.length > 11 ? 'cnpj' : 'cpf' } },
    });
    record.items = items.map((item: Json) => ({ title: item.name, quantity: item.quantity, unitPrice: item.unit_price, tangible, externalRef: null }));
    if (method === 'credit_card' && typeof card.number === 'string') {
      const digits = card.number.replace(/\D/g, '');
      Object.assign(record.card, { first_six: digits.slice(0, 6), last_four: digits.slice(-4), holder_name: `${card.first_name ?? ''} ${card.last_name ?? ''}`.trim().toUpperCase() });
    }
    const qr_code_pix = record.pix?.qrCode ?? null;
    if (gateway.createAnswer === 'bare') return { status: 200, body: record };
    if (gateway.createAnswer === 'full') return { status: 200, body: { data: { ...record, invoice_id: record.secureId, qr_code_pix } } };
    return { status: 200, body: { data: { invoice_id: record.secureId, qr_code_pix, status: record.status } } };
  };

  const refund = (record: Json, body: Json): Canned => {
    if (record.status !== 'paid') return { status: 422, body: { message: 'This transaction cannot be refunded.' } };
    const remainder = record.amount - record.refundedAmount;
    const amount = body.amount_cents ?? remainder;
    if (!Number.isInteger(amount) || amount < 1) return invalid({ amount_cents: ['The amount_cents must be an integer of at least 1.'] });
    if (amount > remainder) return invalid({ amount_cents: [`The amount_cents may not be greater than ${remainder}.`] });
    record.refundedAmount += amount;
    record.refunds.push({ id: refundIds++, amount, created_at: microTime(), status: 'done', ...(body.reason ? { reason: body.reason } : {}) });
    setStatus(record, record.refundedAmount >= record.amount ? 'refunded' : 'paid');
    return { status: 200, body: { data: record } };
  };

  const route = (method: string, path: string, query: URLSearchParams, headers: IncomingHttpHeaders, body: Json): Canned => {
    const known = ROUTES.find((candidate) => candidate.path.test(path));
    if (!known) return { status: 404, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: htmlPage(404) };
    // Laravel matches the route (and its method) before any middleware, so a 405 needs no token.
    if (!known.methods.includes(method)) return { status: 405, body: { message: `The ${method} method is not supported for this route.` } };
    if (headers.authorization !== `Bearer ${token}`) return { status: 401, body: { message: 'Unauthenticated.' } };
    const [, , , resource, ref, action] = path.replace(/\/$/, '').split('/');
    if (resource === 'company') return { status: 200, body: { data: { ...enterprise(phpTime), plan: { name: 'pro', since: '2025-01-10' } } } };
    if (method === 'POST' && ref === undefined) return create(body);
    let wanted = query.get('id') ?? '';
    try {
      wanted = ref === undefined ? wanted : decodeURIComponent(ref);
    } catch {
      return notFound;
    }
    const record = find(wanted);
    if (!record) return notFound;
    if (action === 'refund') return refund(record, body);
    if (action === '3ds') return { status: 200, body: { data: setStatus(record, 'paid') } };
    return { status: 200, body: record };
  };

  const send = (request: IncomingMessage, response: ServerResponse, answer: Canned) =>
    void writeAnswer(request, response, answer).then((sent) => sent && gateway.answers.push(sent));

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = (request.method ?? 'GET').toUpperCase();
      const bytes = Buffer.concat(chunks);
      const raw = bytes.toString('utf8');
      gateway.requests.push({ method, url: request.url ?? '/', headers: request.headers, body: raw, bytes });
      const url = new URL(request.url ?? '/', 'http://gateway');
      const planted = plants.findIndex((entry) => entry.method.toUpperCase() === method && entry.path === request.url);
      if (planted >= 0) return send(request, response, plants.splice(planted, 1)[0]!.answer);
      const queued = queue.findIndex((entry) => entry.method.toUpperCase() === method && entry.path.test(url.pathname));
      if (queued >= 0) return send(request, response, queue.splice(queued, 1)[0]!.answer);
      if (standing) return send(request, response, standing);
      let body: Json = {};
      try {
        const parsed: unknown = JSON.parse(raw);
        if (isPlain(parsed)) body = parsed;
      } catch {
        // Laravel reads a body it cannot parse as no input at all: validation then names what is missing.
      }
      send(request, response, route(method, url.pathname, url.searchParams, request.headers, body));
    });
  };

  const make = (): Server => (options.tls ? createTlsServer(options.tls, handle) : createServer(handle));
  const servers = [make()];
  const listenHost = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => servers[0]!.once('error', reject).listen(0, listenHost, resolve));
  const port = (servers[0]!.address() as AddressInfo).port;
  // The TLS leaves name "localhost", which may resolve to ::1 first: listen there too when we can.
  const urlHost = options.host ?? (options.tls ? 'localhost' : '127.0.0.1');
  if (options.tls && !options.host) {
    const v6 = make();
    const listening = await new Promise<boolean>((resolve) => v6.once('error', () => resolve(false)).listen(port, '::1', () => resolve(true)));
    if (listening) servers.push(v6);
  }

  const gateway: ProductionGateway = {
    url: `${options.tls ? 'https' : 'http'}://${urlHost.includes(':') ? `[${urlHost}]` : urlHost}:${port}`,
    token,
    requests: [],
    answers: [],
    countRequests: (path) => gateway.requests.filter((request) => path.test(new URL(request.url, 'http://gateway').pathname)).length,
    createAnswer: 'minimal',
    addRecord: (overrides = {}) => store(overrides),
    record: (id) => records.get(id),
    once: (method, path, answer) => void queue.push({ method, path, answer }),
    always: (answer) => void (standing = answer),
    plant: (item) => void plants.push(item),
    async close() {
      await Promise.all(
        servers.map((server) => {
          server.closeAllConnections();
          return new Promise((resolve) => server.close(resolve));
        }),
      );
    },
  };
  return gateway;
}
