// A merchant's jest suite (native ESM: `NODE_OPTIONS=--experimental-vm-modules jest`, no transform):
// the same checks as vitest/checkout.test.ts. In ESM the jest functions come from @jest/globals.
import { afterAll, beforeAll, beforeEach, expect, test } from '@jest/globals';
import { startSandbox } from 'pinvoice/testing';

let sandbox;
let hooks;

beforeAll(async () => {
  sandbox = await startSandbox();
  hooks = await sandbox.webhooks();
});
beforeEach(() => sandbox.reset());
afterAll(() => sandbox.close());

test('a paid pix charge sends a signed invoice.paid postback', async () => {
  const charge = await sandbox.api.createInvoice({
    method: 'pix',
    total_price_cents: 1990,
    postback_url: hooks.url,
    payer: { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25', phone: '+5511999998888' },
  });
  expect(charge.status).toBe('pending');

  await sandbox.pay(charge.invoice_id);

  const postback = await hooks.next({ event: 'invoice.paid', invoice: charge.invoice_id });
  expect(postback.verified).toBe(true);
  expect(postback.body.total).toBe(1990);
  expect((await sandbox.api.getInvoice(charge.invoice_id)).status).toBe('paid');
});
