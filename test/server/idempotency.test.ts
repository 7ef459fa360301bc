import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTestCompany, request, startTestServer, validPix, type TestServer, sql } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const count = async () => (await sql<{ n: number }>(server, 'SELECT COUNT(*) AS n FROM invoices'))[0]?.n ?? -1;
const withKey = (key: string) => ({ 'idempotency-key': key });

describe('Idempotency-Key', () => {
  it('a retry with the same key and body answers the first response again and creates nothing', async () => {
    const key = crypto.randomUUID();
    const first = await request(server, 'POST', '/api/v2/invoices', { body: validPix(), headers: withKey(key) });
    const before = await count();
    const retry = await request(server, 'POST', '/api/v2/invoices', { body: validPix(), headers: withKey(key) });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await count()).toBe(before);
  });

  it('the same key with another body is a 409 idempotency_conflict', async () => {
    const key = crypto.randomUUID();
    await request(server, 'POST', '/api/v2/invoices', { body: validPix(), headers: withKey(key) });
    const other = await request(server, 'POST', '/api/v2/invoices', {
      body: validPix({ total_price_cents: 500, items: [{ name: 'Meia', quantity: 1, unit_price: 500 }] }),
      headers: withKey(key),
    });
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('idempotency_conflict');
  });

  it('concurrent requests with one key create one invoice', async () => {
    const key = crypto.randomUUID();
    const before = await count();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => request(server, 'POST', '/api/v2/invoices', { body: validPix(), headers: withKey(key) })),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it('without a key, every request creates an invoice', async () => {
    const before = await count();
    await Promise.all([1, 2].map(() => request(server, 'POST', '/api/v2/invoices', { body: validPix() })));
    expect(await count()).toBe(before + 2);
  });

  it('does not store a rejected request: the key can be used again with a corrected body', async () => {
    const key = crypto.randomUUID();
    const bad = await request(server, 'POST', '/api/v2/invoices', { body: validPix({ total_price_cents: 1 }), headers: withKey(key) });
    expect(bad.status).toBe(422);
    const good = await request(server, 'POST', '/api/v2/invoices', { body: validPix(), headers: withKey(key) });
    expect(good.status).toBe(200);
  });

  it('keys belong to one company: another company may use the same key', async () => {
    const key = crypto.randomUUID();
    await addTestCompany(server, 'pinv_test_idempotency_other_company');
    const a = await request(server, 'POST', '/api/v2/invoices', { body: validPix(), headers: withKey(key) });
    const b = await request(server, 'POST', '/api/v2/invoices', { body: validPix(), headers: withKey(key), token: 'pinv_test_idempotency_other_company' });
    expect(b.status).toBe(200);
    expect(b.body.data.id).not.toBe(a.body.data.id);
  });

  it('rejects an unusable key with 422 naming the header', async () => {
    const reply = await request(server, 'POST', '/api/v2/invoices', { body: validPix(), headers: withKey('x'.repeat(256)) });
    expect(reply.status).toBe(422);
    expect(reply.body.details[0].path).toBe('headers.Idempotency-Key');
  });

  it('forgets keys after 24 hours', async () => {
    let now = new Date('2026-01-01T00:00:00.000Z');
    const clocked = await startTestServer({ clock: () => now });
    try {
      const key = 'fixed-key-for-expiry';
      const first = await request(clocked, 'POST', '/api/v2/invoices', { body: validPix(), headers: withKey(key) });
      now = new Date(now.getTime() + 24 * 3600 * 1000 - 1);
      expect((await request(clocked, 'POST', '/api/v2/invoices', { body: validPix(), headers: withKey(key) })).body.data.id).toBe(first.body.data.id);
      now = new Date(now.getTime() + 2);
      expect((await request(clocked, 'POST', '/api/v2/invoices', { body: validPix(), headers: withKey(key) })).body.data.id).not.toBe(first.body.data.id);
    } finally {
      await clocked.close();
    }
  });
});
