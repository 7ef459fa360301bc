// `pinvoice proxy` passes production's traffic through byte for byte (contract, "Production through a
// proxy"), over HTTP and over HTTPS with a local CA: the request the stand-in receives is the one the
// client sent (Host aside, hop-by-hop headers dropped), and the answer the client receives is the one
// the stand-in sent, bytes and headers, with Pinvoice-Proxy-Entry the only header added: odd JSON
// whitespace, gzip kept gzip, chunks, a redirect passed back unfollowed, a load balancer's HTML 502.
// The proxy's journal is a SQLite file of its own whatever the engine: run on the SQLite project only.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../support/engine.js';
import { mapLimit, removeWorkDirs } from '../support/processes.js';
import { htmlPage, type Canned } from '../support/production-gateway.js';
import { eventually } from '../support/receiver.js';
import { ENTRY, endToEnd, entryOf, own, raw, rig, stopProxies, type RawAnswer, type RawOptions, type Rig } from '../support/proxy.js';

afterAll(async () => {
  await stopProxies();
  removeWorkDirs();
});

describe.runIf(ENGINE === 'sqlite').each([['http', false], ['https', true]] as const)('pinvoice proxy in front of production over %s', (_name, tls) => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig(tls, ['--allow-writes']);
  });
  afterAll(() => r?.close());

  /** Sends through the proxy a request the stand-in answers with `answer`; the client's answer, and the request and answer the stand-in saw. */
  async function exchange(path: string, answer: Canned, options: RawOptions = {}) {
    const method = options.method ?? 'GET';
    r.gateway.plant({ method, path, answer });
    const before = r.gateway.requests.length;
    const got = await raw(`${r.proxy.url}${path}`, { ...options, method, headers: { ...r.auth, ...options.headers } });
    expect(r.gateway.requests.length, 'the stand-in received the request once').toBe(before + 1);
    const sent = r.gateway.answers.at(-1)!;
    expect(sent.url).toBe(path);
    return { got, sent, received: r.gateway.requests.at(-1)! };
  }

  /** The client's answer is the stand-in's, status, headers and bytes, plus the entry's header and nothing else. */
  function passedBack(got: RawAnswer, sent: { status: number; headers: Record<string, string>; body: Buffer }) {
    expect(got.status).toBe(sent.status);
    expect(endToEnd(got.headers, [ENTRY])).toEqual(endToEnd(sent.headers));
    expect(got.headers[ENTRY]).toMatch(/^[1-9]\d*$/);
    expect(got.body.equals(sent.body), `body bytes: got ${JSON.stringify(got.body.toString('latin1'))}, sent ${JSON.stringify(sent.body.toString('latin1'))}`).toBe(true);
  }

  it('passes JSON with odd whitespace and key order back byte for byte, and the request on as sent', async () => {
    const text = '{ "id" :4242 ,\n\t"status":"paid" }';
    const headers = { accept: 'application/json', 'user-agent': 'loja-exemplo/3.1 (+https://loja.example.com.br)', 'x-request-id': 'req-7f3a', 'accept-language': 'pt-BR' };
    const { got, sent, received } = await exchange('/api/v2/invoices?id=4242&expand=card%2Cpix&expand=client', { status: 200, raw: Buffer.from(text), headers: { 'content-type': 'application/json', 'x-ratelimit-remaining': '59' } }, { headers });
    passedBack(got, sent);
    expect(got.body.toString()).toBe(text);
    expect(received.method).toBe('GET');
    expect(received.url).toBe('/api/v2/invoices?id=4242&expand=card%2Cpix&expand=client');
    expect(endToEnd(received.headers, ['host'])).toEqual({ ...headers, ...r.auth });
    expect(received.headers.host).toBe(new URL(r.gateway.url).host);
  });

  it("sends a write's body bytes on exactly as the client wrote them (odd whitespace, non-ASCII)", async () => {
    const body = Buffer.from('{ "method":"pix" ,"total_price_cents": 1990,\n "payer":{"name":"João Conceição","email":"joao@example.com","cpf_cnpj":"529.982.247-25"} }\n');
    const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length), 'idempotency-key': 'order-8812' };
    const { got, sent, received } = await exchange('/api/v2/invoices', { status: 200, body: { data: { invoice_id: 'INV-1-1', qr_code_pix: null, status: 'pending' } } }, { method: 'POST', headers, body });
    passedBack(got, sent);
    expect(received.method).toBe('POST');
    expect(received.bytes.equals(body), `request bytes: ${JSON.stringify(received.body)}`).toBe(true);
    expect(endToEnd(received.headers, ['host'])).toEqual({ ...headers, ...r.auth });
  });

  it('passes a gzip answer back still gzipped: the client receives the bytes the stand-in compressed', async () => {
    const record = r.gateway.addRecord();
    const { got, sent } = await exchange(`/api/v2/invoices/${record.id}`, { status: 200, body: record, gzip: true }, { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(sent.headers['content-encoding']).toBe('gzip');
    passedBack(got, sent);
    expect(got.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(got.body).toString())).toEqual(record);
  });

  it('passes a chunked answer back whole, in order', async () => {
    const chunks = ['{"data":[', '{"id":1,"status":"paid"},', '{"id":2,"status":"pending"}', '],"next_cursor":null}'];
    const { got, sent } = await exchange('/api/v2/invoices?status=paid', { status: 200, chunks });
    expect(sent.headers['content-length']).toBeUndefined();
    passedBack(got, sent);
    expect(got.body.toString()).toBe(chunks.join(''));
  });

  it('passes a 302 back and never follows it, to another origin or to its own', async () => {
    for (const location of ['https://login.other-gateway.example/sso?next=%2Fapi%2Fv2%2Finvoices', `${r.gateway.url}/api/v2/invoices/4242`]) {
      const { got, sent } = await exchange('/api/v2/invoices/moved', { status: 302, headers: { location }, body: '' });
      passedBack(got, sent);
      expect(got.headers.location).toBe(location);
    }
  });

  it("passes a load balancer's HTML 502 back untouched", async () => {
    const { got, sent } = await exchange('/api/v2/invoices?id=4243', { status: 502, body: htmlPage(502) });
    passedBack(got, sent);
    expect(got.body.toString()).toBe(htmlPage(502));
    expect(got.headers['content-type']).toBe('text/html; charset=UTF-8');
  });

  it("takes the merchant's token to the stand-in, and keeps only its hint in the journal", async () => {
    const record = r.gateway.addRecord();
    const got = await raw(`${r.proxy.url}/api/v2/invoices/${record.id}`, { headers: r.auth });
    expect(got.status).toBe(200);
    expect(r.gateway.requests.at(-1)!.headers.authorization).toBe(`Bearer ${r.gateway.token}`);
    const entry = await entryOf(r.proxy, got.entry);
    expect(entry).toMatchObject({ method: 'GET', path: `/api/v2/invoices/${record.id}`, status: 200, upstream: { status: 200 } });
    expect(entry.token_hint).toBe(`${r.gateway.token.slice(0, 8)}…${r.gateway.token.slice(-4)}`);
    expect(JSON.stringify(entry)).not.toContain(r.gateway.token);
  });

  it('keeps 100 concurrent requests apart: each client gets its own record, each exchange its own entry', async () => {
    const records = Array.from({ length: 20 }, (_, i) => r.gateway.addRecord({ amount: 1000 + i }));
    const answers = await mapLimit(Array.from({ length: 100 }, (_, i) => i), 100, async (i) => {
      const record = records[i % records.length]!;
      const path = i % 2 === 0 ? `/api/v2/invoices/${record.id}` : `/api/v2/invoices?id=${record.secureId}`;
      return { record, path, got: await raw(`${r.proxy.url}${path}`, { headers: r.auth }) };
    });
    for (const { record, got } of answers) {
      expect(got.status).toBe(200);
      expect(got.json).toMatchObject({ id: record.id, amount: record.amount, secureId: record.secureId });
    }
    expect(new Set(answers.map(({ got }) => got.entry)).size).toBe(100);
    // each entry is its own exchange's: the path it asked and the record it was answered (one page of the journal holds them all)
    const wanted = new Set(answers.map(({ got }) => got.entry));
    const entries = await eventually(async () => {
      const page = (await own(r.proxy, `/requests?after=${Math.min(...wanted) - 1}&limit=500`)).body.data as any[];
      const byId = new Map(page.filter((entry) => wanted.has(entry.id)).map((entry) => [entry.id, entry]));
      return byId.size === wanted.size && byId;
    }, 15_000, 'the 100 entries');
    for (const { record, path, got } of answers) {
      const entry = entries.get(got.entry);
      expect(`${entry.path}${entry.query.id === undefined ? '' : `?id=${entry.query.id}`}`).toBe(path);
      expect(entry.response_body).toMatchObject({ id: record.id, amount: record.amount });
    }
  });
});
