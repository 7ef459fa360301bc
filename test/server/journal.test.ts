// The journal's answers at the app level (both engines), each checked against the OpenAPI document by
// the test client: list, one entry, find with near misses, clear, the journal-off and bad-filter
// refusals, and sandbox time (an entry's sandbox_at follows the company's clock, its `at` real time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestServer, validPix, type TestServer } from '../support/server.js';

describe('the journal, as the OpenAPI document declares it', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock: () => new Date('2026-11-23T12:00:00.000Z') });
  });
  afterAll(() => server.close());

  it('answers list, entry, find (with near misses) and clear in their declared shapes', async () => {
    expect((await request(server, 'POST', '/api/v2/sandbox/clock/advance', { body: { seconds: 3600 } })).status).toBe(200);
    expect((await request(server, 'POST', '/api/v2/invoices', { body: validPix({ payer: { ...validPix().payer, cpf_cnpj: '1' } }) })).status).toBe(422);
    expect((await request(server, 'POST', '/api/v2/invoices?x=1', { body: validPix() })).status).toBe(200);
    const ok = await request(server, 'POST', '/api/v2/invoices', { body: validPix(), headers: { 'idempotency-key': 'k-1' } });
    expect(ok.status).toBe(200);
    const page = await request(server, 'GET', '/api/v2/sandbox/requests?limit=2');
    expect(page.body.data).toHaveLength(2);
    expect(page.body.next_cursor).toBe(page.body.data[1].id);
    const rest = await request(server, 'GET', `/api/v2/sandbox/requests?after=${page.body.next_cursor}`);
    expect(rest.body.data.map((e: { path: string; query: unknown }) => [e.path, e.query])).toEqual([['/api/v2/invoices', { x: '1' }], ['/api/v2/invoices', {}]]);
    const mine = rest.body.data.at(-1);
    expect(mine).toMatchObject({ idempotency_key: 'k-1', invoice_ids: [ok.body.data.id], sandbox_at: '2026-11-23T13:00:00.000Z' });
    // `at` is real time, whatever the server's clock reads
    expect(Math.abs(Date.parse(mine.at) - Date.now())).toBeLessThan(60_000);
    expect((await request(server, 'GET', `/api/v2/sandbox/requests/${mine.id}`)).body).toEqual(mine);
    expect((await request(server, 'GET', '/api/v2/sandbox/requests/999999')).status).toBe(404);
    const miss = await request(server, 'POST', '/api/v2/sandbox/requests/find', { body: { method: 'POST', body: { payer: { cpf_cnpj: '2' } } } });
    expect(miss.body.matched).toBe(0);
    expect(miss.body.near_misses[0].differences[0].path).toBe('/payer/cpf_cnpj');
    expect((await request(server, 'POST', '/api/v2/sandbox/requests/find', { body: { verb: 'POST' } })).status).toBe(422);
    expect((await request(server, 'GET', '/api/v2/sandbox/requests?limit=0')).body.details).toEqual([{ path: 'query.limit', message: 'must be a whole number from 1 to 500' }]);
    expect((await request(server, 'GET', '/api/v2/sandbox/requests?colour=red')).status).toBe(422);
    expect((await request(server, 'DELETE', '/api/v2/sandbox/requests')).body).toEqual({ cleared: 4 });
    expect((await request(server, 'GET', '/api/v2/sandbox/requests')).body).toEqual({ data: [], next_cursor: 0, dropped: 0 });
  });

  it('is off with journal 0: 409 journal_off', async () => {
    const off = await startTestServer({ journal: 0 });
    try {
      const answer = await request(off, 'GET', '/api/v2/sandbox/requests');
      expect(answer.status).toBe(409);
      expect(answer.body.error).toBe('journal_off');
    } finally {
      await off.close();
    }
  });
});
