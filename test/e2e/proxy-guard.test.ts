// The proxy's money guard and its answers to a failing gateway (contract, "Production through a
// proxy"): a write is refused without --allow-writes and never reaches production; --max-amount caps
// creates and refunds, in reais; a gateway that refuses the connection, shows a certificate the proxy
// cannot trust, stays silent past --timeout or cuts its answer short is answered as the contract says,
// journaled, and a write is never sent twice.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../support/engine.js';
import { pixBody, removeWorkDirs, workDir } from '../support/processes.js';
import { startProductionGateway, type ProductionGateway } from '../support/production-gateway.js';
import { entryOf, own, raw, rig, startProxy, stopProxies, type ProxyProcess, type Rig } from '../support/proxy.js';
import { eventually } from '../support/receiver.js';
import { makeTestCa, type LeafKind, type TestCa } from '../support/test-ca.js';

afterAll(async () => {
  await stopProxies();
  removeWorkDirs();
});

/** A JSON body with its length said (Node sends a DELETE's body with neither a length nor chunks otherwise). */
const json = (body: unknown) => {
  const text = JSON.stringify(body);
  return { headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, body: text };
};
const INVOICES = /^\/api\/v2\/invoices/;

/** The journal's entries of `method path`, oldest first. */
async function entriesAt(proxy: ProxyProcess, method: string, path: string): Promise<any[]> {
  const answer = await own(proxy, `/requests?${new URLSearchParams({ method, path, limit: '500' })}`);
  if (answer.status !== 200) throw new Error(`the proxy's journal answered ${answer.status}: ${answer.text}`);
  return answer.body.data;
}

describe.runIf(ENGINE === 'sqlite')('the money guard', () => {
  let closed: Rig;
  let capped: Rig;
  beforeAll(async () => {
    [closed, capped] = await Promise.all([rig(false), rig(false, ['--allow-writes', '--max-amount', '100', '--timeout', '1'])]);
  });
  afterAll(async () => {
    await closed?.close();
    await capped?.close();
  });

  const post = (r: Rig, path: string, value: unknown) => {
    const body = json(value);
    return raw(`${r.proxy.url}${path}`, { method: 'POST', body: body.body, headers: { ...r.auth, ...body.headers } });
  };

  it('refuses every write without --allow-writes, naming the flag; production never sees it; the refusal is journaled', async () => {
    const record = closed.gateway.addRecord({ status: 'paid' });
    for (const [method, path] of [['POST', '/api/v2/invoices'], ['POST', `/api/v2/invoices/${record.id}/refund`], ['PUT', `/api/v2/invoices/${record.id}`], ['DELETE', `/api/v2/invoices/${record.id}`]] as const) {
      const body = json(pixBody());
      const got = await raw(`${closed.proxy.url}${path}`, { method, body: body.body, headers: { ...closed.auth, ...body.headers } });
      expect(got.status, `${method} ${path}`).toBe(403);
      expect(got.json).toMatchObject({ error: 'proxy_write_refused', message: expect.stringContaining('--allow-writes') });
      expect((await entryOf(closed.proxy, got.entry))).toMatchObject({ method, path, status: 403, error: 'proxy_write_refused', upstream: null });
    }
    expect(closed.gateway.countRequests(INVOICES)).toBe(0);
    const read = await raw(`${closed.proxy.url}/api/v2/invoices/${record.id}`, { headers: closed.auth });
    expect(read.status, 'a read passes').toBe(200);
    // HEAD and OPTIONS are reads too: they reach production (which answers OPTIONS 405, passed back)
    expect((await raw(`${closed.proxy.url}/api/v2/invoices/${record.id}`, { method: 'HEAD', headers: closed.auth })).status).toBe(405);
    expect((await raw(`${closed.proxy.url}/api/v2/invoices`, { method: 'OPTIONS', headers: closed.auth })).status).toBe(405);
    expect(closed.gateway.requests.map((request) => request.method)).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('refuses a create above --max-amount, naming the cap and the amount in reais; one at the cap passes', async () => {
    const before = capped.gateway.countRequests(INVOICES);
    const over = await post(capped, '/api/v2/invoices', pixBody({ total_price_cents: 10001, items: [{ name: 'TV', quantity: 1, unit_price: 10001 }] }));
    expect(over.status).toBe(403);
    expect(over.json.error).toBe('proxy_amount_refused');
    expect(over.json.message).toContain('R$ 100,00');
    expect(over.json.message).toContain('R$ 100,01');
    expect(capped.gateway.countRequests(INVOICES), 'not sent').toBe(before);
    expect(await entryOf(capped.proxy, over.entry)).toMatchObject({ method: 'POST', status: 403, error: 'proxy_amount_refused' });
    const at = await post(capped, '/api/v2/invoices', pixBody({ total_price_cents: 10000, items: [{ name: 'TV', quantity: 1, unit_price: 10000 }] }));
    expect(at.status).toBe(200);
    expect(capped.gateway.countRequests(INVOICES)).toBe(before + 1);
  });

  it('refuses a refund above --max-amount the same way, and one without an amount; one under it passes', async () => {
    const record = capped.gateway.addRecord({ status: 'paid', amount: 50000 });
    const path = `/api/v2/invoices/${record.id}/refund`;
    const over = await post(capped, path, { amount_cents: 25000 });
    expect(over.status).toBe(403);
    expect(over.json.error).toBe('proxy_amount_refused');
    expect(over.json.message).toContain('R$ 250,00');
    expect(over.json.message).toContain('R$ 100,00');
    // without amount_cents a refund is of whatever is left, which the cap cannot check
    const whole = await post(capped, path, {});
    expect(whole.status).toBe(403);
    expect(whole.json.error).toBe('proxy_amount_refused');
    expect(capped.gateway.countRequests(/\/refund$/)).toBe(0);
    const under = await post(capped, path, { amount_cents: 5000 });
    expect(under.status).toBe(200);
    expect(capped.gateway.record(record.id)!.refundedAmount).toBe(5000);
  });

  it('answers a silent gateway 504 gateway_timeout after --timeout, and never sends the write again', async () => {
    capped.gateway.once('POST', INVOICES, { status: 200, silent: true });
    const before = capped.gateway.countRequests(INVOICES);
    const started = Date.now();
    const got = await post(capped, '/api/v2/invoices', pixBody());
    expect(got.status).toBe(504);
    expect(got.json.error).toBe('gateway_timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(await entryOf(capped.proxy, got.entry)).toMatchObject({ status: 504, error: 'gateway_timeout' });
    expect(capped.gateway.countRequests(INVOICES), 'the write was sent once').toBe(before + 1);
  });

  it("cuts the client's connection when the gateway cuts its answer short, and never sends the write again", async () => {
    for (const method of ['GET', 'POST'] as const) {
      const record = capped.gateway.addRecord();
      const path = method === 'GET' ? `/api/v2/invoices/${record.id}` : '/api/v2/invoices';
      capped.gateway.plant({ method, path, answer: { status: 200, body: record, cut: true } });
      const before = capped.gateway.countRequests(INVOICES);
      const journaled = (await entriesAt(capped.proxy, method, path)).length;
      const cut = method === 'GET' ? raw(`${capped.proxy.url}${path}`, { headers: capped.auth }) : post(capped, path, pixBody());
      await expect(cut, `${method}: the client never gets a complete answer`).rejects.toThrow(/cut|aborted|socket hang up|ECONNRESET|premature/i);
      // the entry is written once the exchange is over: a retry would have come before it
      const entries = await eventually(async () => {
        const now = await entriesAt(capped.proxy, method, path);
        return now.length > journaled && now;
      }, 10_000, `the ${method}'s entry`);
      expect(entries.at(-1).error, JSON.stringify(entries.at(-1))).toBeTruthy();
      expect(capped.gateway.countRequests(INVOICES), `${method}: sent once`).toBe(before + 1);
    }
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.runIf(ENGINE === 'sqlite')('a gateway the proxy cannot reach', () => {
  const gateways: ProductionGateway[] = [];
  let ca: TestCa;
  beforeAll(() => {
    ca = makeTestCa();
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    ca?.remove();
  });

  async function proxyTo(origin: string, env: Record<string, string> = {}): Promise<ProxyProcess> {
    const { dir, env: home } = workDir('pinvoice-proxy-');
    return startProxy(['--to', origin, '--port', '0', '--journal', `${dir}/journal.db`], { ...home, ...env });
  }

  async function unreachable(proxy: ProxyProcess, origin: string, cause: RegExp) {
    const got = await raw(`${proxy.url}/api/v2/invoices?id=4242`, { headers: { authorization: 'Bearer prod_live_whatever_0000' } });
    expect(got.status).toBe(502);
    expect(got.json.error).toBe('gateway_unreachable');
    expect(got.json.message).toContain(origin);
    expect(got.json.message).toMatch(cause);
    const entry = await entryOf(proxy, got.entry);
    expect(entry).toMatchObject({ status: 502, upstream: null });
    expect(entry.error).toMatch(/gateway_unreachable/);
    return got;
  }

  it('answers 502 gateway_unreachable naming the origin and "refused" when nothing listens there', async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    await unreachable(await proxyTo(origin), origin, /refused/i);
  });

  it.each([
    ['self-signed', false, /self-signed|self signed/i],
    ['self-signed', true, /self-signed|self signed/i],
    ['expired', true, /expired/i],
    ['wrong-host', true, /host|name|altname|wrong\.example/i],
  ] as Array<[LeafKind, boolean, RegExp]>)('answers 502 gateway_unreachable naming the cause for a %s certificate (local CA trusted: %s)', async (kind, trusted, cause) => {
    const gateway = await startProductionGateway({ tls: ca.leaf(kind) });
    gateways.push(gateway);
    const proxy = await proxyTo(gateway.url, trusted ? { NODE_EXTRA_CA_CERTS: ca.caCertPath } : {});
    await unreachable(proxy, gateway.url, cause);
    expect(gateway.requests, 'no request got through').toEqual([]);
  });

  it("answers 502 for a leaf of the local CA when the proxy is not told to trust it (no NODE_EXTRA_CA_CERTS)", async () => {
    const gateway = await startProductionGateway({ tls: ca.leaf('valid') });
    gateways.push(gateway);
    await unreachable(await proxyTo(gateway.url), gateway.url, /certificate|verify|issuer/i);
  });
});
