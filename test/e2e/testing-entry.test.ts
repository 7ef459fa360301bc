// `pinvoice/testing` as a merchant's suite uses it: startSandbox on each engine of the run (a SQLite
// file and :memory: in the SQLite project, a database URL in the PostgreSQL one), its client and
// drivers, postbacks awaited and verified, reset(), sandboxes side by side, and close() leaving nothing.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiRequestError, startSandbox, WebhookTimeoutError, type Engine, type Sandbox, type WebhookReceiver } from '../../src/testing/index.js';
import { locationTxid } from '../../src/domain/pix.js';
import { ENGINE, postgresDatabase } from '../support/engine.js';

const payer = { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25', phone: '+5511999998888' };
const pix = (postback_url: string, total_price_cents = 1990) => ({ method: 'pix' as const, total_price_cents, postback_url, payer });

/** The engines of this run: SQLite's two, or a new PostgreSQL database each time. */
const engines: Array<[string, () => Promise<Engine>]> = ENGINE === 'postgres'
  ? [['postgres', () => postgresDatabase(undefined, 'sandbox')]]
  : [['sqlite', async () => 'sqlite'], ['memory', async () => 'memory']];

/** A GET with the sandbox's token: for what its typed client does not cover (webhook secret, listing, events). */
async function getJson(sandbox: Sandbox, path: string): Promise<any> {
  return (await fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${sandbox.token}` } })).json();
}

/** The sockets and servers the process holds, by kind (what close() must give back). */
const handles = () => process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP')).sort();

describe.each(engines)('startSandbox on %s', (_name, engine) => {
  let sandbox: Sandbox;
  let hooks: WebhookReceiver;

  beforeAll(async () => {
    sandbox = await startSandbox({ engine: await engine() });
    hooks = await sandbox.webhooks();
  });
  afterAll(() => sandbox?.close());

  it('answers a working url, token and webhook secret, and a typed client', async () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.token).toMatch(/^pinv_test_\w{40}$/);
    expect(sandbox.webhookSecret).toMatch(/^whsec_\w{40}$/);
    expect((await getJson(sandbox, '/api/v2/webhooks/secret')).webhook_secret).toBe(sandbox.webhookSecret);
    expect((await sandbox.api.company()).fantasy_name).toBe('Pinvoice Sandbox');
  });

  it('pays a charge and hands the invoice.paid postback over, verified', async () => {
    const charge = await sandbox.api.createInvoice(pix(hooks.url), { idempotencyKey: 'order-1001' });
    expect(charge.invoice_id).toMatch(/^INV-/);
    expect((await sandbox.api.createInvoice(pix(hooks.url), { idempotencyKey: 'order-1001' })).invoice_id).toBe(charge.invoice_id);
    expect((await sandbox.pay(charge.invoice_id)).status).toBe('paid');
    const paid = await hooks.next({ event: 'invoice.paid', invoice: charge.invoice_id });
    expect(paid).toMatchObject({ event: 'invoice.paid', verified: true, body: { invoice_id: charge.invoice_id, status: 'paid', total: 1990 } });
    expect(paid.headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
    // the created event came first and is still there for a next() that asks for it, by the integer id too
    expect((await hooks.next({ event: 'invoice.created', invoice: charge.id })).body.invoice_id).toBe(charge.invoice_id);
    expect(hooks.received.map((d) => d.event)).toEqual(['invoice.created', 'invoice.paid']);
    const refunded = await sandbox.api.refund(charge.invoice_id, { amount_cents: 990 });
    expect(refunded.refundedAmount).toBe(990);
    expect((await hooks.next({ invoice: charge.invoice_id })).event).toBe('invoice.partially_refunded');
  });

  it('fails next() after its timeout, naming what it waited for and what came', async () => {
    const charge = await sandbox.api.createInvoice(pix(hooks.url));
    await hooks.next({ event: 'invoice.created', invoice: charge.invoice_id });
    const started = Date.now();
    const waited = hooks.next({ event: 'invoice.paid', invoice: charge.invoice_id, timeout: 300 });
    await expect(waited).rejects.toThrow(WebhookTimeoutError);
    await expect(waited).rejects.toThrow(new RegExp(`no invoice.paid postback for charge ${charge.invoice_id} reached ${hooks.url} within 300 ms.*invoice.created ${charge.invoice_id}`));
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('drives charges and time: cancel, chargeback, a clock that expires a pix charge', async () => {
    const canceled = await sandbox.api.createInvoice(pix(hooks.url));
    expect((await sandbox.cancel(canceled.invoice_id)).status).toBe('canceled');
    const disputed = await sandbox.api.createInvoice(pix(hooks.url));
    await sandbox.pay(disputed.invoice_id);
    expect((await sandbox.chargeback(disputed.invoice_id)).status).toBe('chargedback');
    await hooks.next({ event: 'invoice.chargedback', invoice: disputed.invoice_id });

    const waiting = await sandbox.api.createInvoice(pix(hooks.url));
    const moved = await sandbox.clock.advance('2h');
    expect(moved.offset_seconds).toBe(7200);
    expect((await sandbox.api.getInvoice(waiting.invoice_id)).status).toBe('expired');
    expect((await hooks.next({ event: 'invoice.expired', invoice: waiting.invoice_id })).verified).toBe(true);
    const later = new Date(Date.parse(moved.now) + 60_000);
    expect((await sandbox.clock.set(later)).now).toBe(later.toISOString());
    expect((await sandbox.clock.reset()).offset_seconds).toBe(0);
    await expect(sandbox.clock.advance('soon')).rejects.toThrow(/"soon" is not a duration/);
  });

  it('says when chaos signs a postback wrongly: verified is false', async () => {
    await sandbox.chaos.set({ bad_signature: true });
    const charge = await sandbox.api.createInvoice(pix(hooks.url));
    expect((await hooks.next({ invoice: charge.invoice_id })).verified).toBe(false);
    expect((await sandbox.chaos.clear()).active).toBe(false);
  });

  it('resets to no charges with the same url, token and secret, clock and chaos off', async () => {
    const before = { url: sandbox.url, token: sandbox.token, secret: sandbox.webhookSecret };
    const charge = await sandbox.api.createInvoice(pix(hooks.url));
    await sandbox.clock.advance('1d');
    await sandbox.chaos.set({ duplicate: true });
    await sandbox.reset();
    expect({ url: sandbox.url, token: sandbox.token, secret: sandbox.webhookSecret }).toEqual(before);
    await expect(sandbox.api.getInvoice(charge.invoice_id)).rejects.toMatchObject({ status: 404 });
    await expect(sandbox.api.getInvoice(charge.invoice_id)).rejects.toBeInstanceOf(ApiRequestError);
    expect(hooks.received).toEqual([]);
    const company = await sandbox.api.company();
    expect([company.balance_pix, company.amount_invoice_total]).toEqual([0, 0]);
    // as a new database: the first charge's id again, real time, no faults, the receiver still listening
    const first = await sandbox.api.createInvoice(pix(hooks.url));
    expect(first.id).toBe(1);
    expect((await sandbox.clock.reset()).offset_seconds).toBe(0);
    await hooks.next({ event: 'invoice.created', invoice: first.invoice_id });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hooks.received).toHaveLength(1); // no duplicate: chaos is off
  });
});

describe('sandboxes side by side', () => {
  it('run in one process with their own ports, tokens and data', async () => {
    const engine = await engines[0]![1]();
    const other = ENGINE === 'postgres' ? await postgresDatabase(undefined, 'sandbox') : 'memory';
    const [a, b] = await Promise.all([startSandbox({ engine }), startSandbox({ engine: other })]);
    try {
      expect(a.url).not.toBe(b.url);
      expect(a.token).not.toBe(b.token);
      const [hooksA, hooksB] = await Promise.all([a.webhooks(), b.webhooks()]);
      const charge = await a.api.createInvoice(pix(hooksA.url));
      await expect(b.api.getInvoice(charge.invoice_id)).rejects.toMatchObject({ status: 404 });
      await a.pay(charge.invoice_id);
      expect((await hooksA.next({ event: 'invoice.paid' })).verified).toBe(true);
      await b.reset();
      expect((await a.api.getInvoice(charge.invoice_id)).status).toBe('paid');
      expect(hooksB.received).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('repeat their ids, token and secret with the same seed, after a reset too', async () => {
    const engine = await engines[0]![1]();
    const other = ENGINE === 'postgres' ? await postgresDatabase(undefined, 'sandbox') : 'memory';
    const [a, b] = await Promise.all([startSandbox({ engine, seed: 42 }), startSandbox({ engine: other, seed: '42' })]);
    try {
      expect([a.token, a.webhookSecret]).toEqual([b.token, b.webhookSecret]);
      const body = { ...pix(''), payer };
      const first = await a.api.createInvoice(body);
      const same = await b.api.createInvoice(body);
      // the codes name each sandbox's own port (its pix location): their txids repeat
      const txid = (code: string | undefined) => locationTxid(code ?? '');
      expect([same.id, same.invoice_id, txid(same.pix?.qrCode), same.createdAt]).toEqual([first.id, first.invoice_id, txid(first.pix?.qrCode), first.createdAt]);
      await a.reset();
      expect((await a.api.createInvoice(body)).invoice_id).toBe(first.invoice_id);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('fixtures and options', () => {
  it('loads fixtures at start and again on reset', async () => {
    const fixtures = { charges: [{ external_id: 'order-7', state: 'paid', method: 'pix', amount: 2500 }] };
    const sandbox = await startSandbox({ engine: await engines[0]![1](), fixtures });
    const listed = async () => (await getJson(sandbox, '/api/v2/invoices')).data;
    try {
      expect(await listed()).toEqual([expect.objectContaining({ externalRef: 'order-7', status: 'paid', amount: 2500 })]);
      const extra = await sandbox.api.createInvoice(pix(''));
      await sandbox.reset();
      await expect(sandbox.api.getInvoice(extra.invoice_id)).rejects.toMatchObject({ status: 404 });
      // the fixture's charge made again (a new charge: its ids repeat only with a seed)
      expect(await listed()).toEqual([expect.objectContaining({ id: 1, externalRef: 'order-7', status: 'paid', amount: 2500 })]);
    } finally {
      await sandbox.close();
    }
  });

  it('passes postbackAttempts to the server: one failed delivery and the event has failed', async () => {
    const sandbox = await startSandbox({ engine: await engines[0]![1](), postbackAttempts: 1 });
    try {
      const hooks = await sandbox.webhooks();
      const url = hooks.url;
      await hooks.close(); // nobody listens there any more
      const charge = await sandbox.api.createInvoice(pix(url));
      const events = async () => (await getJson(sandbox, `/api/v2/invoices/${charge.invoice_id}/events`)).data;
      for (let i = 0; i < 100 && (await events())[0]?.state !== 'failed'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await events())[0]).toMatchObject({ state: 'failed', attempts: [expect.objectContaining({ status_code: null })] });
    } finally {
      await sandbox.close();
    }
  });

  it.skipIf(ENGINE !== 'postgres')('starts on a PostgreSQL database a run before used: its charges cleared, a seeded run repeats', async () => {
    const url = await postgresDatabase(undefined, 'sandbox');
    const first = await startSandbox({ engine: url, seed: 5 });
    const made = await first.api.createInvoice(pix(''));
    await first.close();
    const again = await startSandbox({ engine: url, seed: 5 });
    try {
      expect(again.token).toBe(first.token);
      expect((await again.api.createInvoice(pix(''))).invoice_id).toBe(made.invoice_id);
    } finally {
      await again.close();
    }
  });

  it('refuses options it cannot use, naming them', async () => {
    await expect(startSandbox({ engine: 'mysql://localhost/x' })).rejects.toThrow(/engine must be 'sqlite', 'memory' or a postgres:\/\/ URL/);
    await expect(startSandbox({ postbackAttempts: 0 })).rejects.toThrow(/postbackAttempts must be a whole number of at least 1/);
    await expect(startSandbox({ clock: 'tomorrow' })).rejects.toThrow(/clock must be an ISO 8601 time/);
    await expect(startSandbox({ seed: '' })).rejects.toThrow(/seed: a seed is a finite number or a non-empty text/);
  });

  it('stands its clock still at the instant given', async () => {
    const sandbox = await startSandbox({ engine: await engines[0]![1](), clock: '2030-05-01T09:00:00Z' });
    try {
      expect((await sandbox.api.createInvoice(pix(''))).createdAt).toBe('2030-05-01T09:00:00.000Z');
      expect((await sandbox.clock.advance(90)).now).toBe('2030-05-01T09:01:30.000Z');
    } finally {
      await sandbox.close();
    }
  });
});

describe('close()', () => {
  it('leaves no server, socket, timer or folder behind', async () => {
    const previous = process.env.TMPDIR;
    const folder = mkdtempSync(join(tmpdir(), 'pinvoice-entry-'));
    process.env.TMPDIR = folder; // the sandbox's temporary folder is made in here, where the test can look
    const engine = await engines[0]![1]();
    const before = handles();
    try {
      const sandbox = await startSandbox({ engine });
      const hooks = await sandbox.webhooks();
      const charge = await sandbox.api.createInvoice(pix(hooks.url));
      await sandbox.pay(charge.invoice_id);
      await hooks.next({ event: 'invoice.paid' });
      const waiting = expect(hooks.next({ event: 'invoice.refunded', timeout: 60_000 })).rejects.toThrow(/closed while next\(\) waited/);
      if (ENGINE === 'sqlite') expect(readdirSync(folder)).toHaveLength(1);
      await sandbox.close();
      await waiting;
      // pg's pool.end() resolves as each connection ends, a moment before its socket is closed
      for (let i = 0; ENGINE === 'postgres' && i < 40 && handles().length > before.length; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(handles()).toEqual(before);
      expect(readdirSync(folder)).toEqual([]);
      await expect(fetch(`${sandbox.url}/health`)).rejects.toThrow();
      await expect(fetch(hooks.url)).rejects.toThrow();
      await sandbox.close(); // twice is fine
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
  });
});
