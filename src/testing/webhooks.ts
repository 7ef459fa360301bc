// A postback receiver for a test: a node:http server on a free loopback port that answers 200, checks
// each signature as `pinvoice webhooks verify` does (src/domain/signature.ts), and hands deliveries to
// next() by event and charge, those that came before the call included.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PostbackBody } from '../api/postbacks.js';
import { BODY_SIGNATURE_HEADER, SIGNATURE_HEADER, verifySignature } from '../domain/signature.js';
import type { Delivery, NextOptions, WebhookReceiver } from './types.js';

export const DEFAULT_NEXT_TIMEOUT_MS = 4000;

/** next() waited `timeout` ms for a delivery that did not come. */
export class WebhookTimeoutError extends Error {
  override name = 'WebhookTimeoutError';
}

/** The keys a delivery may be signed with: the webhook secret, and the token for X-Webhook-Signature when the company signs with it. */
export interface SigningKeys {
  secret: string;
  token: string;
}

interface Waiter {
  options: NextOptions;
  resolve: (delivery: Delivery) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

const header = (request: IncomingMessage, name: string) => {
  const value = request.headers[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
};

/** The charge's references a postback carries: its secureId (id, invoice_id) and its integer id. */
function refsOf(body: PostbackBody): string[] {
  const record = body.transaction as { id?: unknown; secureId?: unknown } | undefined;
  return [body.id, body.invoice_id, record?.id, record?.secureId].filter((ref) => ref !== undefined && ref !== null).map(String);
}

const matches = (options: NextOptions, delivery: Delivery) =>
  (options.event === undefined || delivery.event === options.event) &&
  (options.invoice === undefined || refsOf(delivery.body).includes(String(options.invoice)));

function describeWait(options: NextOptions, timeout: number, url: string, received: Delivery[]): string {
  const what = `${options.event ?? 'any'} postback${options.invoice === undefined ? '' : ` for charge ${options.invoice}`}`;
  const got = received.length === 0
    ? 'none came (is the charge\'s postback_url this receiver\'s url?)'
    : `it got ${received.length}: ${received.map((d) => `${d.event} ${d.body.invoice_id}`).join(', ')}`;
  return `no ${what} reached ${url} within ${timeout} ms (each delivery is handed to one next() call); ${got}`;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A receiver, and what the sandbox's reset() does to it: forgets what came before. */
export interface OwnedReceiver {
  receiver: WebhookReceiver;
  forget(): void;
}

export async function startReceiver(keys: SigningKeys): Promise<OwnedReceiver> {
  const received: Delivery[] = [];
  const taken = new Set<Delivery>();
  const waiting: Waiter[] = [];

  const drop = (waiter: Waiter) => {
    clearTimeout(waiter.timer);
    const at = waiting.indexOf(waiter);
    if (at >= 0) waiting.splice(at, 1);
  };
  const take = (delivery: Delivery, waiter?: Waiter) => {
    taken.add(delivery);
    if (waiter) {
      drop(waiter);
      waiter.resolve(delivery);
    }
    return delivery;
  };

  async function receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const raw = await readBody(request);
    const headers = { timestamped: header(request, SIGNATURE_HEADER), body: header(request, BODY_SIGNATURE_HEADER) };
    // X-Webhook-Signature is keyed with the secret, or with the token by a company that chose so
    const verified = verifySignature({ secret: keys.secret, body: raw, headers }).valid
      || verifySignature({ secret: keys.secret, bodyKey: keys.token, body: raw, headers }).valid;
    let body: PostbackBody;
    try {
      body = JSON.parse(raw) as PostbackBody;
    } catch {
      return void response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"not JSON"}');
    }
    const delivery: Delivery = { event: body.event, body, raw, headers: request.headers, verified };
    received.push(delivery);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    const waiter = waiting.find((w) => matches(w.options, delivery));
    if (waiter) take(delivery, waiter);
  }

  const server = createServer((request, response) => {
    receive(request, response).catch(() => !response.headersSent && response.writeHead(500).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const receiver: WebhookReceiver = {
    url,
    received,
    next(options = {}) {
      const found = received.find((delivery) => !taken.has(delivery) && matches(options, delivery));
      if (found) return Promise.resolve(take(found));
      const timeout = options.timeout ?? DEFAULT_NEXT_TIMEOUT_MS;
      return new Promise<Delivery>((resolve, reject) => {
        const waiter: Waiter = {
          options,
          resolve,
          reject,
          timer: setTimeout(() => {
            drop(waiter);
            reject(new WebhookTimeoutError(describeWait(options, timeout, url, received)));
          }, timeout),
        };
        waiting.push(waiter);
      });
    },
    async close() {
      for (const waiter of waiting.splice(0)) {
        clearTimeout(waiter.timer);
        waiter.reject(new WebhookTimeoutError(`the receiver at ${url} was closed while next() waited`));
      }
      if (!server.listening) return;
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
  const forget = () => {
    received.length = 0;
    taken.clear();
  };
  return { receiver, forget };
}
