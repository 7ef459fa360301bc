// The passthrough (contract, "Production through a proxy"): each request is sent to the origin as it
// came (method, path, query, body bytes, headers; hop-by-hop headers dropped, Host the origin's), and
// the answer comes back as it came (status and its words, headers in their case and order, body bytes:
// gzip stays gzip, a redirect is passed back, never followed), with one header added,
// Pinvoice-Proxy-Entry. Nothing is retried but a read whose kept-alive connection the origin had
// closed before the request reached it. Faults are answered by the proxy: 502 gateway_unreachable,
// 504 gateway_timeout; an answer the origin cuts short is cut short to the client too.
// The exchange's entry (with its findings) is made after the answer is sent (writer.ts).
import type { Agent as HttpAgent, ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { ENTRY_HEADER, READ_METHODS, type ProxyErrorCode } from '../api/proxy.js';
import type { Finding } from '../api/findings.js';
import { networkError } from '../client/http.js';
import { spokenDuration } from '../base/spoken-duration.js';
import { TextLru } from '../base/text-lru.js';
import { proxyEntry, type Exchanged } from './entry.js';
import { refusal, type GuardOptions } from './guard.js';
import { recordedLine } from './record.js';
import type { LineOf, ProxyWriter } from './writer.js';

/** What the checks are given of an exchange (src/proxy/check.ts). */
export interface Exchange {
  method: string;
  path: string;
  query: URLSearchParams;
  requestBody: string | null;
  status: number | null;
  answerHeaders: Record<string, string | string[] | undefined>;
  answerBody: string | null;
}

export interface ForwardOptions extends GuardOptions {
  origin: URL;
  timeoutMs: number;
  writer: ProxyWriter;
  check: (exchange: Exchange) => Finding[];
  agent: HttpAgent | HttpsAgent;
  log: (line: string) => void;
  /** each exchange also has a line in the recording (--record) */
  record?: boolean;
}

/** The largest request body the proxy takes (it reads a write whole before sending it: the guard reads its amount). */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
/** The most of an answer kept for its checks and entry; a larger one passes whole, unchecked. */
const MAX_CHECKED_BYTES = 1024 * 1024;
const DROPPED_FROM_REQUEST: ReadonlySet<string> = new Set(['host', 'content-length', 'expect']);
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Raw headers (name, value, name, value…) without the hop-by-hop ones, those the Connection header names included. */
const NONE: ReadonlySet<string> = new Set();
function endToEnd(raw: readonly string[], drop: ReadonlySet<string> = NONE): string[] {
  let named: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() !== 'connection') continue;
    named ??= new Set();
    for (const token of (raw[i + 1] ?? '').split(',')) named.add(token.trim().toLowerCase());
  }
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] ?? '';
    const lower = name.toLowerCase();
    if (!HOP_BY_HOP.has(lower) && !named?.has(lower) && !drop.has(lower)) kept.push(name, raw[i + 1] ?? '');
  }
  return kept;
}

/** The answer's body as text, its content-encoding undone; null when it cannot be (too large, an encoding unknown). */
function decoded(body: Buffer | null, encoding: string | undefined): string | null {
  if (body === null) return null;
  try {
    switch ((encoding ?? '').trim().toLowerCase()) {
      case '':
      case 'identity':
        return body.toString('utf8');
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body).toString('utf8');
      case 'deflate':
        return inflateSync(body).toString('utf8');
      case 'br':
        return brotliDecompressSync(body).toString('utf8');
      default:
        return null;
    }
  } catch {
    return null;
  }
}

/**
 * What the checks make of a request line (`GET /api/v2/invoices?id=7`), kept for the next exchange of
 * the same: a client polls a few hundred of them in turn. Its query, parsed once (the checks then find
 * their findings of it by identity), and the last answer's text: the same string again for the same
 * bytes, so that a polled record is neither decoded nor hashed anew, and the checks' and redactions'
 * caches find it by identity (bench/proxy.ts: a fifth of the proxy's own CPU went to decoding and
 * hashing the same 3 KB record for every request). The bytes kept are a copy of their own, not a view
 * of a socket's pool, and only of answers of at most 16 KiB (as the redactions kept): at most 8 MB in all.
 */
interface RequestLine {
  query: URLSearchParams;
  answer?: { bytes: Buffer; encoding: string | undefined; text: string | null };
}
const LINES_KEPT = 256;
const ANSWER_KEPT_BYTES = 16 * 1024;

function requestLines() {
  const kept = new TextLru<RequestLine>(LINES_KEPT);
  return (method: string, url: string): RequestLine => {
    const key = `${method} ${url}`;
    let line = kept.get(key);
    if (line === undefined) {
      const mark = url.indexOf('?');
      kept.set(key, (line = { query: new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1)) }));
    }
    return line;
  };
}

/** decoded(), the line's last answer's text when its bytes are the same. */
function answerText(line: RequestLine, body: Buffer | null, encoding: string | undefined): string | null {
  if (body === null || body.length > ANSWER_KEPT_BYTES) return decoded(body, encoding);
  const last = line.answer;
  if (last !== undefined && last.encoding === encoding && last.bytes.equals(body)) return last.text;
  const text = decoded(body, encoding);
  const bytes = Buffer.allocUnsafeSlow(body.length);
  body.copy(bytes);
  line.answer = { bytes, encoding, text };
  return text;
}

/** Collects up to `cap` bytes; past it, only counts them (`whole` false). */
function collector(cap: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(chunk: Buffer) {
      size += chunk.length;
      if (size <= cap) chunks.push(chunk);
    },
    get size() {
      return size;
    },
    /** the bytes, or null past the cap (an answer in one chunk, most often: that chunk) */
    bytes: () => (size > cap ? null : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)),
  };
}

const EMPTY = Buffer.alloc(0);

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const body = collector(MAX_REQUEST_BYTES);
    request.on('data', (chunk: Buffer) => body.add(chunk));
    request.once('end', () => resolve(body.bytes() ?? undefined));
    request.once('error', reject);
  });
}

/** One exchange on its way: what it was, and what has come of it so far. */
interface Passage {
  id: number;
  started: number;
  method: string;
  url: string;
  path: string;
  /** the request's body (undefined: over MAX_REQUEST_BYTES) */
  body: Buffer | undefined;
  response: ServerResponse;
  exchanged: Exchanged;
  answerBytes: Buffer | null;
  answerHeaders: IncomingMessage['headers'];
  /** the gateway's answer (null: none, the proxy answered) */
  answer: IncomingMessage | null;
  /** the gateway's status (null: it did not answer, or cut its answer short) */
  upstreamStatus: number | null;
  finished: boolean;
}

/** A request that says it has no body (a GET, most often) is not waited for: nothing is read, no promise made. */
export function bodyOf(request: IncomingMessage): Buffer | Promise<Buffer | undefined> {
  const length = request.headers['content-length'];
  if ((length === undefined || length === '0') && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return EMPTY;
  }
  return readBody(request).catch(() => EMPTY);
}

export function createForwarder(options: ForwardOptions) {
  const { origin, writer } = options;
  const send = origin.protocol === 'https:' ? httpsRequest : httpRequest;
  const originText = origin.origin;
  const target = { protocol: origin.protocol, hostname: origin.hostname.replace(/^\[|\]$/g, ''), ...(origin.port !== '' && { port: origin.port }), agent: options.agent, setHost: false };
  const lineOf = requestLines();

  /** Hands the ended exchange to the writer, its entry and checks made off the answer's path. */
  function finish(passage: Passage): void {
    if (passage.finished) return;
    passage.finished = true;
    const { exchanged, method, url, path, body } = passage;
    exchanged.durationMs = performance.now() - passage.started;
    writer.end(passage.id, () => {
      const line = lineOf(method, url);
      exchanged.requestBody = body === undefined ? `[a body over ${MAX_REQUEST_BYTES} bytes]` : body.length === 0 ? null : body.toString('utf8');
      exchanged.answerBody = answerText(line, passage.answerBytes, passage.answerHeaders['content-encoding']);
      exchanged.findings = options.check({
        method, path, query: line.query, requestBody: exchanged.requestBody,
        status: passage.upstreamStatus, answerHeaders: passage.answerHeaders, answerBody: passage.upstreamStatus === null ? null : exchanged.answerBody,
      });
      return proxyEntry(exchanged);
    }, !READ_METHODS.includes(method), options.record ? recordingLine(passage) : undefined);
  }

  /** The exchange's line in the recording, from its entry (made in the writer's drain, in id order). */
  const recordingLine = (passage: Passage): LineOf => (entry) => recordedLine({
    id: passage.id, entry, exchanged: passage.exchanged, request: passage.response.req, answer: passage.answer,
    bodyKept: passage.answerBytes !== null && passage.exchanged.answerBody !== null,
  });

  /** The proxy's own answer, in place of the gateway's. */
  function answerOwn(passage: Passage, status: number, code: ProxyErrorCode, message: string): void {
    const text = JSON.stringify({ error: code, message });
    passage.exchanged.status = status;
    passage.exchanged.error = code;
    passage.answerBytes = Buffer.from(text);
    const { response } = passage;
    if (!response.headersSent && !response.destroyed) {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', [ENTRY_HEADER]: String(passage.id) }).end(text);
    }
    finish(passage);
  }

  /** The gateway's answer, passed back as it comes; one cut short is cut short to the client too. */
  function relay(passage: Passage, answer: IncomingMessage): void {
    const { response, exchanged } = passage;
    const status = answer.statusCode ?? 502;
    passage.upstreamStatus = status;
    passage.answerHeaders = answer.headers;
    // (kept for the recording's line only: held until the entry is made, the answer's message would outlive a scavenge or two for nothing)
    if (options.record) passage.answer = answer;
    exchanged.status = status;
    exchanged.upstream = { status, duration_ms: Math.round((performance.now() - passage.started) * 100) / 100 };
    const out = endToEnd(answer.rawHeaders);
    out.push(ENTRY_HEADER, String(passage.id));
    response.writeHead(status, answer.statusMessage, out);
    const kept = collector(MAX_CHECKED_BYTES);
    answer.on('data', (chunk: Buffer) => {
      kept.add(chunk);
      if (!response.write(chunk)) {
        answer.pause();
        response.once('drain', () => answer.resume());
      }
    });
    answer.once('end', () => {
      passage.answerBytes = kept.bytes();
      response.end();
      finish(passage);
    });
    answer.once('close', () => {
      if (answer.complete) return;
      exchanged.error = `the gateway cut its answer short after ${kept.size} bytes`;
      exchanged.status = null;
      passage.answerBytes = null;
      passage.upstreamStatus = null;
      response.destroy();
      finish(passage);
    });
  }

  /** Sends the request to the gateway; `retry`: a read may go once more if a kept-alive connection was found closed. */
  function attempt(passage: Passage, headers: string[], retry: boolean): void {
    let answered = false;
    let timedOut = false;
    const upstream: ClientRequest = send({ ...target, method: passage.method, path: passage.url, headers });
    const timer = setTimeout(() => {
      timedOut = true;
      upstream.destroy();
    }, options.timeoutMs);
    timer.unref();
    upstream.on('response', (answer) => {
      answered = true;
      relay(passage, answer);
      // (the timer goes on: an answer not whole within --timeout is cut short, as one the gateway cut)
      answer.once('close', () => clearTimeout(timer));
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (answered) return; // (the answer's own close says what happened)
      if (timedOut) return answerOwn(passage, 504, 'gateway_timeout', `${originText} did not answer within ${spokenDuration(options.timeoutMs)} (--timeout)`);
      if (retry && upstream.reusedSocket && error.code === 'ECONNRESET' && READ_METHODS.includes(passage.method)) return attempt(passage, headers, false);
      answerOwn(passage, 502, 'gateway_unreachable', networkError(error, originText, options.timeoutMs).message);
    });
    passage.response.once('close', () => {
      if (passage.response.writableFinished) return;
      passage.exchanged.error ??= 'the client closed the connection before the answer ended';
      upstream.destroy();
    });
    if (passage.body !== undefined && passage.body.length > 0) upstream.end(passage.body);
    else upstream.end();
  }

  /** The exchange, its body read: refused, or sent. */
  function pass(passage: Passage, request: IncomingMessage, body: Buffer | undefined): void {
    passage.body = body;
    if (body === undefined) return answerOwn(passage, 413, 'proxy_body_too_large', `the request body is over ${MAX_REQUEST_BYTES / 1024 / 1024} MiB; the proxy did not send it`);
    const refused = refusal(passage.method, passage.path, body, options);
    if (refused) return answerOwn(passage, 403, refused.code, refused.message);
    // (the body is read whole already: the client's Expect: 100-continue was answered by node, the origin needs none)
    const headers = endToEnd(request.rawHeaders, DROPPED_FROM_REQUEST);
    headers.push('Host', origin.host);
    if (body.length > 0 || request.headers['content-length'] !== undefined) headers.push('Content-Length', String(body.length));
    attempt(passage, headers, true);
  }

  /** Passes one request on, its body first read whole when it has one (a promise then, else nothing to wait for). */
  return function forward(request: IncomingMessage, response: ServerResponse): Promise<void> | undefined {
    const method = (request.method ?? 'GET').toUpperCase();
    const url = request.url ?? '/';
    const mark = url.indexOf('?');
    const passage: Passage = {
      id: writer.begin(), started: performance.now(), method, url, path: mark === -1 ? url : url.slice(0, mark), body: EMPTY, response,
      answerBytes: null, answerHeaders: {}, answer: null, upstreamStatus: null, finished: false,
      exchanged: { wall: Date.now(), method, url, headers: request.headers, requestBody: null, status: null, answerBody: null, upstream: null, error: null, durationMs: 0, findings: [] },
    };
    const body = bodyOf(request);
    if (Buffer.isBuffer(body)) return void pass(passage, request, body);
    return body.then((read) => pass(passage, request, read));
  };
}
