// Postbacks through real HTTP on loopback: the outbox, signed delivery, retries, timeouts, ordering,
// the delivery history and resend.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { PostbackBody } from '../../src/api/postbacks.js';
import { Transaction } from '../../src/api/schemas.js';
import { verifySignature } from '../../src/domain/signature.js';
import { CARDS, cardCharge, create, refund, sandbox, threeDS } from '../support/charges.js';
import { closedPort, eventually, startReceiver, type Receiver } from '../support/receiver.js';
import { ENGINE, addTestCompany, request, startTestServer, validPix, type TestServer } from '../support/server.js';

const FAST = { attempts: 4, baseDelayMs: 40, timeoutMs: 300 };
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

async function server(postbacks: Record<string, number> = FAST): Promise<TestServer> {
  const s = await startTestServer({ postbacks });
  open.push(s);
  return s;
}

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  open.unshift(r);
  return r;
}

const events = async (s: TestServer, id: number | string) => (await request(s, 'GET', `/api/v2/invoices/${id}/events`)).body.data as any[];
const secretOf = async (s: TestServer, token?: string) => (await request(s, 'GET', '/api/v2/webhooks/secret', token ? { token } : {})).body.webhook_secret as string;

describe('the outbox', () => {
  it('records an event in the same transaction as every kind of change', async () => {
    const s = await server();
    const pix = await create(s, validPix({ postback_url: '' }));
    await sandbox(s, pix.id, 'pay');
    await refund(s, pix.id, { amount_cents: 500 });
    await refund(s, pix.id);
    const refused = await create(s, cardCharge(CARDS.declined, { postback_url: '' }));
    const expired = await create(s, validPix({ postback_url: '' }));
    await sandbox(s, expired.id, 'expire');
    const canceled = await create(s, validPix({ postback_url: '' }));
    await sandbox(s, canceled.id, 'cancel');
    const charged = await create(s, validPix({ postback_url: '' }));
    await sandbox(s, charged.id, 'pay');
    await sandbox(s, charged.id, 'chargeback');
    const types = async (id: number) => (await events(s, id)).map((e) => e.event);
    expect(await types(pix.id)).toEqual(['invoice.created', 'invoice.paid', 'invoice.partially_refunded', 'invoice.refunded']);
    expect(await types(refused.id)).toEqual(['invoice.created', 'invoice.failed']);
    expect(await types(expired.id)).toEqual(['invoice.created', 'invoice.expired']);
    expect(await types(canceled.id)).toEqual(['invoice.created', 'invoice.canceled']);
    expect(await types(charged.id)).toEqual(['invoice.created', 'invoice.paid', 'invoice.chargedback']);
    // without a postback_url there is nowhere to send: recorded, never attempted
    expect((await events(s, pix.id)).every((e) => e.state === 'no_url' && e.attempts.length === 0)).toBe(true);
  });

  it('each event body holds the record as that change left it', async () => {
    const s = await server();
    const pix = await create(s, validPix({ postback_url: '' }));
    await sandbox(s, pix.id, 'pay');
    await refund(s, pix.id, { amount_cents: 500 });
    const [created, paid, partial] = await events(s, pix.id);
    expect(created.payload).toMatchObject({ id: pix.secureId, invoice_id: pix.secureId, event: 'invoice.created', status: 'pending', total: 1990, method: 'pix', paid_at: null });
    expect(paid.payload).toMatchObject({ status: 'paid', paid_at: paid.created_at });
    expect(paid.payload.transaction).toMatchObject({ status: 'paid', refundedAmount: 0 });
    expect(partial.payload.transaction).toMatchObject({ status: 'paid', refundedAmount: 500 });
    for (const e of [created, paid, partial]) {
      expect(PostbackBody.safeParse(e.payload).success).toBe(true);
      // production's payload, extended: the charge's id, the event's own id beside it, no `data` to unwrap
      expect(e.payload.id).toBe(pix.secureId);
      expect(e.id).toBe(e.payload.event_id);
      expect(e.id).toMatch(/^evt_[0-9a-f]{24}$/);
      expect(e.payload).not.toHaveProperty('data');
      expect(e.payload.created_at).toBe(e.created_at);
    }
  });

  it('each body is exactly the record the change answered, however much changed after it', async () => {
    const s = await server();
    const body = validPix({ postback_url: '' });
    const record = (answer: any) => {
      const { invoice_id: _id, qr_code_pix: _qr, ...rest } = answer.data ?? answer;
      return rest;
    };
    const a = (await request(s, 'POST', '/api/v2/invoices', { body })).body;
    // the same payer again: their customer record changes after A's created event was recorded
    const b = (await request(s, 'POST', '/api/v2/invoices', { body })).body;
    const paidA = (await sandbox(s, a.data.id, 'pay')).body;
    await sandbox(s, b.data.id, 'pay');
    const refundedA = (await refund(s, a.data.id, { amount_cents: 500 })).body;
    await sandbox(s, b.data.id, 'chargeback');
    const card = (await request(s, 'POST', '/api/v2/invoices', { body: cardCharge(CARDS.requires3ds, { postback_url: '' }) })).body;
    const authenticated = (await threeDS(s, card.data.id)).body;
    const [created, paid, partial] = await events(s, a.data.id);
    expect(created.payload.transaction).toEqual(record(a));
    expect(paid.payload.transaction).toEqual(paidA);
    expect(partial.payload.transaction).toEqual(refundedA);
    expect(paid.payload.transaction.enterprise.balance_pix).not.toBe(refundedA.enterprise.balance_pix);
    const [cardCreated, cardPaid] = await events(s, card.data.id);
    expect(cardCreated.payload.transaction).toEqual(record(card));
    expect(cardCreated.payload.transaction.card.threeDSecure).toBe('required');
    expect(cardPaid.payload.transaction).toEqual(authenticated);
  });

  it('a change that is refused records no event', async () => {
    const s = await server();
    const pix = await create(s, validPix({ postback_url: '' }));
    expect((await sandbox(s, pix.id, 'chargeback')).status).toBe(409);
    expect((await refund(s, pix.id)).status).toBe(409);
    expect((await events(s, pix.id)).map((e) => e.event)).toEqual(['invoice.created']);
  });
});

describe('delivery', () => {
  it('POSTs each event, signed with the company secret, to the postback_url', async () => {
    const s = await server();
    const r = await receiver();
    const pix = await create(s, validPix({ postback_url: r.url }));
    await sandbox(s, pix.id, 'pay');
    const [created, paid] = await r.waitFor(2);
    const secret = await secretOf(s);
    expect(secret).toMatch(/^whsec_/);
    for (const got of [created, paid]) {
      expect(got?.headers['content-type']).toBe('application/json');
      const body = got?.body ?? '';
      expect(verifySignature({ secret, body, headers: { timestamped: String(got?.headers['pinvoice-signature']) }, toleranceSeconds: 60 }).valid).toBe(true);
      // X-Webhook-Signature, the form production handlers verify: the hex HMAC-SHA256 of the raw body
      expect(got?.headers['x-webhook-signature']).toBe(createHmac('sha256', secret).update(body).digest('hex'));
      expect(got?.headers['pinvoice-event-id']).toBe(got?.json.event_id);
      expect(got?.path).toBe('/postbacks');
    }
    expect(paid?.json).toMatchObject({ id: pix.secureId, event: 'invoice.paid', invoice_id: pix.secureId, status: 'paid', total: 1990, method: 'pix' });
    expect(Transaction.safeParse(paid?.json.transaction).success).toBe(true);
    const history = await eventually(async () => {
      const list = await events(s, pix.id);
      return list.every((e) => e.state === 'delivered') && list;
    });
    expect(history[1].attempts).toEqual([expect.objectContaining({ status_code: 200, error: null, delivered: true, url: r.url })]);
    expect(history[1].delivered_at).not.toBeNull();
  });

  it('retries a receiver that is down until it comes back, on the same URL', async () => {
    const s = await server({ ...FAST, attempts: 6, baseDelayMs: 150 });
    const port = await closedPort();
    const pix = await create(s, validPix({ postback_url: `http://127.0.0.1:${port}/hook` }));
    await eventually(async () => (await events(s, pix.id))[0].attempts.length >= 1, 5000, 'a first failed attempt');
    const r = await receiver(undefined, port);
    const [got] = await r.waitFor(1);
    expect(got?.json.event).toBe('invoice.created');
    const [event] = await eventually(async () => {
      const list = await events(s, pix.id);
      return list[0].state === 'delivered' && list;
    });
    expect(event.attempts[0]).toMatchObject({ status_code: null, delivered: false, error: expect.stringContaining('connection refused') });
    expect(event.attempts.at(-1)).toMatchObject({ status_code: 200, delivered: true });
  });

  it('retries a 500 and stops at the 200', async () => {
    const s = await server();
    const r = await receiver((_request, index) => (index === 0 ? 500 : 200));
    const pix = await create(s, validPix({ postback_url: r.url }));
    await r.waitFor(2);
    const [event] = await eventually(async () => {
      const list = await events(s, pix.id);
      return list[0].state === 'delivered' && list;
    });
    expect(event.attempts.map((a: any) => a.status_code)).toEqual([500, 200]);
    expect(event.attempts[0].error).toBe('HTTP 500: not a 2xx answer');
    expect(r.received[0]?.json.event_id).toBe(r.received[1]?.json.event_id);
  });

  it('cuts off a receiver that hangs, and keeps delivering to others meanwhile', async () => {
    const s = await server({ attempts: 2, baseDelayMs: 40, timeoutMs: 400 });
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver();
    const slow = await create(s, validPix({ postback_url: hanging.url }));
    await hanging.waitFor(1);
    const started = Date.now();
    await create(s, validPix({ postback_url: healthy.url }));
    await healthy.waitFor(1);
    expect(Date.now() - started).toBeLessThan(300);
    const [event] = await eventually(async () => {
      const list = await events(s, slow.id);
      return list[0].state === 'failed' && list;
    });
    expect(event.attempts).toHaveLength(2);
    for (const attempt of event.attempts) {
      expect(attempt).toMatchObject({ status_code: null, error: 'no answer within 400 ms' });
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(390);
    }
  });

  it('gives up after the configured attempts, and a resend starts a fresh budget', async () => {
    const s = await server({ attempts: 3, baseDelayMs: 20, timeoutMs: 300 });
    let up = false;
    const r = await receiver(() => (up ? 204 : 503));
    const pix = await create(s, validPix({ postback_url: r.url }));
    const [failed] = await eventually(async () => {
      const list = await events(s, pix.id);
      return list[0].state === 'failed' && list;
    });
    expect(failed.attempts.map((a: any) => a.status_code)).toEqual([503, 503, 503]);
    expect(failed.next_attempt_at).toBeNull();
    up = true;
    const resent = await request(s, 'POST', `/api/v2/events/${failed.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: failed.id, state: 'pending' });
    const [done] = await eventually(async () => {
      const list = await events(s, pix.id);
      return list[0].state === 'delivered' && list;
    });
    expect(done.attempts.map((a: any) => a.status_code)).toEqual([503, 503, 503, 204]);
    expect(r.received).toHaveLength(4);
  });

  it('delivers the events of one charge in order, even when the first must be retried', async () => {
    const s = await server({ attempts: 5, baseDelayMs: 60, timeoutMs: 300 });
    const r = await receiver((_request, index) => (index < 2 ? 500 : 200));
    const pix = await create(s, validPix({ postback_url: r.url }));
    await sandbox(s, pix.id, 'pay');
    await refund(s, pix.id, { amount_cents: 100 });
    await refund(s, pix.id);
    await r.waitFor(6);
    await eventually(async () => (await events(s, pix.id)).every((e) => e.state === 'delivered'));
    const order = r.received.map((got) => got.json.event);
    expect(order).toEqual(['invoice.created', 'invoice.created', 'invoice.created', 'invoice.paid', 'invoice.partially_refunded', 'invoice.refunded']);
  });

  it('keeps sixteen requests in flight without a warning on the server’s stderr', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const s = await server({ attempts: 1, baseDelayMs: 40, timeoutMs: 300 });
      const hanging = await receiver(() => 'hang');
      const charges = await Promise.all(Array.from({ length: 20 }, () => create(s, validPix({ postback_url: hanging.url }))));
      await hanging.waitFor(16);
      await eventually(async () => (await events(s, charges[19].id))[0].state === 'failed');
      expect(warnings.map((w) => w.name)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('delivers many charges to many receivers, each event exactly to its own URL', async () => {
    const s = await server();
    const receivers = await Promise.all([1, 2, 3].map(() => receiver()));
    const charges = await Promise.all(receivers.flatMap((r) => [create(s, validPix({ postback_url: r.url })), create(s, validPix({ postback_url: r.url }))]));
    await Promise.all(charges.map((c) => sandbox(s, c.id, 'pay')));
    await Promise.all(receivers.map((r) => r.waitFor(4)));
    receivers.forEach((r, i) => {
      const mine = new Set([charges[2 * i]?.secureId, charges[2 * i + 1]?.secureId]);
      expect(r.received.every((got) => mine.has(got.json.invoice_id))).toBe(true);
    });
  });
});

describe('history, secret and resend endpoints', () => {
  it('keep each company to its own events and secret', async () => {
    const s = await server();
    const other = 'pinv_test_second_company_token';
    await addTestCompany(s, other);
    const pix = await create(s, validPix({ postback_url: '' }));
    const [event] = await events(s, pix.id);
    expect(await secretOf(s)).not.toBe(await secretOf(s, other));
    expect((await request(s, 'GET', `/api/v2/events/${event.id}`, { token: other })).status).toBe(404);
    expect((await request(s, 'GET', `/api/v2/invoices/${pix.id}/events`, { token: other })).status).toBe(404);
    expect((await request(s, 'POST', `/api/v2/events/${event.id}/resend`, { token: other })).status).toBe(404);
    expect((await request(s, 'GET', `/api/v2/events/${event.id}`)).body).toMatchObject({ id: event.id, event: 'invoice.created' });
  });

  it('answer 401 without a token, 404 for an unknown event, 409 when there is nowhere to resend', async () => {
    const s = await server();
    expect((await request(s, 'GET', '/api/v2/webhooks/secret', { token: null })).status).toBe(401);
    const missing = await request(s, 'POST', '/api/v2/events/evt_000000000000000000000000/resend');
    expect(missing).toMatchObject({ status: 404, body: { error: 'not_found' } });
    const pix = await create(s, validPix({ postback_url: '' }));
    const [event] = await events(s, pix.id);
    const resend = await request(s, 'POST', `/api/v2/events/${event.id}/resend`);
    expect(resend).toMatchObject({ status: 409, body: { error: 'invalid_state' } });
    expect(resend.body.message).toMatch(/postback_url/);
  });
});

describe.skipIf(ENGINE !== 'postgres')('nodes on one PostgreSQL database', () => {
  // Two apps on one database: only B delivers. B has nothing due, so its own timer would look again
  // in 30 s; the charge created through A reaches the receiver because A's commit NOTIFies B.
  it('wake each other when an event is due: a charge created on one is delivered by the other at once', async () => {
    const db = `wake-${Date.now()}-${Math.random()}`;
    const a = await startTestServer({ db, postbacks: false });
    open.push(a);
    const b = await startTestServer({ db, postbacks: FAST });
    open.push(b);
    const r = await receiver((_request, index) => (index === 0 ? 500 : 200));
    await new Promise((resolve) => setTimeout(resolve, 300)); // B has looked at its empty queue and gone idle
    const pix = await create(a, validPix({ postback_url: r.url }));
    // the first attempt fails: the retry B schedules is a NOTIFY too, and B (the one that knows it) sends it
    await eventually(() => r.received.length >= 2, 10_000, 'the first attempt and its retry');
    // (the second attempt's record commits just after its answer)
    const [event] = await eventually(async () => {
      const list = await events(a, pix.id);
      return list[0]?.state === 'delivered' && list;
    }, 5000, 'the event recorded delivered');
    expect(event).toMatchObject({ event: 'invoice.created', state: 'delivered' });
    expect(event.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([500, 200]);
  });
});
