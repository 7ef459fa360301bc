// The sandbox's controls at the app level (both engines): the expiry timer on each company's own
// clock, companies' clocks apart, rate limits per token, who may move the clock, and the chaos rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create } from '../support/charges.js';
import { addTestCompany, request, sql, startTestServer, validPix, type TestServer } from '../support/server.js';

const SECOND_TOKEN = 'pinv_test_sandbox_second_company_0';
const READER = 'pinv_test_sandbox_read_only_token_0';

describe('the sandbox clock', () => {
  let server: TestServer;
  let realNow = Date.parse('2026-11-23T12:00:00.000Z');
  beforeAll(async () => {
    // the app's own clock is the tests' to move: the expiry timer decides by it
    server = await startTestServer({ clock: () => new Date(realNow), expiryCheckMs: 50 });
    await addTestCompany(server, SECOND_TOKEN);
    await server.store.transaction((tx) => tx.companies.addToken(1, READER, new Date(realNow).toISOString(), { name: 'support', readOnly: true }));
  });
  afterAll(() => server.close());

  it("expires a company's charges by its own clock without anyone reading them, and leaves other companies on theirs", async () => {
    const ahead = await request(server, 'POST', '/api/v2/sandbox/clock/advance', { body: { seconds: 7200 } });
    expect(ahead.body).toEqual({ now: '2026-11-23T14:00:00.000Z', offset_seconds: 7200 });
    const mine = await create(server, validPix());
    expect(mine.createdAt).toBe('2026-11-23T14:00:00.000Z');
    expect(mine.pix.expiresAt).toBe('2026-11-23T15:00:00.000Z');
    const theirs = await create(server, validPix(), SECOND_TOKEN);
    expect(theirs.createdAt).toBe('2026-11-23T12:00:00.000Z');
    expect((await request(server, 'GET', '/api/v2/sandbox/clock', { token: SECOND_TOKEN })).body.offset_seconds).toBe(0);

    // an hour of real time later: the first company's pix is an hour past its time, the other's is due now
    realNow += 3_600_000 + 1000;
    const statusOf = async (id: number) => (await sql<{ status: string }>(server, 'SELECT status FROM invoices WHERE id = ?', id))[0]?.status;
    for (let i = 0; i < 100 && ((await statusOf(mine.id)) !== 'expired' || (await statusOf(theirs.id)) !== 'expired'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await statusOf(mine.id)).toBe('expired');
    expect(await statusOf(theirs.id)).toBe('expired');
    const timeline = (id: number, token?: string) => request(server, 'GET', `/api/v2/invoices/${id}`, { token }).then((r) => r.body.timeline.at(-1).at);
    expect(await timeline(mine.id)).toBe('2026-11-23T15:00:01.000Z');
    expect(await timeline(theirs.id, SECOND_TOKEN)).toBe('2026-11-23T13:00:01.000Z');
  });

  it('moves once per Idempotency-Key, never backwards, and a read-only token may only read it', async () => {
    const key = { 'idempotency-key': 'advance-once' };
    const first = await request(server, 'POST', '/api/v2/sandbox/clock/advance', { body: { seconds: 60 }, headers: key });
    const again = await request(server, 'POST', '/api/v2/sandbox/clock/advance', { body: { seconds: 60 }, headers: key });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await request(server, 'GET', '/api/v2/sandbox/clock')).body.now).toBe(first.body.now);

    const back = await request(server, 'POST', '/api/v2/sandbox/clock', { body: { now: '2026-11-23T12:00:00Z' } });
    expect(back.status).toBe(409);
    expect(back.body.error).toBe('invalid_state');
    const later = await request(server, 'POST', '/api/v2/sandbox/clock', { body: { now: '2026-11-24T09:00:00-03:00' } });
    expect(later.body.now).toBe('2026-11-24T12:00:00.000Z');

    expect((await request(server, 'GET', '/api/v2/sandbox/clock', { token: READER })).status).toBe(200);
    for (const [method, path, body] of [['POST', '/api/v2/sandbox/clock/advance', { seconds: 1 }], ['DELETE', '/api/v2/sandbox/clock'], ['PUT', '/api/v2/sandbox/chaos', { duplicate: true }]] as const) {
      const refused = await request(server, method, path, { token: READER, body });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error).toBe('forbidden');
    }
    expect((await request(server, 'DELETE', '/api/v2/sandbox/clock')).body.offset_seconds).toBe(0);
  });
});

describe('postback chaos', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await addTestCompany(server, SECOND_TOKEN);
  });
  afterAll(() => server.close());

  it("is the company's own: narrowed to one of its charges by id or secureId, and another company's charge is a 404", async () => {
    const charge = await create(server, validPix());
    const theirs = await create(server, validPix(), SECOND_TOKEN);
    const set = await request(server, 'PUT', '/api/v2/sandbox/chaos', { body: { reorder: true, invoice_id: charge.id } });
    expect(set.body).toEqual({ duplicate: false, delay_ms: 0, reorder: true, drop_first: 0, bad_signature: false, pix_location: null, invoice_id: charge.secureId, active: true });
    expect((await request(server, 'GET', '/api/v2/sandbox/chaos')).body).toEqual(set.body);
    expect((await request(server, 'GET', '/api/v2/sandbox/chaos', { token: SECOND_TOKEN })).body.active).toBe(false);
    const foreign = await request(server, 'PUT', '/api/v2/sandbox/chaos', { body: { duplicate: true, invoice_id: theirs.secureId } });
    expect(foreign.status).toBe(404);
    const wrong = await request(server, 'PUT', '/api/v2/sandbox/chaos', { body: { duplicate: 'yes', delay_ms: 1.5 } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.details.map((d: { path: string }) => d.path)).toEqual(['duplicate', 'delay_ms']);
    expect((await request(server, 'DELETE', '/api/v2/sandbox/chaos')).body.active).toBe(false);
    // a sandbox setting, not the profile: the company's update_at does not move
    const company = (await request(server, 'GET', '/api/v2/company')).body;
    expect(company.update_at).toBe(company.create_at);
  });
});

describe('rate limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimit: { max: 2, windowMs: 60_000 } });
    await addTestCompany(server, SECOND_TOKEN);
  });
  afterAll(() => server.close());

  it('count per token: one token past its limit does not hold up another; no token, no count', async () => {
    const statuses = async (token?: string) => Promise.all([1, 2, 3].map(() => request(server, 'GET', '/api/v2/company', { token }).then((r) => r.status)));
    expect((await statuses()).sort()).toEqual([200, 200, 429]);
    expect((await statuses(SECOND_TOKEN)).sort()).toEqual([200, 200, 429]);
    const limited = await request(server, 'GET', '/api/v2/company');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/at most 2 a minute/) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(1);
    expect((await request(server, 'GET', '/api/v2/company', { token: 'pinv_test_not_a_token_at_all_000' })).status).toBe(401);
    expect((await request(server, 'GET', '/health', { token: null })).status).toBe(200);
  });
});
