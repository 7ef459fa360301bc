// A merchant's node:test suite (`node --test`, nothing to install but pinvoice): the same checks as
// vitest/checkout.test.ts.
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { startSandbox } from 'pinvoice/testing';

let sandbox;
let hooks;

before(async () => {
  sandbox = await startSandbox();
  hooks = await sandbox.webhooks();
});
beforeEach(() => sandbox.reset());
after(() => sandbox.close());

test('a paid pix charge sends a signed invoice.paid postback', async () => {
  const charge = await sandbox.api.createInvoice({
    method: 'pix',
    total_price_cents: 1990,
    postback_url: hooks.url,
    payer: { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25', phone: '+5511999998888' },
  });
  assert.equal(charge.status, 'pending');

  await sandbox.pay(charge.invoice_id);

  const postback = await hooks.next({ event: 'invoice.paid', invoice: charge.invoice_id });
  assert.equal(postback.verified, true);
  assert.equal(postback.body.total, 1990);
  assert.equal((await sandbox.api.getInvoice(charge.invoice_id)).status, 'paid');
});
