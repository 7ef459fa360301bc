// `pinvoice proxy`'s server: one node:http server whose requests under /_pinvoice/ go to the proxy's
// own API (a fastify app, api.ts) and every other to the origin (forward.ts), through one kept-alive
// pool of connections (or, with --replay, to the recording's answers: replay.ts). The journal is
// serve's store in a file of its own, written by its own thread. With --forward it also takes CONNECT
// (connect.ts); without, a CONNECT is refused 405.
import { randomBytes } from 'node:crypto';
import { createServer, Agent as HttpAgent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSecureContext } from 'node:tls';
import Fastify from 'fastify';
import type { Finding } from '../api/findings.js';
import { DASHBOARD_PATH, OWN_PREFIX } from '../api/proxy.js';
import { listenMessage } from '../base/listen-message.js';
import { registerProxyApi, BODY_LIMIT } from './api.js';
import { refuseConnect, startForwarding, type Forwarding } from './connect.js';
import { createForwarder, type Exchange } from './forward.js';
import { openJournalForWriting } from './journal.js';
import { openRecording } from './record.js';
import { createSignIns } from './sign-in.js';
import { createReplayer, type Replay } from './replay.js';
import { trustedAuthorities } from './trust.js';
import { createWriter, type ProxyWriter } from './writer.js';

export interface ProxyOptions {
  /** the gateway's origin (scheme, host, port); none when replaying */
  origin?: URL | undefined;
  host: string;
  port: number;
  journalFile: string;
  /** the journal's folder is pinvoice's own (the default, in the data directory): tightened when found wider */
  ownJournalFolder?: boolean;
  /** entries kept (the newest) */
  keep: number;
  /** the journal's room on disk, its write-ahead log included (the oldest dropped beyond it) */
  maxBytes?: number;
  allowWrites: boolean;
  maxAmountCents?: number | undefined;
  timeoutMs: number;
  /** the inspector token (a new one when not given) */
  token?: string;
  /** the checks of each exchange (none: no findings) */
  check?: (exchange: Exchange) => Finding[];
  drift?: Parameters<typeof registerProxyApi>[1]['drift'];
  /** log lines (stderr) */
  log: (line: string) => void;
  /** --forward: also an HTTP forward proxy (CONNECT; connect.ts) */
  forward?: boolean;
  /** --record FILE: each exchange also appended to this recording */
  record?: string | undefined;
  /** --replay FILE: every request answered from this recording, none sent to `origin` */
  replay?: Replay | undefined;
}

export interface RunningProxy {
  url: string;
  token: string;
  /** what opening the journal had to say (a damaged file set aside), once */
  notice?: string | undefined;
  /** --forward: the local CA's certificate, for clients to trust */
  caPath?: string | undefined;
  /** the dashboard's one-time sign-in link (10 minutes) */
  dashboardLink: string;
  close(): Promise<void>;
}

export class ProxyListenError extends Error {
  override readonly name = 'ProxyListenError';
}

/** A new inspector token: only this proxy's run knows it. */
const newToken = () => `pinv_proxy_${randomBytes(24).toString('base64url')}`;

/** The origin's pool of kept-alive connections, and the forwarder passing requests through it. */
function passthrough(options: ProxyOptions, writer: ProxyWriter) {
  const origin = options.origin as URL;
  const agentOptions = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' as const };
  const ca = origin.protocol === 'https:' ? trustedAuthorities() : undefined;
  // one secure context for every connection: given `ca`, each new connection would parse the ~300 CAs again (~0.1 s of the main thread each)
  const secureContext = ca && createSecureContext({ ca });
  const agent = origin.protocol === 'https:' ? new HttpsAgent({ ...agentOptions, ...(secureContext && { secureContext }) }) : new HttpAgent(agentOptions);
  const forward = createForwarder({
    origin, timeoutMs: options.timeoutMs, writer, agent, log: options.log, record: options.record !== undefined,
    allowWrites: options.allowWrites, maxAmountCents: options.maxAmountCents, check: options.check ?? (() => []),
  });
  return { forward, close: () => agent.destroy() };
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const store = openJournalForWriting(options.journalFile, options.log, options.ownJournalFolder);
  const recording = options.record === undefined ? undefined : openRecording(options.record, options.log);
  const writer = await createWriter(store, { entries: options.keep, bytes: options.maxBytes }, options.log, recording);
  const token = options.token ?? newToken();
  const { forward, close: closeUpstream } = options.replay ? { forward: createReplayer(options.replay, writer), close: () => undefined } : passthrough(options, writer);
  let server: Server | undefined;
  let forwarding: Forwarding | undefined;
  const signIns = createSignIns(token);
  const isDashboard = (url: string) => url.startsWith(DASHBOARD_PATH) && (url.length === DASHBOARD_PATH.length || url[DASHBOARD_PATH.length] === '/' || url[DASHBOARD_PATH.length] === '?');
  const own = Fastify({
    bodyLimit: BODY_LIMIT,
    serverFactory: (handler) => {
      server = createServer({ keepAliveTimeout: 65_000 }, (request: IncomingMessage, response: ServerResponse) => {
        const url = request.url ?? '/';
        if (url === OWN_PREFIX || url.startsWith(`${OWN_PREFIX}/`) || url.startsWith(`${OWN_PREFIX}?`)) return isDashboard(url) ? api.dashboard(request, response) : handler(request, response);
        // (--forward: a request in absolute form, `GET http://host/path`, as HTTP_PROXY clients send)
        if (forwarding !== undefined && url.charCodeAt(0) !== 0x2f && forwarding.absolute(request, response)) return;
        const failed = (error: unknown) => {
          options.log(`proxy: ${(error as Error).message}`);
          if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'internal', message: 'the proxy failed; see its log' }));
          else response.destroy();
        };
        try {
          forward(request, response)?.catch(failed);
        } catch (error) {
          failed(error);
        }
      });
      return server;
    },
  });
  const api = registerProxyApi(own, {
    token, origin: options.origin?.origin ?? null, replay: options.replay?.file, journalFile: options.journalFile, allowWrites: options.allowWrites,
    maxAmountCents: options.maxAmountCents, store, writer, drift: options.drift, signIns, log: options.log,
  });
  await own.ready();
  try {
    if (options.forward && options.origin) forwarding = await startForwarding({ origin: options.origin, journalFile: options.journalFile, server: server as Server, writer, timeoutMs: options.timeoutMs, log: options.log });
    else (server as Server).on('connect', refuseConnect);
  } catch (error) {
    await writer.close();
    throw error;
  }
  try {
    await own.listen({ host: options.host, port: options.port });
  } catch (error) {
    await writer.close();
    throw new ProxyListenError(listenMessage(error as NodeJS.ErrnoException, options.host, options.port));
  }
  const address = (server as Server).address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    token,
    notice: store.notice,
    caPath: forwarding?.caPath,
    dashboardLink: `http://${host}:${address.port}${DASHBOARD_PATH}/sign-in?code=${signIns.makeCode(Date.now()).code}`,
    async close() {
      await api.close();
      forwarding?.close();
      (server as Server).closeIdleConnections();
      await own.close();
      closeUpstream();
      await writer.close();
    },
  };
}
