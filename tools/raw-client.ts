// The load generator's HTTP/1.1 client: one keep-alive socket per connection, the request's bytes
// built once, and only as much of each answer parsed as counting it needs (status line,
// content-length or chunked framing). node:http's client costs more CPU per request than node:http's
// server, so on a 2-core machine it, not the server, set the pace of every run: with this client the
// bare baseline is the server's limit (the bench prints both sides' CPU to show it).
import { connect, type Socket } from 'node:net';

export interface RawTarget {
  host: string;
  port: number;
  method: string;
  path: string;
  /** the whole request: head and body */
  bytes: Buffer;
}

export interface RawAnswer {
  status: number;
  /** kept when asked for, and for any answer that is not a 2xx */
  body?: Buffer;
}

/** A request's bytes, built once: Host, keep-alive, the given headers, Content-Length for a body. */
export function rawTarget(url: string, method: string, headers: Record<string, string> = {}, body?: string): RawTarget {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:') throw new Error(`${url}: the load generator speaks http only`);
  const payload = body === undefined ? undefined : Buffer.from(body);
  const path = parsed.pathname + parsed.search;
  const lines = [`${method} ${path} HTTP/1.1`, `host: ${parsed.host}`, 'connection: keep-alive'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (payload) lines.push(`content-length: ${payload.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return { host: parsed.hostname, port: Number(parsed.port || 80), method, path, bytes: payload ? Buffer.concat([head, payload]) : head };
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:[ \t]*chunked/i;
const CLOSE = /\r\nconnection:[ \t]*close/i;

interface Parsed {
  status: number;
  /** where the answer's body starts and ends in the buffer */
  bodyStart: number;
  bodyEnd: number;
  /** where the next answer starts */
  end: number;
  close: boolean;
  chunks?: Buffer[];
}

/** The first whole answer in `buffer`, or undefined when more bytes are needed. */
function parse(buffer: Buffer, method: string): Parsed | undefined {
  const headEnd = buffer.indexOf(HEAD_END);
  if (headEnd < 0) return undefined;
  const head = buffer.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  const close = CLOSE.test(head);
  if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { status, bodyStart, bodyEnd: bodyStart, end: bodyStart, close };
  }
  const length = CONTENT_LENGTH.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    return end <= buffer.length ? { status, bodyStart, bodyEnd: end, end, close } : undefined;
  }
  if (CHUNKED.test(head)) {
    const chunks: Buffer[] = [];
    let at = bodyStart;
    for (;;) {
      const lineEnd = buffer.indexOf(CRLF, at);
      if (lineEnd < 0) return undefined;
      const size = Number.parseInt(buffer.toString('latin1', at, lineEnd), 16);
      if (Number.isNaN(size)) throw new Error('a chunk size that is not hexadecimal');
      if (size === 0) {
        // no trailers are expected: the last chunk is followed by an empty line
        const end = lineEnd + 4;
        return end <= buffer.length ? { status, bodyStart, bodyEnd: bodyStart, end, close, chunks } : undefined;
      }
      const dataEnd = lineEnd + 2 + size;
      if (dataEnd + 2 > buffer.length) return undefined;
      chunks.push(buffer.subarray(lineEnd + 2, dataEnd));
      at = dataEnd + 2;
    }
  }
  throw new Error(`an answer (${status}) with neither content-length nor chunked framing: the client cannot tell where it ends`);
}

/** One keep-alive connection to one origin: a request at a time (no pipelining), reconnecting when the server closed it. */
export class RawConnection {
  private socket: Socket | undefined;
  private buffer: Buffer | undefined;
  private waiting: { target: RawTarget; keepBody: boolean; resolve: (answer: RawAnswer) => void; reject: (error: Error) => void } | undefined;
  /** when the request waiting must have been answered (checked once a second: no timer per request) */
  private deadline = 0;
  private readonly watchdog: NodeJS.Timeout;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs: number,
  ) {
    this.watchdog = setInterval(() => {
      if (!this.waiting || performance.now() < this.deadline) return;
      const socket = this.socket;
      this.socket = undefined;
      socket?.destroy();
      this.fail(new Error(`no answer within ${this.timeoutMs} ms`));
    }, 1000);
    this.watchdog.unref();
  }

  private open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    const lost = (error?: Error) => {
      // (a socket left behind after a `connection: close` answer ends on its own: nothing waits on it)
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.buffer = undefined;
      this.fail(error ?? new Error('the server closed the connection before answering'));
    };
    socket.on('error', lost);
    socket.on('close', () => lost());
    return socket;
  }

  request(target: RawTarget, keepBody: boolean): Promise<RawAnswer> {
    if (this.waiting) return Promise.reject(new Error('one request at a time on a connection'));
    this.socket ??= this.open();
    const socket = this.socket;
    return new Promise((resolve, reject) => {
      this.waiting = { target, keepBody, resolve, reject };
      this.deadline = performance.now() + this.timeoutMs;
      socket.write(target.bytes);
    });
  }

  private fail(error: Error): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = undefined;
    waiting.reject(error);
  }

  private received(chunk: Buffer): void {
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    const waiting = this.waiting;
    if (!waiting) return;
    let parsed: Parsed | undefined;
    try {
      parsed = parse(this.buffer, waiting.target.method);
    } catch (error) {
      this.socket?.destroy();
      return this.fail(error as Error);
    }
    if (!parsed) return;
    const { status, bodyStart, bodyEnd, end, close, chunks } = parsed;
    const ok = status >= 200 && status < 300;
    const body = waiting.keepBody || !ok ? Buffer.from(chunks ? Buffer.concat(chunks) : this.buffer.subarray(bodyStart, bodyEnd)) : undefined;
    this.buffer = end < this.buffer.length ? this.buffer.subarray(end) : undefined;
    if (close) {
      this.socket?.end();
      this.socket = undefined;
      this.buffer = undefined;
    }
    this.waiting = undefined;
    waiting.resolve({ status, body });
  }

  close(): void {
    clearInterval(this.watchdog);
    this.socket?.destroy();
    this.socket = undefined;
  }
}
