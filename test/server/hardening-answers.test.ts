// What every answer says about itself, whoever asks: the API's answers (a company's data) are never
// cached nor sniffed, whatever their status, streams included; every /dashboard answer is a page with
// the page headers, its stream and its 404s too; and one client cannot take every checkout live stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_TOKEN } from '../../src/server/checkout/routes.js';
import { PAGE_HEADERS } from '../../src/server/html.js';
import { create } from '../support/charges.js';
import { startTestServer, validPix, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const fetchRaw = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { redirect: 'manual', ...init });
const bearer = () => ({ authorization: `Bearer ${server.token}` });

function expectApiHeaders(response: Response, what: string): void {
  expect(response.headers.get('cache-control'), what).toBe('no-store');
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('pinvoice-serve'), what).toBe('test');
}

function expectPageHeaders(response: Response, what: string): void {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(response.headers.get(name), `${what}: ${name}`).toBe(value);
}

describe('every answer of the API: Cache-Control: no-store and nosniff', () => {
  it('200s, 4xx of every kind, an unrouted 404 and the sign-in link', async () => {
    const charge = await create(server, validPix());
    const json = { ...bearer(), 'content-type': 'application/json' };
    const cases: [string, number, () => Promise<Response>][] = [
      ['a charge (personal data)', 200, () => fetchRaw(`/api/v2/invoices/${charge.id}`, { headers: bearer() })],
      ['the company', 200, () => fetchRaw('/api/v2/company', { headers: bearer() })],
      ['health', 200, () => fetchRaw('/health')],
      ['the sign-in link', 200, () => fetchRaw('/api/v2/sandbox/dashboard/links', { method: 'POST', headers: json, body: '{}' })],
      ['no token', 401, () => fetchRaw('/api/v2/company')],
      ['no such charge', 404, () => fetchRaw('/api/v2/invoices/99999999', { headers: bearer() })],
      ['no such operation', 404, () => fetchRaw('/api/v2/nothing-here', { headers: bearer() })],
      ['not JSON', 415, () => fetchRaw('/api/v2/invoices', { method: 'POST', headers: { ...bearer(), 'content-type': 'text/plain' }, body: 'x' })],
      ['bad JSON', 400, () => fetchRaw('/api/v2/invoices', { method: 'POST', headers: json, body: '{' })],
      ['too large', 413, () => fetchRaw('/api/v2/invoices', { method: 'POST', headers: json, body: `"${'x'.repeat(1024 * 1024)}"` })],
      ['not valid', 422, () => fetchRaw('/api/v2/invoices', { method: 'POST', headers: json, body: '{}' })],
    ];
    for (const [what, status, send] of cases) {
      const response = await send();
      expect(response.status, what).toBe(status);
      expectApiHeaders(response, what);
      await response.body?.cancel();
    }
  });

  it('a 5xx: the store gone from under the server', async () => {
    const broken = await startTestServer();
    await broken.store.close();
    try {
      const response = await fetch(`${broken.url}/api/v2/company`, { headers: { authorization: `Bearer ${broken.token}` } });
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await broken.app.close();
    }
  });

  it('the journal stream, which writes its own head', async () => {
    const controller = new AbortController();
    const response = await fetchRaw('/api/v2/sandbox/requests/stream', { headers: bearer(), signal: controller.signal });
    expect(response.status).toBe(200);
    expectApiHeaders(response, 'the journal stream');
    controller.abort();
  });
});

/** A session cookie of the dashboard, signed in with the first company's token. */
async function signIn(): Promise<string> {
  const response = await fetchRaw('/dashboard/sign-in', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${server.token}` });
  expect(response.status).toBe(303);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

describe('every /dashboard answer has the page headers', () => {
  it('its stream', async () => {
    const controller = new AbortController();
    const response = await fetchRaw('/dashboard/stream', { headers: { cookie: await signIn() }, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expectPageHeaders(response, 'the stream');
    controller.abort();
  });

  it('a path it does not have is an HTML page of 404, signed in or not, whatever the method', async () => {
    const cookie = await signIn();
    for (const [method, path, headers] of [['GET', '/dashboard/x', {}], ['GET', '/dashboard/requests/1/more', { cookie }], ['POST', '/dashboard/requests', { cookie }], ['GET', '/dashboard/', {}]] as const) {
      const response = await fetchRaw(path, { method, headers });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('content-type'), `${method} ${path}`).toBe('text/html; charset=utf-8');
      expectPageHeaders(response, `${method} ${path}`);
      expect(await response.text()).toContain('The dashboard has no such page.');
    }
  });

  it('a sign-in that is not a form is a page of 415, as one too large is 413 and bad JSON 400', async () => {
    const post = (headers: Record<string, string>, body: string) => fetchRaw('/dashboard/sign-in', { method: 'POST', headers, body });
    for (const [status, response] of [
      [415, await post({ 'content-type': 'text/plain' }, 'token=x')],
      [413, await post({ 'content-type': 'application/x-www-form-urlencoded' }, `token=${'x'.repeat(20_000)}`)],
      [400, await post({ 'content-type': 'application/json' }, '{')],
    ] as const) {
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expectPageHeaders(response, `sign-in ${status}`);
    }
  });
});

/** Opens a checkout page's live stream; its status, and a way to close it. */
async function live(token: string): Promise<{ status: number; body: any; close: () => void; first?: Promise<string> }> {
  const controller = new AbortController();
  const response = await fetchRaw(`/checkout/${token}/live`, { signal: controller.signal });
  if (response.status !== 200) return { status: response.status, body: await response.json(), close: () => undefined };
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const first = reader.read().then((chunk) => new TextDecoder().decode(chunk.value), () => '(closed)');
  return { status: 200, body: undefined, close: () => controller.abort(), first };
}

describe('the checkout live streams', () => {
  it('a thousand opened with one token take its share only: another charge’s page still gets its live stream', async () => {
    const greedy = await create(server, validPix());
    const payer = await create(server, validPix());
    const opened: Awaited<ReturnType<typeof live>>[] = [];
    for (let i = 0; i < 1000; i += 50) opened.push(...(await Promise.all(Array.from({ length: 50 }, () => live(greedy.invoice.token_checkout)))));
    try {
      const kept = opened.filter((stream) => stream.status === 200);
      const refused = opened.filter((stream) => stream.status !== 200);
      expect(kept).toHaveLength(MAX_STREAMS_PER_TOKEN);
      expect(refused).toHaveLength(1000 - MAX_STREAMS_PER_TOKEN);
      expect(refused[0]).toMatchObject({ status: 429, body: { error: 'rate_limited', message: expect.stringContaining(`At most ${MAX_STREAMS_PER_TOKEN} live streams of one checkout page`) } });
      const other = await live(payer.invoice.token_checkout);
      expect(other.status).toBe(200);
      expect(await other.first).toContain('event: update');
      other.close();
      // one closed, one more of the greedy token is let in again
      kept[0]?.close();
      await expect.poll(async () => {
        const again = await live(greedy.invoice.token_checkout);
        again.close();
        return again.status;
      }, { timeout: 5000 }).toBe(200);
    } finally {
      for (const stream of opened) stream.close();
    }
  }, 60_000);
});
