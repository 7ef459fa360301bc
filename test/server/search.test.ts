import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create } from '../support/charges.js';
import { request, startTestServer, validPix, type TestServer } from '../support/server.js';

let server: TestServer;
let created: any;
beforeAll(async () => {
  server = await startTestServer();
  created = await create(server, validPix());
});
afterAll(() => server.close());

describe('Search Transaction', () => {
  it.each([
    ['?id= with the integer id', () => `/api/v2/invoices?id=${created.id}`],
    ['?id= with the secureId', () => `/api/v2/invoices?id=${created.secureId}`],
    ['the path with the integer id', () => `/api/v2/invoices/${created.id}`],
    ['the path with the secureId', () => `/api/v2/invoices/${created.secureId}`],
  ])('finds the record by %s, equal to the create answer', async (_, path) => {
    const { status, body } = await request(server, 'GET', path());
    expect(status).toBe(200);
    expect(body).toEqual(created);
  });

  it.each([
    ['an unknown integer id', '/api/v2/invoices/999999'],
    ['an unknown secureId', '/api/v2/invoices?id=INV-20260101-000001-0000'],
    ['a malformed id', '/api/v2/invoices/abc'],
    ['a huge number', '/api/v2/invoices/99999999999999999999999'],
    ['a negative number', '/api/v2/invoices?id=-1'],
  ])('answers 404 not_found for %s', async (_, path) => {
    const { status, body } = await request(server, 'GET', path);
    expect(status).toBe(404);
    expect(body.error).toBe('not_found');
    expect(body.message).toMatch(/\w/);
  });

  it('answers 422 naming query.id when the id is empty or repeated (without id it lists: test/server/list.test.ts)', async () => {
    for (const path of ['/api/v2/invoices?id=', '/api/v2/invoices?id=1&id=2']) {
      const { status, body } = await request(server, 'GET', path);
      expect(status).toBe(422);
      expect(body.details[0].path).toBe('query.id');
    }
  });

  it('Company Infos answers the enterprise with balances and a formatted CNPJ', async () => {
    const { status, body } = await request(server, 'GET', '/api/v2/company');
    expect(status).toBe(200);
    expect(body.cnpj).toMatch(/^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/);
    expect(body).toMatchObject({ balance_pix: 0, balance_card: 0, balance_bank_slip: 0, bank_type: 'corrente', blocked_sake: false });
    expect(body).toEqual(created.enterprise);
  });
});
