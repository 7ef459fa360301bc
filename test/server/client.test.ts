import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { ApiRequestError, NetworkError, RedirectError, UnexpectedResponseError } from '../../src/client/errors.js';
import { backoffMs, retryAfterMs } from '../../src/client/http.js';
import { startTestServer, validPix, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const noSleep = async () => undefined;

/** A stand-in for a third-party gateway: answers from a script, then proxies to the real server. */
async function scripted(handler: (req: IncomingMessage, res: ServerResponse, n: number) => boolean) {
  let n = 0;
  const seen: { method?: string; url?: string; key?: string | string[] }[] = [];
  const proxy = createServer(async (req, res) => {
    seen.push({ method: req.method, url: req.url, key: req.headers['idempotency-key'] });
    if (handler(req, res, n++)) return;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const answer = await fetch(`${server.url}${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((resolve) => proxy.close(resolve)) };
}

describe('createClient against the real server', () => {
  const client = () => createClient({ baseUrl: server.url, token: server.token, sleep: noSleep });

  it('creates and reads invoices and the company, each answer kept as received beside what is read from it', async () => {
    const created = await client().createInvoice(validPix() as any);
    expect(created.whole).toBe(true);
    // data is the record plus invoice_id and qr_code_pix, which repeat secureId and pix.qrCode
    const { invoice_id: invoiceId, qr_code_pix: qrCodePix, ...record } = created.data as Record<string, any>;
    expect([invoiceId, qrCodePix]).toEqual([record.secureId, record.pix.qrCode]);
    const read = await client().getInvoice(created.view.secureId!);
    expect(read.raw).toEqual(record);
    expect(read).toMatchObject({ id: String(record.id), secureId: record.secureId, status: 'pending', method: 'pix', amount: record.amount, others: [] });
    expect((await client().company()).id).toBe(String(record.companyId));
  });

  it('turns error answers into typed errors carrying status, code and details', async () => {
    await expect(client().getInvoice(424242)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const bad = await client().createInvoice({ ...validPix(), total_price_cents: 1 } as any).catch((e) => e);
    expect(bad).toBeInstanceOf(ApiRequestError);
    expect(bad.details[0].path).toBe('total_price_cents');
    const anonymous = createClient({ baseUrl: server.url, token: 'nope-nope-nope', sleep: noSleep });
    await expect(anonymous.company()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });
});

describe('retries', () => {
  it('retries 503 and 429 (honouring Retry-After) on GET, then succeeds', async () => {
    const waits: number[] = [];
    const flaky = await scripted((_req, res, n) => {
      if (n === 0) res.writeHead(503).end('{}');
      else if (n === 1) res.writeHead(429, { 'retry-after': '2' }).end('{}');
      return n < 2;
    });
    try {
      const client = createClient({ baseUrl: flaky.url, token: server.token, sleep: async (ms) => void waits.push(ms) });
      expect((await client.company()).id).toMatch(/^[1-9]\d*$/);
      expect(flaky.seen).toHaveLength(3);
      expect(waits[1]).toBe(2000);
    } finally {
      await flaky.close();
    }
  });

  it('retries a create with the same Idempotency-Key, so a retry cannot duplicate the charge', async () => {
    const flaky = await scripted((_req, res, n) => (n === 0 ? (res.writeHead(502).end('{}'), true) : false));
    try {
      const client = createClient({ baseUrl: flaky.url, token: server.token, sleep: noSleep });
      await client.createInvoice(validPix() as any);
      expect(flaky.seen.map((s) => s.method)).toEqual(['POST', 'POST']);
      expect(flaky.seen[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
      expect(flaky.seen[1]?.key).toBe(flaky.seen[0]?.key);
    } finally {
      await flaky.close();
    }
  });

  it('does not retry 500 or 4xx, and gives up after the retries', async () => {
    const always = await scripted((_req, res) => (res.writeHead(503).end('{"error":"internal","message":"down"}'), true));
    try {
      const client = createClient({ baseUrl: always.url, token: server.token, sleep: noSleep, retries: 2 });
      await expect(client.company()).rejects.toMatchObject({ status: 503 });
      expect(always.seen).toHaveLength(3);
    } finally {
      await always.close();
    }
    const broken = await scripted((_req, res) => (res.writeHead(500).end('{"error":"internal","message":"boom"}'), true));
    try {
      await expect(createClient({ baseUrl: broken.url, sleep: noSleep }).company()).rejects.toMatchObject({ status: 500, message: 'boom' });
      expect(broken.seen).toHaveLength(1);
    } finally {
      await broken.close();
    }
  });

  it('times out a server that does not answer, as a NetworkError', async () => {
    const hang = await scripted(() => true);
    try {
      const client = createClient({ baseUrl: hang.url, timeoutMs: 200, retries: 0, sleep: noSleep });
      const error = await client.company().catch((e) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.message).toMatch(/no answer from http:\/\/127\.0\.0\.1:\d+ within 200 ms/);
    } finally {
      await hang.close();
    }
  });

  it('Retry-After and backoff stay bounded', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('3600')).toBe(10_000);
    expect(retryAfterMs(new Date(Date.now() + 1500).toUTCString(), Date.now())).toBeLessThanOrEqual(1500);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(backoffMs(0, 0)).toBe(125);
    expect(backoffMs(20, 1)).toBe(10_000);
  });
});

describe('for invoice create --batch', () => {
  it('waitOutRateLimit waits out every 429 (the retry budget is for other failures), with the same key, over one keep-alive connection', async () => {
    const ports = new Set<number | undefined>();
    const limited = await scripted((req, res, n) => {
      ports.add(req.socket.remotePort);
      if (n >= 5) return false;
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":"rate_limited","message":"slow down"}');
      return true;
    });
    try {
      const waits: number[] = [];
      const client = createClient({ baseUrl: limited.url, token: server.token, retries: 0, keepAlive: true, waitOutRateLimit: async (ms) => void waits.push(ms) });
      expect((await client.createInvoice(validPix() as any, 'batch-key-429')).view.status).toBe('pending');
      expect(waits).toEqual([1000, 1000, 1000, 1000, 1000]);
      expect(limited.seen.map((s) => s.key)).toEqual(Array(6).fill('batch-key-429'));
      expect(ports.size).toBe(1);
    } finally {
      await limited.close();
    }
  });

  it.each([false, true])('tells a replayed create from a new one (Idempotent-Replayed), keepAlive %s', async (keepAlive) => {
    const client = createClient({ baseUrl: server.url, token: server.token, keepAlive });
    const key = `batch-key-replay-${keepAlive}`;
    const first = { replayed: true };
    const created = await client.createInvoice(validPix() as any, key, first);
    const second = { replayed: false };
    expect(await client.createInvoice(validPix() as any, key, second)).toEqual(created);
    expect([first.replayed, second.replayed]).toEqual([false, true]);
  });
});

describe('answers of shapes our server does not write', () => {
  it('reads a create answer without data as the record itself', async () => {
    const bare = await scripted((req, res) => (req.method === 'POST' ? (res.writeHead(200).end('{"id":1,"secureId":"INV-1"}'), true) : false));
    try {
      const created = await createClient({ baseUrl: bare.url, sleep: noSleep }).createInvoice(validPix() as any);
      expect(created).toMatchObject({ whole: true, view: { id: '1', secureId: 'INV-1' }, raw: { id: 1, secureId: 'INV-1' } });
    } finally {
      await bare.close();
    }
  });

  it('reads a Company Infos answer with fields of other types, never refusing it', async () => {
    const odd = await scripted((req, res) => {
      if (req.url === '/api/v2/company') return res.writeHead(200).end(JSON.stringify({ data: { id: 'one', balance_pix: '1990', blocked_pix: 1, plan: 'pro' } })), true;
      return false;
    });
    try {
      const company = await createClient({ baseUrl: odd.url, sleep: noSleep }).company();
      expect(company).toMatchObject({ id: 'one', balances: { pix: 1990 }, blocked: ['pix'], others: [['plan', 'pro']] });
    } finally {
      await odd.close();
    }
  });

  it('leaves a create that only names the charge ({data:{invoice_id, qr_code_pix, status}}) for the caller to look up', async () => {
    let secureId = '';
    const gateway = await scripted((req, res) => {
      if (req.method !== 'POST') return false;
      void (async () => {
        const created: any = await (await fetch(`${server.url}/api/v2/invoices`, {
          method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: JSON.stringify(validPix()),
        })).json();
        secureId = created.data.secureId;
        res.writeHead(200).end(JSON.stringify({ data: { invoice_id: secureId, qr_code_pix: created.data.qr_code_pix, status: 'pending' }, extra: true }));
      })();
      return true;
    });
    try {
      const client = createClient({ baseUrl: gateway.url, token: server.token, sleep: noSleep });
      const created = await client.createInvoice(validPix() as any);
      expect(created).toMatchObject({ whole: false, view: { secureId, ref: secureId, status: 'pending', pix: { code: expect.stringMatching(/^000201/) } } });
      expect((await client.getInvoice(created.view.ref!)).secureId).toBe(secureId);
      expect(gateway.seen.map((s) => s.method)).toEqual(['POST', 'GET']);
    } finally {
      await gateway.close();
    }
  });

  it('says a 2xx that is not JSON is not, without printing the page', async () => {
    const portal = await scripted((_req, res) => (res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>captive portal</body></html>'), true));
    try {
      const error = await createClient({ baseUrl: portal.url, sleep: noSleep }).getInvoice(1).catch((e) => e);
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error.message).toMatch(/answered Search Transaction \(by path\) with HTTP 200 OK, but not with JSON$/);
      expect(error.message).not.toContain('<html');
    } finally {
      await portal.close();
    }
  });
});

describe('HTTP as production does it', () => {
  it('gives up on a silent server within the timeout, retries included', async () => {
    const silent = await scripted(() => true);
    try {
      const started = Date.now();
      const error = await createClient({ baseUrl: silent.url, timeoutMs: 400, retries: 2 }).getInvoice(1).catch((e) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.message).toBe(`no answer from ${silent.url} within 400 ms (--timeout, PINVOICE_TIMEOUT)`);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await silent.close();
    }
  });

  it.each(['GET', 'POST'])('reports a redirect (%s) without following it: the other origin never hears of the token', async (method) => {
    const other = await scripted((_req, res) => (res.writeHead(200).end('{}'), true));
    const moved = await scripted((req, res) => (res.writeHead(308, { location: `${other.url}${req.url}` }).end(), true));
    try {
      const client = createClient({ baseUrl: `${moved.url}`, token: 'secret-token-0001', sleep: noSleep });
      const error = await (method === 'GET' ? client.getInvoice(7) : client.createInvoice(validPix() as any)).catch((e) => e);
      expect(error).toBeInstanceOf(RedirectError);
      expect(error.message).toContain(`use --base-url ${other.url} instead`);
      expect(other.seen).toEqual([]);
      expect(moved.seen).toHaveLength(1);
    } finally {
      await Promise.all([other.close(), moved.close()]);
    }
  });
});
