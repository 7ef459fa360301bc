// The production stand-in itself, checked with plain fetch and node:https (not our CLI): if it did not
// behave like production, the CLI tests run against it would prove nothing.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidPixCode } from '../../src/domain/pix.js';
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
