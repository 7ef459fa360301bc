// `pinvoice proxy --forward` (contract, "Hard-coded hosts"): the proxy's listener also answers as an
// HTTP forward proxy, for code that names the gateway's host itself (HTTPS_PROXY=http://127.0.0.1:4020).
// A CONNECT to the origin's host and port is answered with a certificate for that host, as the client
// named it, from the proxy's local CA (local-ca.ts); the TLS is ended here and the connection handed
// to the proxy's own http server, so its requests are forwarded, guarded, checked and journaled as any
// other (forward.ts). A CONNECT to any other host or port is a tunnel: bytes piped both ways untouched
// (the client sees that server's own certificate), journaled as {direction: "tunnel", host, port}
// alone. A plain-HTTP request in absolute form (`GET http://host/path`) is forwarded when it names the
// origin, refused 403 proxy_host_refused otherwise. Without --forward, a CONNECT is refused 405.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { ENTRY_HEADER, type ProxyErrorCode } from '../api/proxy.js';
import { spokenDuration } from '../base/spoken-duration.js';
import type { NewJournalEntry } from '../server/store/port.js';
import { PROXY_COMPANY } from './journal.js';
import { leafContexts, proxyCa } from './local-ca.js';
import type { ProxyWriter } from './writer.js';

export interface ForwardingOptions {
  origin: URL;
  journalFile: string;
  server: Server;
  writer: ProxyWriter;
  timeoutMs: number;
  log: (line: string) => void;
}

export interface Forwarding {
  /** the CA certificate's path, for the start-up line */
  caPath: string;
  /** a request in absolute form (its url not starting with /): true when answered here, false when rewritten to the origin's path to be forwarded */
  absolute(request: IncomingMessage, response: ServerResponse): boolean;
  /** ends the tunnels still open */
  close(): void;
}

interface Target {
  /** as the client named it, lower case, an IPv6 address without its brackets */
  host: string;
  port: number;
}

/** The host:port of a CONNECT (`api.gateway.example:443`, `[::1]:8443`); undefined when it is none. */
function targetOf(authority: string): Target | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([\w.-]+)):(\d{1,5})$/.exec(authority);
  const host = (match?.[1] ?? match?.[2])?.toLowerCase();
  const port = Number(match?.[3]);
  if (host === undefined || (match?.[1] !== undefined && isIP(host) !== 6) || port < 1 || port > 65_535) return undefined;
  return { host, port };
}

const authorityText = ({ host, port }: Target) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** The proxy's own answer on a raw socket (a CONNECT's), then the socket closed. */
function answerRaw(socket: Duplex, status: number, reason: string, code: ProxyErrorCode, message: string, entry?: number): void {
  const text = JSON.stringify({ error: code, message });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\n${entry === undefined ? '' : `${ENTRY_HEADER}: ${entry}\r\n`}connection: close\r\n\r\n${text}`);
}

/** Without --forward: a CONNECT is refused, saying how to have it answered. */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  answerRaw(socket, 405, 'Method Not Allowed', 'proxy_forward_off', 'this proxy is not a forward proxy: start it with --forward to take CONNECT (HTTPS_PROXY), or point the client at it as its base URL');
}

const TUNNEL_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused', ENOTFOUND: 'the host name does not resolve', EAI_AGAIN: 'the host name does not resolve (DNS did not answer)',
  ETIMEDOUT: 'the connection timed out', EHOSTUNREACH: 'no route to the host', ENETUNREACH: 'no route to the host', ECONNRESET: 'the connection was reset',
};

/** A tunnel's entry: where to, whether it opened (200) or not (502, its error), how long opening took; no bytes of it. */
function tunnelEntry(wall: number, method: string, target: Target, status: number, durationMs: number, error: string | null): NewJournalEntry {
  return {
    company_id: PROXY_COMPANY, at: wall, sandbox_at: wall, direction: 'tunnel', method, path: authorityText(target), status, invoice_id: null,
    duration_ms: Math.round(durationMs * 100) / 100, request_body: null, response_body: null,
    detail: JSON.stringify({ host: target.host, port: target.port, error, upstream: null, findings: [] }),
  };
}

/** Makes (or reads) the CA beside the journal and takes CONNECT on the server. */
export async function startForwarding(options: ForwardingOptions): Promise<Forwarding> {
  const { origin, server, writer } = options;
  const { caPath, ca } = await proxyCa(options.journalFile, options.log);
  const contextFor = leafContexts(ca);
  const originHost = origin.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const originPort = Number(origin.port || (origin.protocol === 'https:' ? 443 : 80));
  const tunnels = new Set<Duplex>();

  /** The origin's own host: TLS ended here with a leaf for the host as named, the requests inside served as the proxy's. */
  async function intercept(socket: Duplex, head: Buffer, target: Target): Promise<void> {
    let secureContext;
    try {
      secureContext = await contextFor(target.host);
    } catch (error) {
      options.log(`forward: no certificate could be made for ${target.host}: ${(error as Error).message}`);
      return answerRaw(socket, 500, 'Internal Server Error', 'proxy_forward_failed', `the proxy could not make a certificate for ${target.host}; see its log`);
    }
    if (socket.destroyed) return;
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    const secure = new TLSSocket(socket as Socket, { isServer: true, secureContext, ALPNProtocols: ['http/1.1'] });
    let shaken = false;
    secure.once('secure', () => (shaken = true));
    secure.once('error', (error) => {
      if (!shaken) options.log(`forward: the TLS handshake of a client for ${authorityText(target)} failed (${error.message}): does it trust the proxy's CA (${caPath})?`);
      secure.destroy();
    });
    server.emit('connection', secure);
  }

  /** Any other host: a TCP connection to it, bytes piped both ways, the tunnel journaled once it opened or failed. */
  function tunnel(socket: Duplex, head: Buffer, target: Target): void {
    const id = writer.begin();
    const wall = Date.now();
    const started = performance.now();
    const upstream = connectTcp({ host: target.host, port: target.port });
    tunnels.add(socket);
    let open = false;
    const timer = setTimeout(() => upstream.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), options.timeoutMs);
    timer.unref();
    const journal = (status: number, error: string | null) => writer.end(id, () => tunnelEntry(wall, 'CONNECT', target, status, performance.now() - started, error), false);
    upstream.once('connect', () => {
      clearTimeout(timer);
      open = true;
      journal(200, null);
      socket.write(`HTTP/1.1 200 Connection Established\r\n${ENTRY_HEADER}: ${id}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (open) return void socket.destroy();
      open = true; // (answered once)
      const why = error.code === 'ETIMEDOUT' && error.message === 'timed out' ? `no connection within ${spokenDuration(options.timeoutMs)} (--timeout)` : (TUNNEL_ERRORS[error.code ?? ''] ?? error.code ?? error.message);
      const message = `cannot open a tunnel to ${authorityText(target)}: ${why}`;
      journal(502, message);
      answerRaw(socket, 502, 'Bad Gateway', 'tunnel_unreachable', message, id);
    });
    upstream.once('close', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    socket.once('close', () => {
      tunnels.delete(socket);
      upstream.destroy();
    });
  }

  server.on('connect', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const target = targetOf(request.url ?? '');
    if (target === undefined) return answerRaw(socket, 400, 'Bad Request', 'proxy_bad_connect', `CONNECT ${JSON.stringify(request.url ?? '')}: must name a host and a port, such as ${origin.hostname}:${originPort}`);
    if (origin.protocol === 'https:' && target.host === originHost && target.port === originPort) return void intercept(socket, head, target);
    tunnel(socket, head, target);
  });

  return {
    caPath,
    absolute(request, response) {
      const url = request.url ?? '';
      let asked: URL | undefined;
      try {
        asked = new URL(url);
      } catch {
        asked = undefined;
      }
      // (not a URL, such as `OPTIONS *`: passed on as it always was)
      if (asked === undefined || (asked.protocol !== 'http:' && asked.protocol !== 'https:')) return false;
      if (asked.origin === origin.origin) {
        request.url = `${asked.pathname}${asked.search}`;
        return false;
      }
      const target: Target = { host: asked.hostname.replace(/^\[|\]$/g, ''), port: Number(asked.port || (asked.protocol === 'https:' ? 443 : 80)) };
      const message = `${request.method ?? 'GET'} ${url.slice(0, 200)}: the proxy forwards plain HTTP to ${origin.origin} only; give it as HTTPS_PROXY (https:// URLs are tunnelled to any host), not HTTP_PROXY`;
      const id = writer.begin();
      writer.end(id, () => tunnelEntry(Date.now(), request.method ?? 'GET', target, 403, 0, message), false);
      request.resume();
      const text = JSON.stringify({ error: 'proxy_host_refused', message });
      response.writeHead(403, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', [ENTRY_HEADER]: String(id) }).end(text);
      return true;
    },
    close() {
      for (const socket of tunnels) socket.destroy();
    },
  };
}
