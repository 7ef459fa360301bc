import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePixCode } from '../../src/domain/pix.js';
import { CARDS, cardCharge, create } from '../support/charges.js';
import { request, startTestServer, validPix, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('Create Invoices (pix)', () => {
  it('answers 200 with the whole, consistent transaction record', async () => {
    const before = Date.now();
    const { status, body: { data: body } } = await request(server, 'POST', '/api/v2/invoices', { body: validPix() });
    expect(status).toBe(200);
    expect(body.status).toBe('pending');
    expect(body.invoice.status).toBe('pending');
    expect(body.paymentMethod).toBe('pix');
    expect(body.amount).toBe(1990);
    expect(body.paidAt).toBeNull();
    expect(body.refundedAmount).toBe(0);
    expect(body.secureId).toBe(body.invoice.invoice_id);
    expect(body.secureId).toMatch(/^INV-\d+(-\d+)+$/);
    expect(body.invoice.token_checkout).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(body.postbackUrl).toBe('https://merchant.example.com/postbacks');
    expect(body.invoice.postback_url).toBe(body.postbackUrl);
    expect(body.ip).toBe('203.0.113.7');
    expect(Date.parse(body.createdAt)).toBeGreaterThanOrEqual(before - 1);
    expect(body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.timeline).toEqual([{ status: 'pending', at: body.createdAt, note: expect.any(String), by: 'token-1' }]);
  });

  it('fills fee and invoice values from the company schedule (pix 0.99 %)', async () => {
    const { body: { data: body } } = await request(server, 'POST', '/api/v2/invoices', { body: validPix() });
    expect(body.fee).toEqual({ estimatedFee: 20, fixedAmount: 0, netAmount: 1970, spreadPercentage: 0.99 });
    expect(body.invoice).toMatchObject({ value_total: 1990, value_platform: 20, value_seller: 1970, is_pix: true, is_bank_slip: false, is_credit_card: false });
  });

  it('maps the payer to client and customer, and the items to response items', async () => {
    const { body: { data: body } } = await request(server, 'POST', '/api/v2/invoices', { body: validPix() });
    expect(body.client).toMatchObject({ name: 'Fulano de Tal', cpf_cnpj: '52998224725', email: 'fulano@example.com', phone: '+5511999998888' });
    expect(body.customer.document).toEqual({ number: '52998224725', type: 'cpf' });
    expect(body.customer.id).toBe(body.client.id);
    expect(body.items).toEqual([{ title: 'Camiseta', quantity: 1, unitPrice: 1990, tangible: true, externalRef: null }]);
  });

  it('reuses the customer of a document already seen by the company', async () => {
    const a = await request(server, 'POST', '/api/v2/invoices', { body: validPix() });
    const b = await request(server, 'POST', '/api/v2/invoices', { body: validPix({ payer: { ...validPix().payer, cpf_cnpj: '52998224725' } }) });
    expect(b.body.data.customer.id).toBe(a.body.data.customer.id);
  });

  it('generates a pix BR Code that parses, carries the amount and the company, and expires in an hour', async () => {
    const { body: { data: body } } = await request(server, 'POST', '/api/v2/invoices', { body: validPix({ total_price_cents: 123456, items: undefined }) });
    expect(body.pix.qrCode).toBe(body.invoice.qr_code_pix);
    const pix = parsePixCode(body.pix.qrCode);
    expect(pix.amountCents).toBe(123456);
    expect(pix.gui.toLowerCase()).toBe('br.gov.bcb.pix');
    expect(pix.merchantName).toBe(body.enterprise.fantasy_name.toUpperCase().slice(0, 25));
    // dynamic code: the charge's txid (26 to 35 letters and digits) ends the location; 62.05 is "***"
    expect(pix.url).toMatch(/\/[A-Za-z0-9]{26,35}$/);
    expect(pix.txid).toBe('***');
    expect(Date.parse(body.pix.expiresAt) - Date.parse(body.createdAt)).toBe(3_600_000);
    expect(body.items).toEqual([]);
  });

  it('gives every invoice its own ids, token and txid', async () => {
    const replies = await Promise.all([1, 2, 3].map(() => request(server, 'POST', '/api/v2/invoices', { body: validPix() })));
    const ids = new Set(replies.map((r) => r.body.data.id));
    const tokens = new Set(replies.map((r) => r.body.data.invoice.token_checkout));
    const codes = new Set(replies.map((r) => r.body.data.pix.qrCode));
    expect([ids.size, tokens.size, codes.size]).toEqual([3, 3, 3]);
  });

  it('takes product_fisical "false" as intangible and accepts an empty postback_url', async () => {
    const { body: { data: body } } = await request(server, 'POST', '/api/v2/invoices', { body: validPix({ product_fisical: 'false', postback_url: '' }) });
    expect(body.items[0].tangible).toBe(false);
    expect(body.postbackUrl).toBe('');
  });

  it('accepts a payer with an alphanumeric CNPJ and reports its type', async () => {
    const payer = { name: 'Empresa Nova', email: 'fin@empresa.example', cpf_cnpj: '12.ABC.345/01DE-35' };
    const { status, body: { data: body } } = await request(server, 'POST', '/api/v2/invoices', { body: validPix({ payer }) });
    expect(status).toBe(200);
    expect(body.customer.document).toEqual({ number: '12ABC34501DE35', type: 'cnpj' });
  });
});

describe('Create Invoices in the production gateway’s shape', () => {
  it('answers {data: the record + invoice_id + qr_code_pix}; Search answers the bare record', async () => {
    const { status, body } = await request(server, 'POST', '/api/v2/invoices', { body: validPix() });
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.invoice_id).toBe(body.data.secureId);
    expect(body.data.qr_code_pix).toBe(body.data.pix.qrCode);
    const { invoice_id: _id, qr_code_pix: _qr, ...record } = body.data;
    const found = await request(server, 'GET', `/api/v2/invoices/${body.data.invoice_id}`);
    expect(found.body.data).toBeUndefined();
    expect(found.body).toEqual(record);
  });

  it('answers qr_code_pix null for a charge that is not pix', async () => {
    const { body } = await request(server, 'POST', '/api/v2/invoices', { body: cardCharge(CARDS.approved) });
    expect(body.data).toMatchObject({ paymentMethod: 'credit_card', pix: null, qr_code_pix: null, invoice_id: body.data.secureId });
  });

  it('keeps external_id and metadata, maps the neighbourhood, and says country BR', async () => {
    const payer = { ...validPix().payer, address_neighborhood: 'Bela Vista', address_complement: '' };
    const data = await create(server, validPix({ payer, external_id: 'pedido-1042', metadata: { order: '1042', channel: 'loja' }, currency: 'BRL', country: 'BR' }));
    expect(data).toMatchObject({ externalRef: 'pedido-1042', metadata: { order: '1042', channel: 'loja' } });
    expect(data.customer.address).toMatchObject({ neighborhood: 'Bela Vista', complement: null, country: 'BR' });
  });

  it('takes null as “none” for optional fields, and ignores fields it does not know', async () => {
    const payer = { ...validPix().payer, phone: null, address_complement: null };
    const data = await create(server, validPix({ payer, postback_url: null, ip_payer: null, external_id: null, metadata: null, card: null, loyalty: { tier: 'gold' } }));
    expect(data).toMatchObject({ postbackUrl: '', ip: null, externalRef: null, metadata: null, card: null });
    expect(data.client.phone).toBe('');
  });

  it.each([
    ['currency', { currency: 'USD' }, 'must be BRL (the only currency)'],
    ['country', { country: 'AR' }, 'must be BR (the only country)'],
    ['metadata.order', { metadata: { order: 1042 } }, 'must be a string (metadata values are strings)'],
    ['metadata', { metadata: ['a'] }, 'must be an object of strings'],
    ['external_id', { external_id: 'x'.repeat(256) }, 'must be at most 255 characters'],
    ['metadata', { metadata: { '': 'empty key' } }, 'keys must be 1 to 64 characters long'],
    ['payer.name', { payer: { ...validPix().payer, name: null } }, 'is required (null is no value)'],
    // one set with the CLI's: the line separator and the bidi marks too
    ['payer.name', { payer: { ...validPix().payer, name: 'A\u2028B' } }, 'must not contain control characters (U+2028 at position 2)'],
    ['items[0].name', { items: [{ ...validPix().items[0], name: 'x\u200fy' }] }, 'must not contain control characters (U+200F at position 2)'],
  ])('refuses %s it cannot honour, naming it', async (path, fields, message) => {
    const { status, body } = await request(server, 'POST', '/api/v2/invoices', { body: validPix(fields) });
    expect(status).toBe(422);
    expect(body.details).toEqual([{ path, message }]);
  });

  it('refuses more than 50 metadata keys', async () => {
    const metadata = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    const { body } = await request(server, 'POST', '/api/v2/invoices', { body: validPix({ metadata }) });
    expect(body.details).toEqual([{ path: 'metadata', message: 'must hold at most 50 keys' }]);
  });

  it('says a document of equal digits is a placeholder, not that its check digits do not match', async () => {
    const { body } = await request(server, 'POST', '/api/v2/invoices', { body: validPix({ payer: { ...validPix().payer, cpf_cnpj: '000.000.000-00' } }) });
    expect(body.details).toEqual([{ path: 'payer.cpf_cnpj', message: 'is not a valid CPF: all its digits are equal (a placeholder, not a real document)' }]);
  });
});
