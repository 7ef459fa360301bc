// The benchmarks' HTTP client (tools/raw-client.ts) against a real node:http server: it frames answers
// by content-length and by chunks, keeps the connection for the next request, opens a new one after
// `connection: close`, keeps a body only when asked or when the answer is not a 2xx, and says so when
// the server closes a connection before answering.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RawConnection, rawTarget } from '../../tools/raw-client.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; sockets: () => number }> {
  let sockets = 0;
  server = createServer(handler);
  server.on('connection', () => sockets++);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets: () => sockets };
}

describe('the benchmarks’ raw HTTP client', () => {
  it('frames content-length and chunked answers, over one kept connection, and sends the body with its length', async () => {
    const seen: string[] = [];
    const { url, sockets } = await serve((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push(`${request.method} ${request.url} ${request.headers['content-length'] ?? '-'} ${body}`);
        if (request.url === '/chunked') {
          response.writeHead(201, { 'content-type': 'text/plain' });
          response.write('first ');
          response.write('second');
          response.end();
        } else response.writeHead(200, { 'content-length': 5 }).end('hello');
      });
    });
    const connection = new RawConnection('127.0.0.1', Number(new URL(url).port), 5000);
    try {
      expect(await connection.request(rawTarget(`${url}/one`, 'GET'), true)).toEqual({ status: 200, body: Buffer.from('hello') });
      expect(await connection.request(rawTarget(`${url}/chunked`, 'POST', { 'content-type': 'application/json' }, '{"a":"é"}'), true)).toEqual({ status: 201, body: Buffer.from('first second') });
      expect(await connection.request(rawTarget(`${url}/one`, 'GET'), false)).toEqual({ status: 200, body: undefined });
    } finally {
      connection.close();
    }
    expect(seen).toEqual(['GET /one - ', 'POST /chunked 10 {"a":"é"}', 'GET /one - ']);
    expect(sockets()).toBe(1);
  });

  it('keeps the body of an answer that is not a 2xx, and reconnects after connection: close', async () => {
    const { url, sockets } = await serve((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(503, { connection: 'close', 'content-length': 4 }).end('busy'));
    });
    const connection = new RawConnection('127.0.0.1', Number(new URL(url).port), 5000);
    try {
      expect(await connection.request(rawTarget(`${url}/`, 'GET'), false)).toEqual({ status: 503, body: Buffer.from('busy') });
      expect(await connection.request(rawTarget(`${url}/`, 'GET'), false)).toEqual({ status: 503, body: Buffer.from('busy') });
    } finally {
      connection.close();
    }
    expect(sockets()).toBe(2);
  });

  it('fails a request whose connection the server closes before answering', async () => {
    const { url } = await serve((request) => request.socket.destroy());
    const connection = new RawConnection('127.0.0.1', Number(new URL(url).port), 5000);
    try {
      await expect(connection.request(rawTarget(`${url}/`, 'GET'), false)).rejects.toThrow(/closed the connection before answering|ECONNRESET/);
    } finally {
      connection.close();
    }
  });
});
