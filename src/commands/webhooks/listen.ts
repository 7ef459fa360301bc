// `pinvoice webhooks listen`: a local postback receiver that checks each signature, prints each event,
// and can forward it untouched to the merchant's own app, answering the sender with the app's answer.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenMessage } from '../../base/listen-message.js';
import { postJson } from '../../base/post-json.js';
import { spokenSeconds } from '../../base/spoken-duration.js';
import { checkHttpUrl } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import { BODY_SIGNATURE_HEADER, SIGNATURE_HEADER, VERIFY_REASONS, verifySignature } from '../../domain/signature.js';
import type { ListenFlags } from './index.js';
import { eventLine, header, MAX_BODY, readBody, receivedFrom, receivedLine, type Received } from './received.js';
import { resolveSecret, resolveSigningToken } from './secret.js';

const FORWARD_TIMEOUT_MS = 10_000;

/** POSTs the body, untouched, to the app; records the app's answer in `received.forward`. */
async function forward(url: string, body: Buffer, request: IncomingMessage, received: Received): Promise<{ status: number; answer: unknown }> {
  const keep = ['content-type', 'user-agent', SIGNATURE_HEADER.toLowerCase(), BODY_SIGNATURE_HEADER.toLowerCase(), 'pinvoice-event-id'];
  const headers = Object.fromEntries(keep.flatMap((name) => (typeof request.headers[name] === 'string' ? [[name, request.headers[name]]] : [])));
  const started = performance.now();
  const result = await postJson(url, body, headers, FORWARD_TIMEOUT_MS);
  received.forward = { url, status: result.status ?? null, error: result.error ?? null, duration_ms: Math.round(performance.now() - started) };
  // The sender sees the app's answer, so its retries follow what the app did.
  if (result.status === undefined) return { status: 502, answer: { error: 'forward_failed', message: result.error } };
  return { status: result.status, answer: { forwarded: true, status: result.status } };
}

interface Receiver {
  secret: string;
  /** X-Webhook-Signature's key when it is not the secret (--signed-with token) */
  bodyKey: string | undefined;
  forwardTo: string | undefined;
  out: Output;
  /** called for each correctly signed event */
  onValid: () => void;
}

/** Answers one request, then prints its event (a JSON line with --json). */
async function receive(request: IncomingMessage, response: ServerResponse, flags: ListenFlags, receiver: Receiver): Promise<void> {
  const reply = (status: number, body: unknown) =>
    new Promise<void>((resolve) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body), resolve));
  if (request.method !== 'POST') return reply(405, { error: 'method_not_allowed', message: 'postbacks are POSTed' });
  const body = await readBody(request);
  if (!body) return reply(413, { error: 'payload_too_large', message: `bodies up to ${MAX_BODY} bytes` });
  const headers = { timestamped: header(request, SIGNATURE_HEADER), body: header(request, BODY_SIGNATURE_HEADER) };
  const check = verifySignature({ secret: receiver.secret, bodyKey: receiver.bodyKey, body, headers, toleranceSeconds: flags.tolerance });
  const raw = body.toString('utf8');
  const received = receivedFrom(request, raw, check);
  let answered = { status: 200, answer: { received: true } as unknown };
  if (!check.valid) answered = { status: 400, answer: { error: 'invalid_signature', message: VERIFY_REASONS[check.reason] } };
  else if (receiver.forwardTo) answered = await forward(receiver.forwardTo, body, request, received);
  await reply(answered.status, answered.answer);
  const { out } = receiver;
  if (out.json) out.jsonLine(receivedLine(received, raw));
  else out.data(eventLine(received, out));
  if (check.valid) receiver.onValid();
}

/** Binds the port, then prints where to send postbacks: after the bind, never before. */
async function bind(server: Server, flags: ListenFlags, out: Output, forwardTo: string | undefined): Promise<void> {
  server.listen(flags.port, flags.host);
  try {
    await once(server, 'listening');
  } catch (error) {
    throw new CliError(listenMessage(error as NodeJS.ErrnoException, flags.host, flags.port), EXIT.network);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : flags.port;
  const url = `http://${flags.host.includes(':') ? `[${flags.host}]` : flags.host}:${port}`;
  if (out.json) return out.jsonLine(JSON.stringify({ type: 'listening', url, postback_url: `${url}/`, forward_to: forwardTo ?? null }));
  out.data(`listening on ${url}\npostback_url: ${url}/`);
  out.message(`Checking signatures${forwardTo ? ` and forwarding to ${forwardTo}` : ''}; Ctrl-C stops.`);
}

/** Closes the server: idle connections at once, busy ones after a second. */
async function close(server: Server): Promise<void> {
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  setTimeout(() => server.closeAllConnections(), 1000).unref();
  await closed;
}

export async function listen(flags: ListenFlags): Promise<void> {
  const forwardTo = flags.forwardTo === undefined ? undefined : checkHttpUrl(flags.forwardTo, '--forward-to');
  const out = createOutput(flags);
  const secret = await resolveSecret(flags);
  const bodyKey = flags.signedWith === 'token' ? await resolveSigningToken(flags) : undefined;
  let valid = 0;
  let finish: (code?: number) => void = () => undefined;
  const finished = new Promise<number | undefined>((resolve) => (finish = resolve));
  const onValid = () => {
    if (flags.count !== undefined && ++valid >= flags.count) finish();
  };
  const server = createServer((request, response) => {
    receive(request, response, flags, { secret, bodyKey, forwardTo, out, onValid }).catch((error: unknown) => {
      out.message(`pinvoice: could not handle a request: ${(error as Error).message}`);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await bind(server, flags, out, forwardTo);
  const stop = () => finish();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const timer = flags.timeout === undefined ? undefined : setTimeout(() => finish(flags.count === undefined ? undefined : EXIT.watchTimeout), flags.timeout * 1000);
  const code = await finished;
  clearTimeout(timer);
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  await close(server);
  if (code !== undefined) throw new CliError(`received ${valid} of ${flags.count} events before --timeout (${spokenSeconds(flags.timeout ?? 0)})`, EXIT.watchTimeout);
}
