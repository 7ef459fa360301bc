import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTestCompany, request, startTestServer, validPix, type TestServer, sql } from '../support/server.js';

let server: TestServer;
const second = 'pinv_test_second_company_token';
beforeAll(async () => {
  server = await startTestServer();
  await addTestCompany(server, second, 'Loja Dois');
});
afterAll(() => server.close());

describe('companies and their tokens', () => {
  it('a company never sees another company’s invoices: 404, exactly as for an unknown id', async () => {
    const mine = (await request(server, 'POST', '/api/v2/invoices', { body: validPix() })).body.data;
    for (const path of [`/api/v2/invoices/${mine.id}`, `/api/v2/invoices?id=${mine.secureId}`]) {
      const theirs = await request(server, 'GET', path, { token: second });
      const unknown = await request(server, 'GET', '/api/v2/invoices/987654', { token: second });
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual(unknown.body);
    }
  });

  it('each token opens its own company, and invoices carry the right companyId and enterprise', async () => {
    const a = (await request(server, 'GET', '/api/v2/company')).body;
    const b = (await request(server, 'GET', '/api/v2/company', { token: second })).body;
    expect(a.id).not.toBe(b.id);
    expect(b.fantasy_name).toBe('Loja Dois');
    const invoice = (await request(server, 'POST', '/api/v2/invoices', { body: validPix(), token: second })).body.data;
    expect(invoice.companyId).toBe(b.id);
    expect(invoice.enterprise.id).toBe(b.id);
    expect((await request(server, 'GET', `/api/v2/invoices/${invoice.id}`, { token: second })).status).toBe(200);
    expect((await request(server, 'GET', `/api/v2/invoices/${invoice.id}`)).status).toBe(404);
  });

  it('stores tokens hashed, never in clear', async () => {
    const rows = await sql<{ token_hash: string; hint: string }>(server, 'SELECT token_hash, hint FROM api_tokens');
    expect(rows.length).toBe(2);
    for (const row of rows) {
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.hint).not.toContain(second);
      expect(row.hint).not.toContain(server.token);
    }
  });
});
