// The proxy's own API, under /_pinvoice/ (never forwarded), behind the inspector token: serve's
// inspector endpoints (src/server/journal/handlers.ts) over the proxy's journal, its drift report and
// its health. A fastify app of its own, reached only for paths under the prefix (server.ts). And the
// dashboard's pages under /_pinvoice/dashboard (dashboard.ts, imported on the first of them), which
// take a session cookie instead of the token.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OWN_PREFIX } from '../api/proxy.js';
import { ApiError, frameworkError } from '../server/errors.js';
import type { Limits } from '../server/limits.js';
import { clearJournal, createStreams, findJournal, getJournalEntry, listJournal, type JournalContext } from '../server/journal/handlers.js';
import type { JournalFile } from '../server/store/index.js';
import type { ProxyDashboard } from './dashboard.js';
import { chargeFinder, PROXY_COMPANY, proxyJournal } from './journal.js';
import type { ProxySignIns } from './sign-in.js';
import type { ProxyWriter } from './writer.js';

export interface ProxyApiOptions {
  token: string;
  /** the gateway (null: replaying the recording `replay`) */
  origin: string | null;
  replay?: string | undefined;
  journalFile: string;
  allowWrites: boolean;
  maxAmountCents?: number | undefined;
  store: JournalFile;
  writer: ProxyWriter;
  /** the drift report of the journal's window, as JSON */
  drift?: (entries: ReturnType<typeof proxyJournal>) => Promise<unknown>;
  /** the dashboard's sign-ins (its link printed at start-up) */
  signIns: ProxySignIns;
  /** log lines (stderr): a dashboard page's unexpected fault */
  log: (line: string) => void;
}

export interface ProxyApi {
  /** a request under DASHBOARD_PATH: its page (the dashboard made on the first) */
  dashboard(request: IncomingMessage, response: ServerResponse): void;
  close(): Promise<void>;
}

const HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;
const COMPANY = { id: PROXY_COMPANY };
/** The largest body the proxy's own API takes (a find's pattern). */
export const BODY_LIMIT = 1024 * 1024;

export function registerProxyApi(app: FastifyInstance, options: ProxyApiOptions): ProxyApi {
  const expected = Buffer.from(`Bearer ${options.token}`);
  const ctx: JournalContext = {
    journal: options.writer.recorder,
    store: { journal: options.store },
    reads: { invoices: { find: chargeFinder(options.store) } },
    keepFlag: 'pinvoice proxy --journal-max N',
    roomFlag: 'pinvoice proxy --journal-max-bytes',
  };
  const streams = createStreams();
  app.addHook('onRequest', async (request) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ApiError(401, 'unauthorized', 'The proxy\'s own API needs its inspector token (printed when the proxy started): Authorization: Bearer <token>.', undefined, { 'WWW-Authenticate': 'Bearer realm="pinvoice proxy"' });
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(HEADERS);
  });
  app.setErrorHandler((error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    const refusal = error instanceof ApiError ? error : frameworkError(error, { bodyBytes: BODY_LIMIT } as Limits) ?? new ApiError(500, 'internal', `Unexpected proxy error: ${error.message}`);
    return reply.code(refusal.status).headers(refusal.headers).send(refusal.body());
  });
  app.setNotFoundHandler(async (request) => {
    throw new ApiError(404, 'not_found', `No operation ${request.method} ${request.url.split('?')[0]} in the proxy's own API (${OWN_PREFIX}/requests, ${OWN_PREFIX}/drift, ${OWN_PREFIX}/health).`);
  });
  app.get(`${OWN_PREFIX}/health`, async () => ({
    status: 'ok', origin: options.origin, ...(options.replay !== undefined && { replay: options.replay }), writes: options.allowWrites ? 'allowed' : 'refused', journal_max: options.writer.recorder.keep,
    ...(options.maxAmountCents !== undefined && { max_amount_cents: options.maxAmountCents }), journal: options.journalFile,
  }));
  app.get(`${OWN_PREFIX}/requests`, (request) => listJournal(ctx, COMPANY, request));
  app.get(`${OWN_PREFIX}/requests/stream`, (request, reply) => streams.stream(ctx, COMPANY, request, reply, HEADERS));
  app.get<{ Params: { id: string } }>(`${OWN_PREFIX}/requests/:id`, (request) => getJournalEntry(ctx, COMPANY, request.params.id));
  app.post(`${OWN_PREFIX}/requests/find`, (request) => findJournal(ctx, COMPANY, request, request.body));
  app.delete(`${OWN_PREFIX}/requests`, () => clearJournal(ctx, COMPANY));
  app.get(`${OWN_PREFIX}/drift`, async () => {
    if (!options.drift) throw new ApiError(404, 'not_found', 'This proxy has no drift report.');
    await options.writer.recorder.flush();
    return options.drift(proxyJournal({ ...options.store, close: () => undefined }));
  });
  let dashboard: Promise<ProxyDashboard> | undefined;
  const openDashboard = () => (dashboard ??= import('./dashboard.js').then(({ startDashboard }) => startDashboard({
    ctx, company: COMPANY, signIns: options.signIns, origin: options.origin, replay: options.replay, log: options.log,
  })));
  return {
    dashboard(request, response) {
      openDashboard().then((pages) => pages.routing(request, response), (error: unknown) => {
        options.log(`proxy dashboard: ${(error as Error).message}`);
        dashboard = undefined;
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', ...HEADERS }).end('The dashboard could not start; see the log of the proxy.');
      });
    },
    async close() {
      streams.closeAll();
      await (await dashboard?.catch(() => undefined))?.close();
    },
  };
}
