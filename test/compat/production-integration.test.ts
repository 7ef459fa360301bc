// Production fidelity, end to end over real HTTP against the built `pinvoice serve`: a merchant's
// storefront and postback handlers written for the production gateway (merchant.ts) run unchanged.
// The storefront's bodies are accepted and mapped, its way of reading answers and errors works,
// Idempotency-Key replays, and three styles of postback handler each see their order paid after
// `sandbox pay`, answering 2xx to every delivery (one attempt per event).
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { eventually } from '../support/receiver.js';
import {
  createCharge, fetchWebhookSecret, lookUpById, pixCheckoutBody, startMerchantApp, unwrapData, verifyingSignature,
  type CartItem, type Gateway, type MerchantApp,
} from './merchant.js';

const TOKEN = 'pinv_test_compat_storefront_00001';
const CART: CartItem[] = [
  { name: 'E-book: Receitas do Brasil', quantity: 2, unitPrice: 1990 },
  { name: 'Curso online', quantity: 1, unitPrice: 4500 },
];
const TOTAL = 2 * 1990 + 4500;

const home = tempHome();
let server: ServeProcess;
let gateway: Gateway;
let secret: string;
let byId: MerchantApp;
let unwrapping: MerchantApp;
let verifying: MerchantApp;

beforeAll(async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'pinvoice-compat-')), 'gateway.db');
  server = await serve(['--port', '0', '--db', db, '--token', TOKEN, '--postback-base-delay', '100'], home);
  gateway = { baseUrl: server.url, token: TOKEN };
  secret = await fetchWebhookSecret(gateway);
  [byId, unwrapping, verifying] = await Promise.all([
    startMerchantApp(lookUpById),
    startMerchantApp(unwrapData),
    startMerchantApp(verifyingSignature(secret)),
  ]);
});
afterAll(async () => {
  await Promise.all([byId, unwrapping, verifying].map((app) => app?.close()));
  await server?.stop();
});

/** The test's own reads of the gateway (not the merchant's code). */
async function api(path: string, method = 'GET'): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: response.status, body: await response.json() };
}

/** The storefront's checkout: create the charge, then keep the order under the gateway's id. */
async function checkout(app: MerchantApp | null, extra: Record<string, unknown> = {}) {
  const body = { ...pixCheckoutBody(`order-${randomUUID()}`, CART, app?.url ?? null), ...extra };
  const charge = await createCharge(gateway, body);
  if (!charge.ok) throw new Error(`checkout failed: HTTP ${charge.status}: ${charge.message}`);
  app?.orders.set(charge.invoiceId, { status: 'pending' });
  return { ...charge, body };
}

async function settledEvents(invoiceId: string, state: string): Promise<any[]> {
  return eventually(async () => {
    const { body } = await api(`/api/v2/invoices/${invoiceId}/events`);
    return body.data.length === 2 && body.data.every((e: any) => e.state === state) && body.data;
  }, 8_000, `both events of ${invoiceId} ${state}`);
}

/** Pays the charge in the sandbox, waits for the merchant's order to be paid, checks every delivery. */
async function payAndExpectPaid(app: MerchantApp, invoiceId: string, via: 'cli' | 'http') {
  if (via === 'cli') {
    const paid = await run(['sandbox', 'pay', invoiceId], { env: { ...home, PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url } });
    expect(paid.code, paid.stderr).toBe(0);
  } else {
    expect((await api(`/api/v2/sandbox/invoices/${invoiceId}/pay`, 'POST')).status).toBe(200);
  }
  await eventually(() => app.orders.get(invoiceId)?.status === 'paid', 8_000, `order ${invoiceId} paid`);
  const events = await settledEvents(invoiceId, 'delivered');
  expect(events.map((e) => e.event)).toEqual(['invoice.created', 'invoice.paid']);
  // invoice.created may reach the handler before the create answer reaches the storefront (as in
  // production): a handler that does not know the id yet answers 404 and gets it again. The payment
  // comes long after the order is saved: found, and accepted at the first attempt.
  const paid = events[1];
  expect(paid.attempts.map((a: any) => a.status_code)).toEqual([200]);
  const paidDeliveries = app.deliveries.filter((d) => d.headers['pinvoice-event-id'] === paid.id);
  expect(paidDeliveries.map((d) => d.answered)).toEqual([200]);
}

describe('the storefront, creating charges', () => {
  it('creates a pix charge from a production-shaped body and reads data.invoice_id and data.qr_code_pix', async () => {
    const { data, invoiceId, qrCodePix, body, replayed } = await checkout(null);
    expect(replayed).toBe(false);
    expect(invoiceId).toMatch(/^INV-/);
    expect(invoiceId).toBe(data.secureId);
    expect(qrCodePix).toMatch(/^000201/);
    expect(qrCodePix).toBe(data.pix.qrCode);
    expect(data).toMatchObject({ amount: TOTAL, status: 'pending', paymentMethod: 'pix', externalRef: body.external_id, metadata: body.metadata });
    expect(data.customer.address).toMatchObject({ neighborhood: 'Bela Vista', country: 'BR', complement: null, zipCode: '01310100' });
    expect(data.customer.phone).toBe('5511987654321');
    expect(data.items.map((item: any) => [item.title, item.quantity, item.unitPrice, item.tangible])).toEqual(
      CART.map((item) => [item.name, item.quantity, item.unitPrice, false]),
    );
  });

  it('looks a charge up by data.invoice_id and gets the bare record, same id', async () => {
    const { data, invoiceId } = await checkout(null);
    for (const path of [`/api/v2/invoices/${invoiceId}`, `/api/v2/invoices?id=${encodeURIComponent(invoiceId)}`]) {
      const got = await api(path);
      expect(got.status).toBe(200);
      expect(got.body).not.toHaveProperty('data');
      expect(got.body).toMatchObject({ id: data.id, secureId: invoiceId, externalRef: data.externalRef, status: 'pending' });
    }
  });

  it('accepts postback_url: null and an unknown field; the charge has no URL and its events are no_url', async () => {
    const { data, invoiceId } = await checkout(null, { postback_url: null, installments_hint: { max: 3 }, utm_source: 'newsletter' });
    expect(data.postbackUrl).toBe('');
    expect(data).not.toHaveProperty('utm_source');
    expect((await api(`/api/v2/sandbox/invoices/${invoiceId}/pay`, 'POST')).status).toBe(200);
    const events = await settledEvents(invoiceId, 'no_url');
    expect(events.flatMap((e) => e.attempts)).toEqual([]);
  });

  it('replays an Idempotency-Key: the same data.invoice_id, Idempotent-Replayed, nothing created', async () => {
    const key = randomUUID();
    const body = pixCheckoutBody(`order-${randomUUID()}`, CART, null);
    const first = await createCharge(gateway, body, key);
    const again = await createCharge(gateway, body, key);
    if (!first.ok || !again.ok) throw new Error('a create failed');
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.invoiceId).toBe(first.invoiceId);
    expect(again.data.id).toBe(first.data.id);
    // the next charge takes the very next id: the replay created nothing in between
    const next = await checkout(null);
    expect(next.data.id).toBe(first.data.id + 1);
    expect((await api(`/api/v2/invoices/${first.invoiceId}/events`)).body.data.map((e: any) => e.event)).toEqual(['invoice.created']);
  });

  it('reads a readable message from message ?? error for bad requests', async () => {
    const usd = await createCharge(gateway, { ...pixCheckoutBody('order-usd', CART, null), currency: 'USD' });
    const payer = { ...(pixCheckoutBody('x', CART, null).payer as object), cpf_cnpj: '000.000.000-00' };
    const zeros = await createCharge(gateway, { ...pixCheckoutBody('order-zeros', CART, null), payer });
    for (const [result, path, detail] of [[usd, 'currency', /BRL/], [zeros, 'payer.cpf_cnpj', /all (of )?its digits are equal/i]] as const) {
      if (result.ok) throw new Error(`expected ${path} to be refused`);
      expect(result.status).toBe(422);
      expect(result.body.error).toBe('validation_failed');
      expect(result.message).toMatch(/^[A-Z].{10,}/);
      expect(result.message).not.toBe(result.body.error);
      // integrations show message alone: it names the field and what is wrong with it
      expect(result.message).toContain(path);
      expect(result.message).toMatch(detail);
      expect(result.body.details).toEqual([{ path, message: expect.stringMatching(detail) }]);
    }
  });
});

describe('postback handlers written for production', () => {
  it('(a) looks the sale up by body.id: the order ends paid after `pinvoice sandbox pay`', async () => {
    const { invoiceId } = await checkout(byId);
    await payAndExpectPaid(byId, invoiceId, 'cli');
    const mine = byId.deliveries.filter((d) => JSON.parse(d.raw.toString('utf8')).id === invoiceId);
    expect(new Set(mine.map((d) => d.headers['pinvoice-event-id'])).size).toBe(2);
    for (const { raw, headers } of mine) {
      const body = JSON.parse(raw.toString('utf8'));
      expect(body).not.toHaveProperty('data');
      expect(body).toMatchObject({ invoice_id: invoiceId, total: TOTAL, method: 'pix', event_id: headers['pinvoice-event-id'] });
      expect(body.event_id).toMatch(/^evt_/);
      expect(body.transaction.secureId).toBe(invoiceId);
      expect(body.paid_at === null).toBe(body.event === 'invoice.created');
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers['pinvoice-signature'])) ?? [];
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${raw.toString('utf8')}`).digest('hex'));
    }
  });

  it('(b) unwraps body.data ?? body and takes invoice_id ?? id: the order ends paid', async () => {
    const { invoiceId } = await checkout(unwrapping);
    await payAndExpectPaid(unwrapping, invoiceId, 'http');
  });

  it('(c) verifies X-Webhook-Signature over the raw bytes: every delivery accepted, the order ends paid', async () => {
    const { invoiceId } = await checkout(verifying);
    await payAndExpectPaid(verifying, invoiceId, 'cli');
  });

  it('(c) answers 401 to a forged postback and leaves the order unpaid', async () => {
    const { invoiceId } = await checkout(verifying);
    const forged = JSON.stringify({ id: invoiceId, invoice_id: invoiceId, event: 'invoice.paid', status: 'paid', total: TOTAL, method: 'pix' });
    const send = (body: string, signature: string) =>
      fetch(verifying.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': signature }, body });
    expect((await send(forged, createHmac('sha256', 'whsec_guessed').update(forged).digest('hex'))).status).toBe(401);
    expect((await send(forged, '')).status).toBe(401);
    // signed over other bytes (the same JSON, re-indented): still refused, the raw body is what counts
    expect((await send(JSON.stringify(JSON.parse(forged), null, 2), createHmac('sha256', secret).update(forged).digest('hex'))).status).toBe(401);
    expect(verifying.orders.get(invoiceId)?.status).toBe('pending');
    // and the handler's check is the one the gateway's own deliveries pass
    expect((await send(forged, createHmac('sha256', secret).update(forged).digest('hex'))).status).toBe(200);
  });
});
