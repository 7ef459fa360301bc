// One exchange checked as the proxy checks it, over real HTTP: what our own server answers gives no
// finding at all ("a record that matches the contract gives no finding"); what the production stand-in
// answers gives exactly its drifts, each by kind, severity and pointer, and no `seen` holds a person's
// data, a document, card digits, an id or a pix code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/api/findings.js';
import { checkExchange, type Exchange } from '../../src/proxy/check.js';
import { boletoCharge, CARDS, cardCharge, SAMPLE_3DS } from '../support/charges.js';
import { htmlPage, productionRefunds, productionTimeline, startProductionGateway, type ProductionGateway } from '../support/production-gateway.js';
import { startTestServer, validPix, type TestServer } from '../support/server.js';

/** Sends one request and returns the exchange as the proxy sees it, and its findings. */
async function exchange(base: string, token: string | null, method: string, path: string, body?: unknown): Promise<{ exchange: Exchange; findings: Finding[]; answer: any }> {
  const url = new URL(path, base);
  const requestBody = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) };
  const response = await fetch(url, { method, headers, body: requestBody ?? undefined });
  const answerBody = await response.text();
  const answerHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => { answerHeaders[name] = value; });
  const seen: Exchange = { method, path: url.pathname, query: url.searchParams, requestBody, status: response.status, answerHeaders, answerBody };
  let answer: unknown;
  try { answer = JSON.parse(answerBody); } catch { answer = undefined; }
  return { exchange: seen, findings: checkExchange(seen), answer };
}

const brief = (findings: Finding[]) => findings.map((f) => `${f.severity} ${f.kind} ${f.direction} ${f.path}`);

describe('what our own server answers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  const call = (method: string, path: string, body?: unknown, token: string | null = server.token) => exchange(server.url, token, method, path, body);

  it.each([
    ['a pix charge', validPix()],
    ['a paid card charge', cardCharge(CARDS.approved)],
    ['a card charge waiting for 3-D Secure', cardCharge(CARDS.requires3ds)],
    ['a refused card charge', cardCharge(CARDS.declined)],
    ['a boleto charge', boletoCharge()],
  ])('gives no finding for %s: its create answer, its record by ?id= and by path, and the list', async (_, body) => {
    const created = await call('POST', '/api/v2/invoices', body);
    expect(created.exchange.status).toBe(200);
    expect(created.findings).toEqual([]);
    const { id } = created.answer.data;
    for (const path of [`/api/v2/invoices?id=${id}`, `/api/v2/invoices/${id}`, '/api/v2/invoices?limit=5']) expect((await call('GET', path)).findings).toEqual([]);
  });

  it('gives no finding for a refund, a 3-D Secure completion, Company Infos, the public view, nor for its error bodies', async () => {
    const paid = await call('POST', '/api/v2/invoices', validPix());
    const id = paid.answer.data.id;
    expect((await call('POST', `/api/v2/sandbox/invoices/${id}/pay`)).findings).toEqual([]);
    expect((await call('POST', `/api/v2/invoices/${id}/refund`, { amount_cents: 500, reason: 'troca' })).findings).toEqual([]);
    const waiting = await call('POST', '/api/v2/invoices', cardCharge(CARDS.requires3ds));
    expect((await call('POST', `/api/v2/invoices/${waiting.answer.data.id}/3ds`, SAMPLE_3DS)).findings).toEqual([]);
    expect((await call('GET', '/api/v2/company')).findings).toEqual([]);
    expect((await call('GET', `/api/v2/public/invoices/${paid.answer.data.invoice.token_checkout}`)).findings).toEqual([]);
    expect((await call('GET', '/api/v2/invoices/999999')).findings).toEqual([]);
    expect((await call('GET', '/api/v2/company', undefined, 'wrong')).findings).toEqual([]);
    expect((await call('POST', `/api/v2/invoices/${id}/refund`, { amount_cents: 999999 })).findings).toEqual([]);
  });

  it('names the request serve refused, by pointer, and finds nothing in serve\'s 422 answer', async () => {
    const refused = await call('POST', '/api/v2/invoices', validPix({ total_price_cents: 0 }));
    expect(refused.exchange.status).toBe(422);
    expect(refused.findings).toEqual([{ severity: 'error', kind: 'request', operation: 'createInvoice', direction: 'request', status: 422, path: '/total_price_cents', expected: 'must be at least 1', seen: 'integer' }]);
    const broken = await call('POST', '/api/v2/invoices', '{"method": "pix",');
    expect(broken.exchange.status).toBe(400);
    expect(brief(broken.findings)).toEqual(['error request request ']);
  });
});

describe('what the production stand-in answers', () => {
  let gateway: ProductionGateway;
  beforeAll(async () => {
    gateway = await startProductionGateway();
  });
  afterAll(() => gateway.close());
  const call = (method: string, path: string, body?: unknown) => exchange(gateway.url, gateway.token, method, path, body);
  const SIX = 'timestamp, 6 fraction digits';

  it('a pix record: six-digit times as format, production\'s extra members as unknown, nothing missing (no pix.expiresAt asked)', async () => {
    const record = gateway.addRecord();
    const { findings } = await call('GET', `/api/v2/invoices?id=${record.id}`);
    expect(findings.filter((f) => f.kind === 'format').map((f) => f.path)).toEqual([
      '/createdAt', '/updatedAt', '/client/created_at', '/client/updated_at', '/customer/createdAt',
      '/enterprise/create_at', '/enterprise/update_at', '/invoice/created_at', '/invoice/updated_at',
    ]);
    expect(findings.find((f) => f.path === '/client/created_at')).toEqual({
      severity: 'warning', kind: 'format', operation: 'searchTransaction', direction: 'answer', status: 200,
      path: '/client/created_at', expected: 'timestamp, 3 fraction digits, Z', seen: SIX,
    });
    expect(brief(findings.filter((f) => f.kind !== 'format'))).toEqual([
      'info unknown-field answer /invoice/nsu', 'info unknown-field answer /antifraud', 'info unknown-field answer /gateway_reference',
    ]);
  });

  it('a card record with production\'s timeline and refunds: unknown card members, a new status, no missing-field', async () => {
    const record = gateway.addRecord({ paymentMethod: 'credit_card', status: 'paid', timeline: productionTimeline(), refunds: productionRefunds() });
    const { findings } = await call('GET', `/api/v2/invoices/${record.secureId}`);
    const kinds = brief(findings.filter((f) => f.kind !== 'format'));
    expect(kinds).toEqual([
      'info unknown-field answer /card/last_four', 'info unknown-field answer /card/first_six', 'info unknown-field answer /card/holder_name', 'info unknown-field answer /card/exp',
      'warning null answer /invoice/qr_code_pix',
      'info unknown-field answer /invoice/nsu',
      'info unknown-field answer /refunds/*/created_at', 'info unknown-field answer /refunds/*/status',
      'info unknown-field answer /timeline/*/created_at', 'warning new-value answer /timeline/*/status', 'info unknown-field answer /timeline/*/description',
      'info unknown-field answer /antifraud', 'info unknown-field answer /gateway_reference',
    ]);
    expect(findings.find((f) => f.kind === 'new-value')).toMatchObject({ expected: 'one of pending, waiting_3ds, paid, refused, expired, canceled, …', seen: 'string "in_analysis"' });
    expect(findings.some((f) => f.kind === 'missing-field')).toBe(false);
  });

  it('Company Infos in production\'s envelope: PHP times as format at /data/…, its plan unknown', async () => {
    const { findings } = await call('GET', '/api/v2/company');
    expect(findings.map((f) => `${f.kind} ${f.path} ${f.seen}`)).toEqual([
      'format /data/create_at timestamp, PHP form YYYY-MM-DD HH:MM:SS', 'format /data/update_at timestamp, PHP form YYYY-MM-DD HH:MM:SS', 'unknown-field /data/plan object',
    ]);
  });

  it('a minimal create answer asks for nothing more; a refused create gives its request problems and Laravel\'s 422 is a readable error', async () => {
    const created = await call('POST', '/api/v2/invoices', validPix());
    expect(created.answer).toEqual({ data: { invoice_id: expect.any(String), qr_code_pix: expect.any(String), status: 'pending' } });
    expect(created.findings).toEqual([]);
    const refused = await call('POST', '/api/v2/invoices', validPix({ total_price_cents: null }));
    expect(refused.exchange.status).toBe(422);
    expect(brief(refused.findings)).toEqual(['error request request /total_price_cents']);
  });

  it.each([
    ['an empty 500', { status: 500, body: {} }, ['error error-shape answer ']],
    ['an HTML 502 from a load balancer', { status: 502, body: htmlPage(502) }, ['error status-code answer ', 'error not-json answer ']],
    ['an HTML 200', { status: 200, body: htmlPage(200, 'OK') }, ['error not-json answer ']],
    ['a 201 with a PHP header', { status: 201, headers: { 'x-powered-by': 'PHP/8.2.1' }, body: {} }, ['error status-code answer ', 'info extra-header answer headers.x-powered-by', 'error missing-field answer /data']],
  ])('%s', async (_, canned, expected) => {
    gateway.once('POST', /^\/api\/v2\/invoices$/, canned);
    expect(brief((await call('POST', '/api/v2/invoices', validPix())).findings)).toEqual(expected);
  });

  it('says no person\'s data, document, card digits, token, pix code or id in any `seen`', async () => {
    const record = gateway.addRecord({ paymentMethod: 'credit_card', status: 'paid', timeline: productionTimeline(), refunds: productionRefunds() });
    // drifts that put personal values where a finding shows what it saw
    Object.assign(record, { payer_name: 'Maria Silva', payer_email: 'maria.silva@example.com', card_number: '4111111111111111', token: 'tok_live_9f8e7d6c5b4a', secureId: 1 });
    Object.assign(record.client, { name: null, cpf_cnpj: 52998224725, phone: ['11987654321'] });
    Object.assign(record.customer, { email: { address: 'maria.silva@example.com' } });
    record.invoice.status = 'Maria Silva';
    record.invoice.qr_code_pix = 0;
    const pix = gateway.addRecord();
    const found = [...(await call('GET', `/api/v2/invoices/${record.id}`)).findings, ...(await call('GET', `/api/v2/invoices/${pix.id}`)).findings];
    expect(found.length).toBeGreaterThan(20);
    const seen = JSON.stringify(found.map((f) => f.seen));
    for (const secret of ['Maria', 'maria', '52998224725', '529', '11987654321', '4111', '1111', 'tok_live_9f8e7d', String(pix.secureId).slice(4), pix.pix.qrCode.slice(0, 12), record.invoice.token_checkout.slice(0, 8)]) {
      expect(seen, secret).not.toContain(secret);
    }
  });
});

describe('checkExchange', () => {
  const plain: Exchange = { method: 'GET', path: '/api/v2/company/', query: new URLSearchParams(), requestBody: null, status: 200, answerHeaders: {}, answerBody: '{}' };

  it('knows the operation by method and path template, a trailing slash tolerated; a path that is none gives nothing', () => {
    expect(checkExchange(plain)[0]).toMatchObject({ operation: 'companyInfos', kind: 'missing-field', path: '/id' });
    expect(checkExchange({ ...plain, path: '/wp-admin' })).toEqual([]);
    expect(checkExchange({ ...plain, method: 'DELETE' })).toEqual([]);
  });

  it('takes Search Transaction with `id` as one record (a page is then wrong), without it as a record or a page', () => {
    const search = { ...plain, path: '/api/v2/invoices', answerBody: '{"data": [], "next_cursor": null}' };
    expect(checkExchange(search)).toEqual([]);
    expect(checkExchange({ ...search, query: new URLSearchParams('id=4242') })).toContainEqual(expect.objectContaining({ kind: 'missing-field', path: '/secureId' }));
  });

  it('checks Search Transaction\'s query as serve does, at query.<name>, values by shape', () => {
    const search = { ...plain, path: '/api/v2/invoices', answerBody: '{"data": [], "next_cursor": null}' };
    expect(checkExchange({ ...search, query: new URLSearchParams('status=paid&payer_email=maria') })).toEqual([
      expect.objectContaining({ kind: 'request', direction: 'request', path: 'query.payer_email', seen: 'string, 5 characters' }),
    ]);
    expect(checkExchange({ ...search, query: new URLSearchParams('id=1&id=2') })[0]).toMatchObject({ kind: 'request', path: 'query.id', seen: '2 values' });
  });

  it('asks for no optional member (health: code, reason and since only while degraded)', () => {
    expect(checkExchange({ ...plain, path: '/health', answerBody: '{"status": "ok", "version": "1.0.0"}' })).toEqual([]);
  });

  it('checks only the request when no answer came', () => {
    const fault = { ...plain, method: 'POST', path: '/api/v2/invoices/4242/refund', requestBody: '{"amount_cents": -1}', status: null, answerBody: null };
    expect(checkExchange(fault)).toEqual([{ severity: 'error', kind: 'request', operation: 'createRefund', direction: 'request', status: null, path: '/amount_cents', expected: 'must be at least 1', seen: 'integer' }]);
  });

  it('gives the same findings from its cache for a body seen before, and keeps the status out of it', () => {
    const first = checkExchange({ ...plain, answerBody: '{"id": 1}' });
    expect(checkExchange({ ...plain, answerBody: '{"id": 1}' })).toEqual(first);
    // the same body with another status is checked as that status's answer: an error body, not the record
    expect(brief(checkExchange({ ...plain, answerBody: '{"id": 1}', status: 404 }))).toEqual(['error status-code answer ', 'error error-shape answer ']);
  });
});
