// A merchant's suite against production through the proxy: the storefront of test/compat/merchant.ts,
// written for the production gateway and unchanged, takes the proxy as its base URL, and the test
// finds, counts and waits for what it sent with `connectProxy({ url, token })` from pinvoice/testing,
// as it would with a sandbox's `.requests` (contract, "The proxy's own API").
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectProxy, RequestNotFoundError } from '../../src/testing/index.js';
import { createCharge, pixCheckoutBody, type CartItem, type Gateway } from '../compat/merchant.js';
import { ENGINE } from '../support/engine.js';
import { removeWorkDirs } from '../support/processes.js';
import { rig, stopProxies, type Rig } from '../support/proxy.js';

const CART: CartItem[] = [{ name: 'E-book: Receitas do Brasil', quantity: 2, unitPrice: 1990 }];
const CREATE = { method: 'POST', path: '/api/v2/invoices' };

afterAll(async () => {
  await stopProxies();
  removeWorkDirs();
});

describe.runIf(ENGINE === 'sqlite')("a merchant's suite through the proxy, with connectProxy", () => {
  let r: Rig;
  let proxy: Awaited<ReturnType<typeof connectProxy>>;
  let storefront: Gateway;
  beforeAll(async () => {
    r = await rig(true, ['--allow-writes']);
    proxy = await connectProxy({ url: r.proxy.url, token: r.proxy.token });
    storefront = { baseUrl: r.proxy.url, token: r.gateway.token };
  });
  afterAll(() => r?.close());
  beforeEach(() => proxy.requests.clear());

  it('sees the checkout as the storefront sent it to production, and what production answered', async () => {
    const order = `order-${randomUUID().slice(0, 8)}`;
    const charge = await createCharge(storefront, pixCheckoutBody(order, CART, 'https://loja.example.com.br/webhooks/pix'));
    expect(charge.ok, JSON.stringify(charge)).toBe(true);
    const entry = await proxy.requests.wait({ ...CREATE, body: { external_id: order, total_price_cents: 3980 } });
    expect(entry).toMatchObject({ status: 200, token_hint: `${r.gateway.token.slice(0, 8)}…${r.gateway.token.slice(-4)}` });
    expect(entry.upstream).toMatchObject({ status: 200 });
    expect(entry.findings, 'a clean create gives no finding').toEqual([]);
    expect(await proxy.requests.count(CREATE)).toBe(1);
    expect(r.gateway.countRequests(/^\/api\/v2\/invoices$/)).toBeGreaterThanOrEqual(1);
  });

  it("finds production's refusal by its status, and counts each attempt once", async () => {
    const refused = await createCharge(storefront, { ...pixCheckoutBody('order-bad', CART, null), payer: { name: 'Sem E-mail', cpf_cnpj: '529.982.247-25' } });
    expect(refused).toMatchObject({ ok: false, status: 422 });
    await createCharge(storefront, pixCheckoutBody('order-good', CART, null));
    const found = await proxy.requests.find({ ...CREATE, status: 422 });
    expect(found.map((entry) => (entry.body as any).external_id)).toEqual(['order-bad']);
    expect(await proxy.requests.count(CREATE)).toBe(2);
    expect((await proxy.requests.all()).map((entry) => (entry.body as any).external_id)).toEqual(['order-bad', 'order-good']);
  });

  it('fails a wait for what never came with RequestNotFoundError naming the closest entry', async () => {
    await createCharge(storefront, pixCheckoutBody('order-1', CART, null));
    const waited = proxy.requests.wait({ ...CREATE, body: { external_id: 'order-2' } }, { timeout: 300 });
    await expect(waited).rejects.toBeInstanceOf(RequestNotFoundError);
    await expect(waited).rejects.toThrow(/external_id/);
  });

  it('clears the journal', async () => {
    await createCharge(storefront, pixCheckoutBody('order-3', CART, null));
    expect(await proxy.requests.count(CREATE)).toBe(1);
    await proxy.requests.clear();
    expect(await proxy.requests.all()).toEqual([]);
  });
});
