// `pinvoice webhooks listen`: a local postback receiver that checks each signature, prints each event,
// and can forward it untouched to the merchant's own app, answering the sender with the app's answer.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { PostbackBody } from '../api/postbacks.js';
import { BODY_SIGNATURE_HEADER, SIGNATURE_HEADER, VERIFY_REASONS, verifySignature } from '../domain/signature.js';
import { listenMessage } from '../net/listen-message.js';
import { postJson, type PostResult } from '../net/post-json.js';
import { checkHttpUrl } from './context.js';
import { CliError, EXIT } from './errors.js';
import { resolveSecret, type SecretFlags } from './events.js';
import { createOutput, type Output } from './output.js';
import { dateTime, money } from './render/format.js';
import { safeData, safeJson } from './render/safe-text.js';

export interface ListenFlags extends SecretFlags {
  host: string;
  port: number;
  forwardTo?: string;
  count?: number;
  timeout?: number;
  tolerance: number;
}

const MAX_BODY = 2 * 1024 * 1024;
const FORWARD_TIMEOUT_MS = 10_000;

export interface Received {
  type: 'event';
  received_at: string;
  path: string;
  signature: 'valid' | 'invalid';
  reason?: string;
  event_id: string | null;
  event: string | null;
  invoice_id: string | null;
  status: string | null;
  total: number | null;
  forward: { url: string; status: number | null; error: string | null; duration_ms: number } | null;
  /** the body exactly as received: JSON spliced in, anything else as a string */
  payload: unknown;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
}

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY ? undefined : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The JSON line of an event, its body spliced in as received (re-serialized only when it spans lines). */
export function receivedLine(received: Received, raw: string): string {
  const line = JSON.stringify({ ...received, payload: null });
  const json = parseJson(raw);
  if (!json) return JSON.stringify({ ...received, payload: raw });
  const payload = /[\r\n]/.test(raw) ? JSON.stringify(json.value) : raw.trim();
  return `${line.slice(0, -'null}'.length)}${payload}}`;
}

async function forward(url: string, body: Buffer, request: IncomingMessage): Promise<{ result: PostResult; duration: number }> {
  const keep = ['content-type', 'user-agent', SIGNATURE_HEADER.toLowerCase(), BODY_SIGNATURE_HEADER.toLowerCase(), 'pinvoice-event-id'];
  const headers = Object.fromEntries(keep.flatMap((name) => (typeof request.headers[name] === 'string' ? [[name, request.headers[name]]] : [])));
  const started = performance.now();
  const result = await postJson(url, body, headers, FORWARD_TIMEOUT_MS);
  return { result, duration: Math.round(performance.now() - started) };
}

/** One line a person reads as events arrive; whatever the sender put in the body is made safe first. */
export function eventLine(received: Received, out: Output): string {
  const r = safeData(received);
  const p = out.palette;
  const signature = r.signature === 'valid' ? p.ok('signature ok') : p.bad(`signature INVALID (${r.reason})`);
  const parts = [
    p.dim(dateTime(r.received_at)),
    p.bold(r.event ?? '(not an event)'),
    r.invoice_id ?? '',
    r.status ? p.status(r.status) : '',
    r.total === null ? '' : money(r.total),
    p.dim(r.event_id ?? ''),
    signature,
  ];
  if (r.forward) {
    const answer = r.forward.status === null ? p.bad(r.forward.error ?? 'no answer') : r.forward.status < 300 ? p.ok(String(r.forward.status)) : p.bad(String(r.forward.status));
    parts.push(`→ ${answer} (${r.forward.duration_ms} ms)`);
  }
  return parts.filter((part) => part !== '').join('  ');
}

export async function listen(flags: ListenFlags): Promise<void> {
  const forwardTo = flags.forwardTo === undefined ? undefined : checkHttpUrl(flags.forwardTo, '--forward-to');
  const out = createOutput(flags);
  const secret = await resolveSecret(flags);
  let valid = 0;
  let finish: (code?: number) => void = () => undefined;
  const finished = new Promise<number | undefined>((resolve) => (finish = resolve));

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const reply = (status: number, body: unknown) =>
      new Promise<void>((resolve) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body), resolve));
    if (request.method !== 'POST') return reply(405, { error: 'method_not_allowed', message: 'postbacks are POSTed' });
    const body = await readBody(request);
    if (!body) return reply(413, { error: 'payload_too_large', message: `bodies up to ${MAX_BODY} bytes` });
    const headers = { timestamped: header(request, SIGNATURE_HEADER), body: header(request, BODY_SIGNATURE_HEADER) };
    const check = verifySignature({ secret, body, headers, toleranceSeconds: flags.tolerance });
    const raw = body.toString('utf8');
    const parsed = parseJson(raw)?.value;
    const payload = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Partial<Record<keyof PostbackBody, unknown>>;
    const received: Received = {
      type: 'event', received_at: new Date().toISOString(), path: request.url ?? '/',
      signature: check.valid ? 'valid' : 'invalid', ...(!check.valid && { reason: check.reason }),
      event_id: text(payload.event_id) ?? header(request, 'pinvoice-event-id') ?? null, event: text(payload.event),
      invoice_id: text(payload.invoice_id) ?? text(payload.id), status: text(payload.status),
      total: typeof payload.total === 'number' ? payload.total : null, forward: null, payload: null,
    };
    let status = 200;
    let answer: unknown = { received: true };
    if (!check.valid) {
      status = 400;
      answer = { error: 'invalid_signature', message: VERIFY_REASONS[check.reason] };
    } else if (forwardTo) {
      const { result, duration } = await forward(forwardTo, body, request);
      received.forward = { url: forwardTo, status: result.status ?? null, error: result.error ?? null, duration_ms: duration };
      // The sender sees the app's answer, so its retries follow what the app did.
      status = result.status ?? 502;
      answer = result.status === undefined ? { error: 'forward_failed', message: result.error } : { forwarded: true, status: result.status };
    }
    await reply(status, answer);
    if (out.json) process.stdout.write(`${safeJson(receivedLine(received, raw))}\n`);
    else out.data(eventLine(received, out));
    if (check.valid && flags.count !== undefined && ++valid >= flags.count) finish();
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      out.message(`pinvoice: could not handle a request: ${(error as Error).message}`);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  server.listen(flags.port, flags.host);
  try {
    await once(server, 'listening');
  } catch (error) {
    throw new CliError(listenMessage(error as NodeJS.ErrnoException, flags.host, flags.port), EXIT.network);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : flags.port;
  const url = `http://${flags.host.includes(':') ? `[${flags.host}]` : flags.host}:${port}`;
  if (out.json) process.stdout.write(`${JSON.stringify({ type: 'listening', url, postback_url: `${url}/`, forward_to: forwardTo ?? null })}\n`);
  else {
    out.data(`listening on ${url}\npostback_url: ${url}/`);
    out.message(`Checking signatures${forwardTo ? ` and forwarding to ${forwardTo}` : ''}; Ctrl-C stops.`);
  }

  const stop = () => finish();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const timer = flags.timeout === undefined ? undefined : setTimeout(() => finish(flags.count === undefined ? undefined : EXIT.watchTimeout), flags.timeout * 1000);
  const code = await finished;
  clearTimeout(timer);
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  setTimeout(() => server.closeAllConnections(), 1000).unref();
  await closed;
  if (code !== undefined) throw new CliError(`received ${valid} of ${flags.count} events before --timeout (${flags.timeout} s)`, EXIT.watchTimeout);
}
