// The server under slow and oversized requests, over real sockets: requests that never complete are
// cut off, unfinished bodies share a bounded budget, and Node's own refusals carry the contract's body.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestServer, validPix, type TestServer } from '../support/server.js';

const LIMITS = { headersTimeoutMs: 300, requestTimeoutMs: 600, bodyBudgetBytes: 100_000 };
const TOKEN = 'pinv_test_first_company_token';

let server: TestServer;
const logged: unknown[] = [];
beforeAll(async () => {
  server = await startTestServer({ limits: LIMITS, logError: (error) => logged.push(error) });
});
afterAll(() => server.close());

interface Conversation {
  socket: net.Socket;
  /** everything the server sent, once it has closed the connection */
  closed: Promise<{ text: string; afterMs: number }>;
}

function connect(): Conversation {
  const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1');
  const started = Date.now();
  let text = '';
  socket.on('data', (chunk) => (text += chunk));
  const closed = new Promise<{ text: string; afterMs: number }>((resolve) => {
    socket.on('close', () => resolve({ text, afterMs: Date.now() - started }));
    socket.on('error', () => undefined);
  });
  return { socket, closed };
}

/** The status and the JSON body of a raw HTTP/1.1 answer. */
function parse(text: string): { status: number; body: unknown } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: JSON.parse(body) };
}

const postHead = (length: number) =>
  `POST /api/v2/invoices HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('timeouts', () => {
  it('cuts off a body that never completes with 408 request_timeout in the contract body', async () => {
    const { socket, closed } = connect();
    socket.write(`${postHead(1000)}{"method":"pix",`);
    const { text, afterMs } = await closed;
    expect(afterMs).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 50);
    expect(afterMs).toBeLessThan(5000);
    expect(parse(text)).toEqual({ status: 408, body: { error: 'request_timeout', message: expect.stringMatching(/did not arrive in time/) } });
  });

  it('cuts off a body trickling one byte at a time', async () => {
    const { socket, closed } = connect();
    socket.write(postHead(1000));
    const drip = setInterval(() => socket.writable && socket.write(' '), 50);
    const { text, afterMs } = await closed;
    clearInterval(drip);
    expect(afterMs).toBeLessThan(5000);
    expect(parse(text).status).toBe(408);
  });

  it('cuts off headers that never end', async () => {
    const { socket, closed } = connect();
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    const { text, afterMs } = await closed;
    expect(afterMs).toBeLessThan(5000);
    expect(parse(text)).toEqual({ status: 408, body: { error: 'request_timeout', message: expect.any(String) } });
  });
});

describe('the budget of body bytes in flight', () => {
  it('answers 503 server_busy beyond it, and frees what an ended request held', async () => {
    const slow = connect();
    slow.socket.write(`${postHead(90_000)}{"filler":"${'x'.repeat(70_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = connect();
    second.socket.write(`${postHead(90_000)}{"filler":"${'y'.repeat(50_000)}`);
    const { text } = await second.closed;
    expect(parse(text)).toEqual({ status: 503, body: { error: 'server_busy', message: expect.stringMatching(/retry shortly/) } });
    slow.socket.destroy();
    await slow.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await request(server, 'POST', '/api/v2/invoices', { body: validPix({ filler: 'z'.repeat(60_000) }) })).status).toBe(200);
  });
});

describe('the budget, for a body sent in chunks (no declared length, counted as it arrives)', () => {
  it('answers 503 server_busy to the request whose chunks go past it', async () => {
    const head = `POST /api/v2/invoices HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    const slow = connect();
    slow.socket.write(`${postHead(90_000)}{"filler":"${'x'.repeat(70_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const chunked = connect();
    chunked.socket.write(head + chunk(`{"filler":"${'y'.repeat(20_000)}`));
    chunked.socket.write(chunk('y'.repeat(20_000)));
    const { text } = await chunked.closed;
    expect(parse(text)).toEqual({ status: 503, body: { error: 'server_busy', message: expect.stringMatching(/retry shortly/) } });
    slow.socket.destroy();
    await slow.closed;
  });
});

describe("Node's own refusals", () => {
  it.each([
    ['a URL too long', `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    ['a header too large', `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['a binary Authorization header', 'GET /api/v2/company HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \u0001\u0002\r\n\r\n', 400],
    ['bytes that are not HTTP', '\u0000\u0001\u0002 garbage\r\n\r\n', 400],
  ])('answers %s in the contract error body, never cached nor sniffed', async (_, raw, status) => {
    const { socket, closed } = connect();
    socket.write(raw);
    const { text } = await closed;
    expect(parse(text)).toEqual({ status, body: { error: 'bad_request', message: expect.any(String) } });
    expect(text.split('\r\n\r\n')[0]).toMatch(/\r\ncache-control: no-store\r\nx-content-type-options: nosniff\r\n/);
  });
});

describe('a client gone mid-body', () => {
  it('frees its share of the budget and logs no error: none of the above reached a 500', async () => {
    const gone = connect();
    gone.socket.write(`${postHead(90_000)}{"filler":"${'x'.repeat(80_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    gone.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await request(server, 'POST', '/api/v2/invoices', { body: validPix({ filler: 'z'.repeat(80_000) }) })).status).toBe(200);
    expect(logged).toEqual([]);
  });
});
