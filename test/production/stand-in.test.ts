// The production stand-in itself, checked with plain fetch and node:https (not our CLI): if it did not
// behave like production, the CLI tests run against it would prove nothing.
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND_NAMES } from '../../src/api/findings.js';
import { Transaction } from '../../src/api/schemas.js';
import { isValidPixCode } from '../../src/domain/pix.js';
import { CLEAN, PLANTED } from '../support/planted-drifts.js';
import { startProductionGateway, type ProductionGateway } from '../support/production-gateway.js';
import { makeTestCa, type LeafKind, type TestCa } from '../support/test-ca.js';

/** Node's fetch types a JSON body as unknown; these tests read arbitrary answers. */
const json = (response: Response): Promise<any> => response.json();

describe('production stand-in over http', () => {
  let gateway: ProductionGateway;
  const call = (method: string, path: string, body?: unknown, token: string | null = gateway.token) =>
    fetch(`${gateway.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    gateway = await startProductionGateway();
  });
  afterAll(() => gateway.close());

  it('answers a missing or wrong token with Laravel\'s 401', async () => {
    for (const token of [null, 'nope']) {
      const response = await call('GET', '/api/v2/invoices?id=1', undefined, token);
      expect(response.status).toBe(401);
      expect(await json(response)).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('finds a record by id, by secureId and by ?id=, with production\'s habits', async () => {
    const record = gateway.addRecord();
    expect(record.id).toBeGreaterThanOrEqual(4242);
    for (const path of [`/api/v2/invoices/${record.id}`, `/api/v2/invoices/${record.secureId}`, `/api/v2/invoices?id=${record.secureId}`, `/api/v2/invoices?id=${record.id}`]) {
      const response = await call('GET', path);
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual(record);
    }
    expect(record.createdAt).toMatch(/\.\d{6}Z$/);
    expect(record.pix).toEqual({ qrCode: record.invoice.qr_code_pix });
    expect(isValidPixCode(record.pix.qrCode)).toBe(true);
    expect(record).toHaveProperty('antifraud');
    expect((await call('GET', '/api/v2/invoices/999999')).status).toBe(404);
  });

  it('deep-merges overrides and lets a test move a record between polls', async () => {
    const record = gateway.addRecord({ paymentMethod: 'credit_card', status: 'paid', invoice: { nsu: '999' } });
    expect(record.invoice).toMatchObject({ status: 'paid', is_credit_card: true, is_pix: false, nsu: '999', invoice_id: record.secureId });
    expect(record.card).toHaveProperty('last_four');
    gateway.record(record.id)!.status = 'chargedback';
    expect((await json(await call('GET', `/api/v2/invoices/${record.id}`))).status).toBe('chargedback');
  });

  it('creates with the minimal answer; the invoice_id then looks the whole record up', async () => {
    const response = await call('POST', '/api/v2/invoices', {
      method: 'pix',
      total_price_cents: 1990,
      payer: { name: 'João', email: 'joao@example.com', cpf_cnpj: '529.982.247-25' },
      items: [{ name: 'E-book', quantity: 1, unit_price: 1990 }],
    });
    expect(response.status).toBe(200);
    const { data } = await json(response);
    expect(Object.keys(data).sort()).toEqual(['invoice_id', 'qr_code_pix', 'status']);
    const record = await json(await call('GET', `/api/v2/invoices?id=${data.invoice_id}`));
    expect(record).toMatchObject({ amount: 1990, status: 'pending', items: [{ title: 'E-book', unitPrice: 1990 }], client: { cpf_cnpj: '52998224725' } });
    expect(record.pix.qrCode).toBe(data.qr_code_pix);
  });

  it('refuses an incomplete create in Laravel\'s 422 shape', async () => {
    const response = await call('POST', '/api/v2/invoices', { method: 'pix', payer: { name: 'João' } });
    expect(response.status).toBe(422);
    const body = await json(response);
    expect(body.message).toBe('The given data was invalid.');
    expect(Object.keys(body.errors).sort()).toEqual(['payer.cpf_cnpj', 'payer.email', 'total_price_cents']);
    expect(body.errors['payer.cpf_cnpj']).toEqual(['The payer.cpf_cnpj field is required.']);
  });

  it('answers once() first, then normally; routes production lacks are HTML 404s and 405s', async () => {
    const { id } = gateway.addRecord();
    gateway.once('GET', /^\/api\/v2\/invoices/, { status: 429, headers: { 'retry-after': '1' }, body: { message: 'Too Many Attempts.' } });
    const limited = await call('GET', `/api/v2/invoices/${id}`);
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '1']);
    expect((await call('GET', `/api/v2/invoices/${id}`)).status).toBe(200);
    const events = await call('GET', `/api/v2/invoices/${id}/events`, undefined, null);
    expect([events.status, events.headers.get('content-type')]).toEqual([404, 'text/html; charset=UTF-8']);
    expect((await call('DELETE', `/api/v2/invoices/${id}`)).status).toBe(405);
    expect(gateway.requests.at(-1)).toMatchObject({ method: 'DELETE', url: `/api/v2/invoices/${id}` });
  });
});

describe('production stand-in that never answers', () => {
  it('holds a silent socket open until close(), which ends it promptly', async () => {
    const gateway = await startProductionGateway();
    gateway.always({ status: 0, silent: true });
    const pending = fetch(`${gateway.url}/api/v2/company`).then(() => 'answered', () => 'cut off');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(gateway.requests).toHaveLength(1);
    const started = Date.now();
    await gateway.close();
    expect(await pending).toBe('cut off');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

// What Node says for each leaf kind, observed with OpenSSL 3.0 and Node 20 (a client given our CA):
// valid -> trusted; expired -> CERT_HAS_EXPIRED; wrong-host -> ERR_TLS_CERT_ALTNAME_INVALID;
// self-signed -> DEPTH_ZERO_SELF_SIGNED_CERT.
describe('production stand-in over https', () => {
  let ca: TestCa;
  beforeAll(() => {
    ca = makeTestCa();
  });
  afterAll(() => ca.remove());

  const get = (url: string, token: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(`${url}/api/v2/company`, { ca: readFileSync(ca.caCertPath), headers: { authorization: `Bearer ${token}` } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      req.on('error', reject).end();
    });

  it.each([
    ['valid', null],
    ['expired', 'CERT_HAS_EXPIRED'],
    ['wrong-host', 'ERR_TLS_CERT_ALTNAME_INVALID'],
    ['self-signed', 'DEPTH_ZERO_SELF_SIGNED_CERT'],
  ] as const)('a %s leaf: %s', async (kind: LeafKind, code) => {
    const gateway = await startProductionGateway({ tls: ca.leaf(kind) });
    try {
      expect(gateway.url).toMatch(/^https:\/\/localhost:\d+$/);
      const outcome = get(gateway.url, gateway.token);
      if (code === null) await expect(outcome).resolves.toBe(200);
      else await expect(outcome).rejects.toMatchObject({ code });
    } finally {
      await gateway.close();
    }
  });
});

// The answers a proxy in front of the stand-in must pass through byte for byte: what the stand-in
// says it sent (`answers`) must be what a plain client reads, or the proxy's tests compare nothing.
describe('production stand-in, answers for a proxy to pass through', () => {
  let gateway: ProductionGateway;
  beforeAll(async () => {
    gateway = await startProductionGateway();
  });
  afterAll(() => gateway.close());

  const rawGet = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = httpRequest(`${gateway.url}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('aborted', () => reject(new Error('aborted')));
        response.on('end', () => (response.complete ? resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }) : reject(new Error('incomplete'))));
        response.on('error', reject);
      });
      req.on('error', reject).end();
    });

  it('sends raw bytes as they are, every header it sent recorded', async () => {
    const text = '{ "id" :4242 ,\n\t"status":"paid" }';
    gateway.plant({ method: 'GET', path: '/api/v2/invoices?id=4242', answer: { status: 200, raw: Buffer.from(text), headers: { 'content-type': 'application/json' } } });
    const got = await rawGet('/api/v2/invoices?id=4242');
    expect(got.body.toString()).toBe(text);
    const sent = gateway.answers.at(-1)!;
    expect(sent).toMatchObject({ url: '/api/v2/invoices?id=4242', status: 200 });
    expect(sent.body.equals(got.body)).toBe(true);
    const { connection: _c, 'keep-alive': _k, ...received } = got.headers;
    expect(received).toEqual(sent.headers);
  });

  it('plants only for the exact path with query, once', async () => {
    const record = gateway.addRecord();
    gateway.plant({ method: 'GET', path: `/api/v2/invoices?id=${record.id}`, answer: { status: 418, body: { message: 'planted' } } });
    expect((await rawGet(`/api/v2/invoices/${record.id}`, { authorization: `Bearer ${gateway.token}` })).status).toBe(200);
    expect((await rawGet(`/api/v2/invoices?id=${record.id}`)).status).toBe(418);
    expect((await rawGet(`/api/v2/invoices?id=${record.id}`, { authorization: `Bearer ${gateway.token}` })).status).toBe(200);
  });

  it('gzips only for a client that accepts gzip', async () => {
    const answer = { status: 200, body: { data: 'x'.repeat(200) }, gzip: true };
    gateway.once('GET', /^\/api\/v2\/company$/, answer);
    const zipped = await rawGet('/api/v2/company', { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).toString()).toBe(JSON.stringify(answer.body));
    expect(gateway.answers.at(-1)!.body.equals(zipped.body)).toBe(true);
    gateway.once('GET', /^\/api\/v2\/company$/, answer);
    const plain = await rawGet('/api/v2/company');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(JSON.stringify(answer.body));
  });

  it('sends chunks without a content-length, and cuts an answer short', async () => {
    gateway.once('GET', /^\/api\/v2\/company$/, { status: 200, chunks: ['{"a":', '1}'] });
    const chunked = await rawGet('/api/v2/company');
    expect([chunked.headers['transfer-encoding'], chunked.body.toString()]).toEqual(['chunked', '{"a":1}']);
    gateway.once('GET', /^\/api\/v2\/company$/, { status: 200, body: { data: 'y'.repeat(100) }, cut: true });
    await expect(rawGet('/api/v2/company')).rejects.toThrow(/aborted|incomplete|socket hang up|ECONNRESET/);
    expect(gateway.answers.at(-1)!.body.length).toBeLessThan(Number(gateway.answers.at(-1)!.headers['content-length']));
  });
});

// The planted catalog's clean records are what src/api/schemas.ts has (pix.expiresAt aside, which
// the specification does not show), and each drifted one differs from a clean one where it says.
describe('the planted drifts', () => {
  it('has clean records the schemas take, and a planted item for every kind of finding', () => {
    for (const item of CLEAN.filter((clean) => clean.method === 'GET' && clean.answer.status === 200)) {
      const issues = Transaction.safeParse(item.answer.body).error?.issues.map((issue) => issue.path.join('/')) ?? [];
      expect(issues.filter((path) => path !== 'pix/expiresAt'), item.name).toEqual([]);
    }
    expect(new Set(PLANTED.flatMap((item) => item.expect.map((finding) => finding.kind)))).toEqual(new Set(KIND_NAMES));
    expect(new Set([...PLANTED, ...CLEAN].filter((item) => item.method === 'GET').map((item) => item.path)).size, 'GET paths are distinct').toBe([...PLANTED, ...CLEAN].filter((item) => item.method === 'GET').length);
  });
});
