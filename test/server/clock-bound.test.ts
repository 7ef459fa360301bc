// How far the sandbox clock may go (both engines): the sequence (set to 9999-12-31, then an
// hour more) refused by the API and by the dashboard's clock forms, naming the bound; and a charge an
// older build left with an expiry past year 9999 stops nobody: the sweep tells of it once, another
// company's charge expires (its postback sent) in its normal time, and the company's reset answers.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_LATEST } from '../../src/api/clock-bound.js';
import { create } from '../support/charges.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';
import { addTestCompany, request, sql, startTestServer, validPix, type TestServer } from '../support/server.js';

const SECOND_TOKEN = 'pinv_test_clock_bound_second_comp0';

describe("the sandbox clock's bound", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ expiryCheckMs: 50 });
  });
  afterAll(() => server.close());

  it('refuses the issue\'s sequence with 422 naming the bound; a charge made after keeps four-digit years', async () => {
    const far = await request(server, 'POST', '/api/v2/sandbox/clock', { body: { now: '9999-12-31T23:59:59Z' } });
    expect([far.status, far.body.error, far.body.details]).toEqual([422, 'validation_failed', [{ path: 'now', message: expect.stringContaining(CLOCK_LATEST) }]]);
    expect(far.body.message).toBe(`Field now would take the sandbox clock past ${CLOCK_LATEST}, the latest time it may read.`);
    const hour = await request(server, 'POST', '/api/v2/sandbox/clock/advance', { body: { seconds: 3600 } });
    expect([hour.status, hour.body.offset_seconds]).toEqual([200, 3600]);
    const pix = await create(server, validPix());
    expect(pix.pix.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(pix.secureId).toMatch(/^INV-\d{8}-\d{6}-\d{4}$/);

    // at the bound's last half hour, an hour more would cross it: refused, the clock where it was
    const near = await request(server, 'POST', '/api/v2/sandbox/clock', { body: { now: '2099-12-31T23:30:00Z' } });
    expect([near.status, near.body.now]).toEqual([200, '2099-12-31T23:30:00.000Z']);
    const over = await request(server, 'POST', '/api/v2/sandbox/clock/advance', { body: { seconds: 3600 } });
    expect([over.status, over.body.details]).toEqual([422, [{ path: 'seconds', message: `would take the sandbox clock past ${CLOCK_LATEST}, the latest time it may read` }]]);
    expect((await request(server, 'GET', '/api/v2/sandbox/clock')).body.now.slice(0, 16)).toBe('2099-12-31T23:30');
    const latest = await create(server, validPix());
    expect(latest.pix.expiresAt).toBe(new Date(Date.parse(latest.createdAt) + 3_600_000).toISOString());
    expect(latest.pix.expiresAt.startsWith('2100-01-01T')).toBe(true);
    expect((await request(server, 'DELETE', '/api/v2/sandbox/clock')).body.offset_seconds).toBe(0);
  });

  it("the dashboard's clock forms answer the same refusal on the company page", async () => {
    const link = await request(server, 'POST', '/api/v2/sandbox/dashboard/links');
    const signIn = await fetch(link.body.url, { redirect: 'manual' });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const page = await (await fetch(`${server.url}/dashboard/company`, { headers: { cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const post = (path: string, form: Record<string, string>) => fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, ...form }).toString(),
    });
    const set = await post('/dashboard/company/clock/set', { now: '9999-12-31T23:59:59Z' });
    expect(set.status).toBe(422);
    expect(await set.text()).toContain(`now: would take the sandbox clock past ${CLOCK_LATEST}, the latest time it may read`);
    expect((await post('/dashboard/company/clock/set', { now: '2099-12-31T23:30:00Z' })).status).toBe(303);
    const advance = await post('/dashboard/company/clock/advance', { amount: '1', unit: '3600' });
    expect(advance.status).toBe(422);
    expect(await advance.text()).toContain(`seconds: would take the sandbox clock past ${CLOCK_LATEST}`);
    expect((await post('/dashboard/company/clock/reset', {})).status).toBe(303);
  });
});

describe('a charge an older build left with an expiry past year 9999', () => {
  let server: TestServer;
  let receiver: Receiver;
  let stuck: { id: number };
  const lines: string[] = [];
  const secureId = () => `INV-+01000001-${String(stuck.id).padStart(6, '0')}-0042`;
  beforeAll(async () => {
    receiver = await startReceiver();
    // the old build's work, on the database a server is then started on (its first sweep finds it there)
    const db = join(mkdtempSync(join(tmpdir(), 'pinvoice-clock-bound-')), 'old.db');
    const old = await startTestServer({ db, expiryCheckMs: 0 });
    await addTestCompany(old, SECOND_TOKEN);
    stuck = await create(old, validPix());
    // the clock set to 9999-12-31, an hour more, then a pix charge
    await sql(old, "UPDATE invoices SET expires_at = '+010000-01-01T00:59:59.000Z', secure_id = ? WHERE id = ? RETURNING id", secureId(), stuck.id);
    await old.close();
    server = await startTestServer({ db, expiryCheckMs: 50, pixExpirySeconds: 5, postbacks: { baseDelayMs: 100 }, logLine: (line) => lines.push(line) });
  });
  afterAll(async () => {
    await server?.close();
    await receiver.close();
  });

  it("is told once and passed: another company's 5-second pix expires in its time, postback sent; the company's reset answers", async () => {
    const started = Date.now();
    const other = await create(server, validPix({ postback_url: receiver.url }), SECOND_TOKEN);
    const expired = await eventually(() => receiver.received.find((r) => r.json?.event === 'invoice.expired'), 9000, "the second company's invoice.expired");
    expect(expired.json.invoice_id).toBe(other.secureId);
    expect(Date.now() - started).toBeLessThan(8000);

    // (plain fetches: the old build's charge is answered as stored, a year its schema no longer allows)
    const api = (method: string, path: string) => fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${server.token}` }, signal: AbortSignal.timeout(5000) });
    expect((await api('DELETE', '/api/v2/sandbox/clock')).status).toBe(200);
    expect((await api('GET', '/api/v2/invoices')).status).toBe(200);
    expect(((await (await api('GET', `/api/v2/invoices/${stuck.id}`)).json()) as { status: string }).status).toBe('pending');
    const told = lines.filter((line) => line.includes('INV-+01000001'));
    expect(told).toEqual([`expiry: charge ${secureId()} of company 1 is left pending: its expiry +010000-01-01T00:59:59.000Z lies past year 9999 (an older pinvoice let the sandbox clock go there; it now stops at ${CLOCK_LATEST})`]);
  });
});

describe("a company's charge the store cannot read", () => {
  let server: TestServer;
  let receiver: Receiver;
  const lines: string[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ expiryCheckMs: 50, pixExpirySeconds: 5, postbacks: { baseDelayMs: 100 }, logLine: (line) => lines.push(line) });
    await addTestCompany(server, SECOND_TOKEN);
    const broken = await create(server, validPix());
    await sql(server, "UPDATE invoices SET fee = 'not json', expires_at = '2026-01-01T00:00:00.000Z' WHERE id = ? RETURNING id", broken.id);
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it("stops no other company's expiry: its sweep fails, told once, and the others' go on", async () => {
    const started = Date.now();
    const other = await create(server, validPix({ postback_url: receiver.url }), SECOND_TOKEN);
    // nothing reads the charge: only the timer can expire it, some hundred sweeps after the first that failed
    const expired = await eventually(() => receiver.received.find((r) => r.json?.event === 'invoice.expired'), 9000, "the second company's invoice.expired");
    expect(expired.json.invoice_id).toBe(other.secureId);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(lines.filter((line) => line.startsWith('expiry: the sweep of company 1 failed (the others go on):'))).toHaveLength(1);
  });
});
