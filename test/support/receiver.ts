// A postback receiver on loopback for tests: records every request and answers as the test says,
// including never (a hanging receiver). Can be started on a given port, e.g. one that was down.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  body: string;
  headers: IncomingHttpHeaders;
  path: string;
  json: any;
}

/** A status to answer, or 'hang' to never answer. */
export type Answer = number | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** resolves once `n` requests have arrived (rejects after timeoutMs) */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (request: Received, index: number) => Answer = () => 200, port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const entry = { body, headers: request.headers, path: request.url ?? '/', json };
      received.push(entry);
      waiters.forEach((wake) => wake());
      const status = answer(entry, received.length - 1);
      if (status !== 'hang') response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/postbacks`,
    port: actual,
    received,
    waitFor(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < n) return false;
          clearTimeout(timer);
          resolve(received.slice());
          return true;
        };
        const timer = setTimeout(() => reject(new Error(`got ${received.length} of ${n} postbacks: ${received.map((r) => r.json?.event).join(', ')}`)), timeoutMs);
        if (!check()) waiters.push(check);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A loopback port nothing listens on (yet). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Polls until fn returns a truthy value. */
type Truthy<T> = Exclude<T, false | null | undefined | '' | 0>;

export async function eventually<T>(fn: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
