// Server-Sent Events (`pinvoice logs tail`) over node:http(s), as get-text.ts reads. The global fetch
// could carry a stream too, but it takes a private certificate authority (`ca`, `serve --tls`) only
// through undici's own Agent, which is not a dependency. Nothing here follows a redirect: an answer
// that is not an event stream is handed back whole, for the caller to turn into its error.
import http from 'node:http';
import type { TextResponse } from './get-text.js';

export interface ServerEvent {
  /** the `event:` field ("message" when there is none) */
  event: string;
  /** the last `id:` seen so far, as Last-Event-ID would send it */
  id: string | undefined;
  data: string;
}

/**
 * The event-stream format (HTML Living Standard, "Server-sent events"): text goes in as it comes, each
 * whole event comes out; `id:` and `retry:` are kept for the reconnection.
 */
export function createEventParser(onEvent: (event: ServerEvent) => void) {
  let buffer = '';
  let data: string[] = [];
  let type = '';
  const state: { lastId: string | undefined; retryMs: number | undefined } = { lastId: undefined, retryMs: undefined };
  const field = (line: string) => {
    if (line === '') {
      if (data.length > 0) onEvent({ event: type || 'message', id: state.lastId, data: data.join('\n') });
      data = [];
      type = '';
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) return; // a comment (the server's heartbeat)
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'event') type = value;
    else if (name === 'data') data.push(value);
    else if (name === 'id' && !value.includes('\0')) state.lastId = value;
    else if (name === 'retry' && /^\d{1,9}$/.test(value)) state.retryMs = Number(value);
  };
  return {
    state,
    push(text: string): void {
      buffer += text;
      for (let match = /\r\n|\n|\r/.exec(buffer); match; match = /\r\n|\n|\r/.exec(buffer)) {
        if (match[0] === '\r' && match.index === buffer.length - 1) break; // maybe the first half of a CRLF
        field(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
    },
  };
}

export interface StreamOptions {
  headers: Record<string, string>;
  /** the answer's head must come within this long */
  timeoutMs: number;
  /** a stream silent this long is taken as dropped (the server writes a heartbeat every 15 s) */
  idleMs: number;
  ca?: string[] | undefined;
  signal: AbortSignal;
  onOpen(): void;
  onEvent(event: ServerEvent): void;
}

/** How a stream ended: the server closed it, the connection dropped or went silent, or the signal stopped it. */
export interface StreamEnd {
  ended: true;
  lastId: string | undefined;
  retryMs: number | undefined;
}

/** The longest refusal read: an error body is a sentence, or a page that is never shown. */
const REFUSAL_LIMIT = 64 * 1024;

function timeoutError(): Error {
  const error = new Error('The operation was aborted due to timeout');
  error.name = 'TimeoutError';
  return error;
}

/** Reads an answer that is not an event stream, whole (capped), for the caller's error. */
function refusal(response: http.IncomingMessage, done: (answer: TextResponse) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  response.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= REFUSAL_LIMIT) chunks.push(chunk);
  });
  const retryAfter = response.headers['retry-after'];
  const end = () => done({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', text: Buffer.concat(chunks).toString('utf8'), retryAfter: retryAfter ?? null, location: response.headers.location });
  response.once('end', end);
  response.once('error', end);
}

/**
 * GETs `url` as an event stream and calls back with each event until it ends (resolves with how it
 * ended), or resolves with the answer when it is not a 200 event stream; rejects with node:http's
 * error when no answer came (the caller words it).
 */
export async function openEventStream(url: string, options: StreamOptions): Promise<StreamEnd | TextResponse> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? (await import('node:https')).default : http;
  const parser = createEventParser(options.onEvent);
  const ended = (): StreamEnd => ({ ended: true, lastId: parser.state.lastId, retryMs: parser.state.retryMs });
  return new Promise((resolve, reject) => {
    let idle: NodeJS.Timeout | undefined;
    const request = client.request(target, { method: 'GET', headers: options.headers, agent: false, ...(options.ca && { ca: options.ca }) }, (response) => {
      clearTimeout(head);
      const type = String(response.headers['content-type'] ?? '');
      if (response.statusCode !== 200 || !type.startsWith('text/event-stream')) return refusal(response, resolve);
      options.onOpen();
      const decoder = new TextDecoder();
      const quiet = () => {
        clearTimeout(idle);
        idle = setTimeout(() => response.destroy(), options.idleMs);
      };
      quiet();
      response.on('data', (chunk: Buffer) => {
        quiet();
        parser.push(decoder.decode(chunk, { stream: true }));
      });
      response.once('close', () => resolve(ended()));
      response.on('error', () => undefined); // a dropped connection: 'close' follows
    });
    const head = setTimeout(() => request.destroy(timeoutError()), options.timeoutMs);
    const stop = () => request.destroy();
    options.signal.addEventListener('abort', stop, { once: true });
    request.on('error', (error) => (options.signal.aborted ? resolve(ended()) : reject(error)));
    request.once('close', () => {
      if (options.signal.aborted) resolve(ended()); // stopped before an answer came
      clearTimeout(head);
      clearTimeout(idle);
      options.signal.removeEventListener('abort', stop);
    });
    if (options.signal.aborted) stop();
    request.end();
  });
}
