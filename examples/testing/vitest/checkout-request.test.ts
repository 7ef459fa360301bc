// What the merchant's checkout sent the gateway, asserted on: the sandbox keeps every request made with
// its token, and sandbox.requests.wait finds the create by a part of its body (or fails naming the
// member that differed, expected and received).
import { startSandbox, type Sandbox } from 'pinvoice/testing';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startPixCheckout } from '../src/checkout.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
beforeEach(() => sandbox.reset());
afterAll(() => sandbox.close());

test('the checkout creates the order as a pix charge, with its id and the CPF as digits', async () => {
  const order = { id: 'order-1001', totalCents: 1990, customer: { name: 'Fulano de Tal', email: 'fulano@example.com', cpf: '529.982.247-25' } };
  const { invoiceId } = await startPixCheckout({ baseUrl: sandbox.url, apiKey: sandbox.token }, order);

  const sent = await sandbox.requests.wait({
    method: 'POST',
    path: '/api/v2/invoices',
    body: { method: 'pix', total_price_cents: 1990, external_id: 'order-1001', payer: { cpf_cnpj: '52998224725' } },
  });
  expect(sent.status).toBe(200);
  expect(sent.idempotency_key).toBe('checkout-order-1001');
  expect(sent.response_body).toMatchObject({ data: { invoice_id: invoiceId } });
  expect(await sandbox.requests.count({ method: 'POST' })).toBe(1);
});
