// A merchant's integration written for the production gateway, the way such code is written: a
// storefront client on plain `fetch` and postback handlers on `node:http`, each with its own tiny
// orders table. Nothing from pinvoice is imported: this is code that never heard of the sandbox.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Gateway {
  baseUrl: string;
  token: string;
}

export interface CartItem {
  name: string;
  quantity: number;
  unitPrice: number;
}

export type ChargeResult =
  | { ok: true; invoiceId: string; qrCodePix: string | null; data: any; replayed: boolean }
  | { ok: false; status: number; message: string; body: any };

/** The create body production integrations send for a digital product paid by pix. */
export function pixCheckoutBody(externalId: string, cart: CartItem[], postbackUrl: string | null): Record<string, unknown> {
  return {
    method: 'pix',
    total_price_cents: cart.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0),
    currency: 'BRL',
    country: 'BR',
    product_fisical: 'digital',
    ip_payer: '198.51.100.23',
    postback_url: postbackUrl,
    external_id: externalId,
    metadata: { order_id: externalId, channel: 'webstore' },
    payer: {
      name: 'Maria da Silva',
      email: 'maria.silva@example.com',
      cpf_cnpj: '529.982.247-25',
      phone: '5511987654321',
      address_zip: '01310-100',
      address_line: 'Avenida Paulista',
      address_number: '1578',
      address_complement: '',
      address_neighborhood: 'Bela Vista',
      address_city: 'São Paulo',
      address_state: 'SP',
    },
    items: cart.map((item) => ({ name: item.name, quantity: item.quantity, unit_price: item.unitPrice })),
  };
}

/** POSTs a charge and reads the answer as production integrations do. */
export async function createCharge(gateway: Gateway, body: Record<string, unknown>, idempotencyKey: string = randomUUID()): Promise<ChargeResult> {
  const response = await fetch(`${gateway.baseUrl}/api/v2/invoices`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${gateway.token}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'idempotency-key': idempotencyKey,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: any = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!response.ok || !parsed?.data) {
    return { ok: false, status: response.status, message: parsed?.message ?? parsed?.error ?? text, body: parsed };
  }
  const data = parsed.data;
  return {
    ok: true,
    invoiceId: data.invoice_id ?? data.id,
    qrCodePix: data.qr_code_pix ?? null,
    data,
    replayed: response.headers.get('idempotent-replayed') === 'true',
  };
}

export async function fetchWebhookSecret(gateway: Gateway): Promise<string> {
  const response = await fetch(`${gateway.baseUrl}/api/v2/webhooks/secret`, { headers: { authorization: `Bearer ${gateway.token}` } });
  if (!response.ok) throw new Error(`could not read the webhook secret: HTTP ${response.status}`);
  const body = (await response.json()) as { webhook_secret: string };
  return body.webhook_secret;
}

// ---- postback handlers ------------------------------------------------------------------------

export interface OrderRow {
  status: 'pending' | 'paid';
}
export type Orders = Map<string, OrderRow>;
type Handle = (raw: Buffer, headers: IncomingHttpHeaders, orders: Orders) => { status: number; text: string };

/** (a) Looks the sale up by `body.id`, marks it paid on `invoice.paid`. */
export const lookUpById: Handle = (raw, _headers, orders) => {
  const body = JSON.parse(raw.toString('utf8'));
  const order = orders.get(body.id);
  if (!order) return { status: 404, text: 'not found' };
  if (body.event === 'invoice.paid') order.status = 'paid';
  return { status: 200, text: 'ok' };
};

/** (b) Unwraps `data` first when there is one, then takes `invoice_id`, else `id`. */
export const unwrapData: Handle = (raw, _headers, orders) => {
  const body = JSON.parse(raw.toString('utf8'));
  const payload = body.data ?? body;
  const order = orders.get(payload.invoice_id ?? payload.id);
  if (!order) return { status: 404, text: 'order not found' };
  if (payload.status === 'paid') order.status = 'paid';
  return { status: 200, text: JSON.stringify({ received: true }) };
};

/** (c) Verifies `X-Webhook-Signature` (hex HMAC-SHA256 of the raw body) before trusting anything. */
export const verifyingSignature =
  (secret: string): Handle =>
  (raw, headers, orders) => {
    const given = Buffer.from(String(headers['x-webhook-signature'] ?? ''), 'utf8');
    const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('hex'), 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { status: 401, text: 'invalid signature' };
    const body = JSON.parse(raw.toString('utf8'));
    const order = orders.get(body.invoice_id ?? body.id);
    if (!order) return { status: 404, text: 'not found' };
    if (body.event === 'invoice.paid') order.status = 'paid';
    return { status: 200, text: 'ok' };
  };

export interface Delivery {
  raw: Buffer;
  headers: IncomingHttpHeaders;
  answered: number;
}

export interface MerchantApp {
  url: string;
  orders: Orders;
  /** every request the handler got, with its answer: for the test to inspect, not used by the handler */
  deliveries: Delivery[];
  close(): Promise<void>;
}

export async function startMerchantApp(handle: Handle): Promise<MerchantApp> {
  const orders: Orders = new Map();
  const deliveries: Delivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      let answer: { status: number; text: string };
      try {
        answer = handle(raw, request.headers, orders);
      } catch {
        answer = { status: 400, text: 'bad request' };
      }
      deliveries.push({ raw, headers: request.headers, answered: answer.status });
      response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/pinvoice`,
    orders,
    deliveries,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
