// createApp builds the HTTP app over a store without listening, so tests and `serve` share it.
import { performance } from 'node:perf_hooks';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { IGNORED_FIELDS_HEADER } from '../api/ignored-fields.js';
import { ignoredFieldsHeader } from '../api/unknown-fields.js';
import { OPERATIONS, routerPath, type Operation } from '../api/operations.js';
import { CreateInvoiceResponse, Transaction } from '../api/schemas.js';
import { pooledRandomBytes } from '../base/random-pool.js';
import type { Seed } from '../base/seeded-random.js';
import { apiHeaders } from './api-headers.js';
import { createAuthenticator, type Authenticator } from './auth.js';
import { registerCheckout } from './checkout/routes.js';
import { registerDashboard } from './dashboard/routes.js';
import { installBodyRules } from './body.js';
import { clientErrorHandler } from './client-errors.js';
import { ApiError, forbidden, frameworkError, storeFaultError } from './errors.js';
import { healthLine, StoreFault } from './store/faults.js';
import { checkKey, IDEMPOTENCY_WINDOW_MS, oncePerKey, type Answer } from './idempotency.js';
import type { ServerContext } from './invoices/context.js';
import { createExpirySweep } from './sandbox/clock.js';
import { companyContext } from './sandbox/company-time.js';
import { resolveConfig, type RateLimit, type ServerSettings } from './config.js';
import { checkingInterval } from './limits.js';
import { createRecordCache } from './invoices/record-cache.js';
import { createDispatcher } from './postbacks/dispatcher.js';
import { incomingEntry } from './journal/capture.js';
import { createStreams, type Streams } from './journal/handlers.js';
import { createRecorder, type JournalRecorder } from './journal/recorder.js';
import { HANDLERS } from './routes.js';
import { certificateHosts, hostName, listeningHost, scratchKeyFolder } from './pix-location/host.js';
import { createSigner, type LocationSigner } from './pix-location/jws.js';
import { locationKeys, type LocationKeys } from './pix-location/key-folder.js';
import { LOCATION_PATH } from './pix-location/paths.js';
import { registerPixLocation } from './pix-location/routes.js';
import { frozenClock, SEEDED_START, seededSources, withEventIds } from './seeded.js';
import { createOwnHosts, guardPages } from './own-host.js';
import type { Access, Store } from './store/port.js';
import { createAnswered, type Answered, type RequestLine } from './answered.js';
import { METRICS_PATH, type MetricsAccess } from './metrics/access.js';
import { createCounts, type AppCounts } from './metrics/counts.js';
import { registerMetrics } from './metrics/route.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the company of the bearer token and the token itself, on authenticated operations */
    access?: Access;
    /** performance.now() when the operation took the request (its authentication, or its handler) */
    startedAt?: number;
  }
  interface FastifyContextConfig {
    /** the API operation a route serves */
    op?: Operation;
  }
}

export interface AppOptions extends ServerSettings {
  store: Store;
  version: string;
  clock?: () => Date;
  random?: (n: number) => Uint8Array;
  /**
   * Ids, tokens and codes drawn from streams of this seed, and (unless `clock` is given) a clock that
   * stands at SEEDED_START: the same requests give the same answers on every run (src/server/seeded.ts).
   */
  seed?: Seed;
  /** where unexpected errors are reported (never to the client) */
  logError?: (error: unknown) => void;
  /** where the store's changes of health are told, a line each (default: stderr); `warn` for a fault */
  logLine?: (line: string, level?: 'info' | 'warn') => void;
  /** GET /metrics and who may read it (default: loopback clients only); false: no /metrics, nothing counted */
  metrics?: MetricsAccess | false;
  /** where each answered request is told, a line each (`serve --log-format json`); absent: nowhere */
  requestLog?: (line: RequestLine) => void;
  /** the CA and leaf of the pix location, asked for on the first fetch (`serve`: beside its database); absent: a scratch folder's */
  pixKeys?: () => Promise<LocationKeys>;
  /** serve HTTPS with this key and certificate chain (PEM): `serve --tls`, the leaf of pixKeys */
  https?: { key: string; cert: string };
}

/** An error's answer, with the headers of every answer of the API (apiHeaders: Pinvoice-Serve, no-store, nosniff). */
function send(reply: FastifyReply, error: ApiError, headers: Readonly<Record<string, string>>) {
  return reply.code(error.status).headers(headers).headers(error.headers).send(error.body());
}

/**
 * A task the app runs every `everyMs` while it is ready (0: never), one run at a time, stopped on close.
 * What each run does is decided by the injected clock, so tests move time, not timers.
 */
function every(app: FastifyInstance, everyMs: number, task: () => Promise<unknown>, logError: (error: unknown) => void): void {
  if (everyMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      if (running) return;
      running = true;
      task().catch(logError).finally(() => (running = false));
    }, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

/** Delivers postbacks while the app runs; paused while the store is at fault, at once again when it is back. */
function startDispatcher(app: FastifyInstance, ctx: ServerContext, version: string, logError: (error: unknown) => void, jitter?: () => number, counts?: AppCounts): void {
  if (ctx.config.postbacks === false) return;
  const dispatcher = createDispatcher({
    ...ctx.config.postbacks, store: ctx.store, clock: ctx.clock, logError, userAgent: `pinvoice-postbacks/${version}`, random: jitter, journal: ctx.journal,
    ...(counts && { counted: (outcome) => counts.postbackAttempt(outcome) }),
  });
  let off = () => undefined as void;
  app.addHook('onReady', async () => {
    dispatcher.start();
    off = ctx.store.onHealthChange((health) => health.status === 'ok' && dispatcher.resume());
  });
  app.addHook('onClose', async () => {
    off();
    await dispatcher.stop();
  });
}

/** Tells the store's changes of health, a line each; the faults themselves are told there, not per request. */
function reportHealth(app: FastifyInstance, store: Store, logLine: NonNullable<AppOptions['logLine']>): void {
  const off = store.onHealthChange((health, before) => logLine(healthLine(health, before), health.status === 'ok' ? 'info' : 'warn'));
  const now = store.health(); // a fault from before the app (a large file being checked)
  if (now.status !== 'ok') logLine(healthLine(now, { status: 'ok' }), 'warn');
  if (store.journal.notice) logLine(`journal: ${store.journal.notice}`);
  app.addHook('onClose', async () => off());
}

export function createApp(options: AppOptions): FastifyInstance {
  const seeded = options.seed === undefined ? undefined : seededSources(options.seed);
  const store = seeded ? withEventIds(options.store, seeded.events) : options.store;
  const config = resolveConfig(options);
  const clock = options.clock ?? (seeded ? frozenClock(SEEDED_START) : () => new Date());
  // what /metrics tells, counted while it is on (the caches' lookups among it)
  const counts = options.metrics === false ? undefined : createCounts();
  const authenticate = createAuthenticator(store, counts && ((hit) => counts.cacheLookup('token', hit)));
  const ctx: ServerContext = {
    store,
    clock,
    realClock: clock,
    random: options.random ?? seeded?.ids ?? pooledRandomBytes,
    config,
    transaction: (fn) => store.transaction(fn),
    reads: store,
    records: createRecordCache(store.changes, counts && ((hit) => counts.cacheLookup('record', hit))),
  };
  // a fault of the store is told once, by reportHealth, not by each task or request that meets it
  const logged = options.logError ?? ((error: unknown) => console.error(error));
  const logError = (error: unknown) => error instanceof StoreFault || logged(error);
  const logLine = options.logLine ?? ((line: string) => console.error(line));
  // (told only while /metrics is on or with a request log: otherwise the request path pays one test)
  const answered = createAnswered(counts, options.requestLog);
  const journal = createRecorder(store, config.journal, logError, logLine, config.journalMaxBytes);
  ctx.journal = journal;
  const streams = createStreams();
  const { limits } = config;
  const headers = apiHeaders(options.version);
  const app = Fastify({
    ...(options.https && { https: options.https }),
    bodyLimit: limits.bodyBytes,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { requestTimeout: limits.requestTimeoutMs, headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: checkingInterval(limits) },
    logger: false,
    forceCloseConnections: 'idle',
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    clientErrorHandler: clientErrorHandler(limits),
    frameworkErrors: (error, request, reply) => {
      const refusal = frameworkError(error, limits) ?? new ApiError(400, 'bad_request', error.message);
      send(reply, refusal, headers);
      answered?.(request, 'other', refusal.status);
    },
  });
  app.removeContentTypeParser('text/plain');
  installBodyRules(app, limits);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer = (): ApiError => {
      if (error instanceof ApiError) return error;
      if ((error as unknown) instanceof StoreFault) return storeFaultError(error as unknown as StoreFault);
      const mapped = frameworkError(error, limits);
      if (mapped) return mapped;
      logError(error);
      return new ApiError(500, 'internal', 'Unexpected server error; it has been logged by the server.');
    };
    const refusal = answer();
    send(reply, refusal, headers);
    journalRequest(journal, ctx, request, { status: refusal.status, body: refusal.body() }, refusal);
    // an operation's refusal (its token, its body, its rule); a page's is told by its own hook (countPages)
    const op = answered && request.routeOptions.config?.op;
    if (op) answered(request, op.id, refusal.status);
    return reply;
  });
  app.setNotFoundHandler(async (request, reply) => {
    if (answered) request.startedAt ??= performance.now();
    const missing = new ApiError(404, 'not_found', `No operation ${request.method} ${request.url.split('?')[0]}.`);
    // a request to a path the API does not have, with a company's token, is journaled: a typo in a
    // merchant's path is what the journal is for (a request without a valid token stays out)
    if (journal.keep > 0 && request.url.startsWith('/api/') && request.headers.authorization !== undefined) {
      request.startedAt ??= performance.now();
      request.access = await authenticate(request).catch(() => undefined);
    }
    send(reply, missing, headers);
    journalRequest(journal, ctx, request, { status: 404, body: missing.body() }, missing, true);
    answered?.(request, 'other', 404);
    return reply;
  });

  // The app owns every timer: postbacks, expiry, and forgetting idempotency keys past their window.
  reportHealth(app, store, logLine);
  startDispatcher(app, ctx, options.version, logError, seeded?.jitter, counts);
  // streams end before the server waits for its connections; what is buffered is written last
  app.addHook('preClose', async () => streams.closeAll());
  app.addHook('onClose', async () => journal.close());
  app.addHook('onClose', async () => {
    authenticate.close();
    ctx.records?.close();
  });
  every(app, config.expiryCheckMs, createExpirySweep(ctx, logLine), logError);
  every(app, config.idempotencyPurgeMs, () => ctx.transaction((tx) => tx.idempotency.purgeBefore(new Date(ctx.clock().getTime() - IDEMPOTENCY_WINDOW_MS).toISOString())), logError);
  if (config.rateLimit) app.register(import('@fastify/rate-limit'), rateLimitOptions(config.rateLimit));
  // The API's routes in a plugin of their own: registered after the rate limit, which sees them.
  app.register(async (api) => registerOperations(api, ctx, { version: options.version, headers, authenticate, rateLimited: config.rateLimit !== false, streams, answered }));
  if (answered) countPages(app, answered);
  if (counts) registerMetrics(app, { counts, store, journal, realClock: ctx.realClock }, options.metrics || {});
  // the pages answer only at the server's own names; the API at any (own-host.ts)
  const hosts = createOwnHosts({ https: options.https !== undefined, publicHost: options.publicHost, allowedHosts: config.allowedHosts, address: () => app.server.address() });
  app.decorate('ownHosts', hosts);
  guardPages(app, hosts);
  registerCheckout(app, ctx, logError);
  registerDashboard(app, ctx, streams, logError, { secure: options.https !== undefined });
  registerLocation(app, ctx, options);
  return app;
}

/**
 * The pages, the pix location and anything else not an API operation are told as `other`, in a hook
 * added to their routes only (as guardPages does): the API's routes run no hook for it. /metrics is not told.
 */
function countPages(app: FastifyInstance, answered: Answered): void {
  const told = async (request: FastifyRequest, reply: FastifyReply) => answered(request, 'other', reply.statusCode, reply.elapsedTime / 1000);
  app.addHook('onRoute', (route) => {
    if (route.config?.op || route.url === METRICS_PATH) return;
    const others = route.onResponse === undefined ? [] : Array.isArray(route.onResponse) ? route.onResponse : [route.onResponse];
    route.onResponse = [...others, told];
  });
}

/**
 * The pix location on the app: codes name the listening address (known once bound, `--port 0`
 * included) unless a public host or a location was given; keys load on the first fetch when not given.
 */
function registerLocation(app: FastifyInstance, ctx: ServerContext, options: AppOptions): void {
  const config = ctx.config;
  if (options.publicHost === undefined && options.pixLocation === undefined) {
    app.addHook('onListen', async () => {
      const address = app.server.address();
      config.pixLocation = `${listeningHost(typeof address === 'object' && address ? address.address : '', address)}${LOCATION_PATH}`;
    });
  }
  const host = () => config.pixLocation.slice(0, -LOCATION_PATH.length);
  let signer: Promise<LocationSigner> | undefined;
  const keys = options.pixKeys ?? (() => locationKeys(scratchKeyFolder(), certificateHosts(hostName(host()))));
  // a failed load (a folder that cannot be written) is tried again on the next fetch, not remembered
  const load = () => keys().then(createSigner).catch((error: unknown) => {
    signer = undefined;
    throw error;
  });
  registerPixLocation(app, ctx, { host, signer: () => (signer ??= load()) });
}

/**
 * `serve --rate-limit`: per token, after authentication (a request without a valid token is a 401
 * and counts for nothing; the public views, the checkout page and /health are not limited).
 */
function rateLimitOptions(limit: RateLimit) {
  const per = limit.windowMs === 1000 ? 'second' : 'minute';
  return {
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (request: FastifyRequest) => `token:${request.access?.token.id ?? 0}`,
    allowList: (request: FastifyRequest) => request.access === undefined,
    errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) =>
      new ApiError(429, 'rate_limited', `Too many requests with this token: at most ${limit.max} a ${per}. Retry after ${context.after} (Retry-After).`),
  };
}

/**
 * A request made with a company's token goes into the journal once answered (the journal's own
 * endpoints excepted), redacted (journal/capture.ts); a write's entry is written on the next turn.
 */
function journalRequest(journal: JournalRecorder, ctx: ServerContext, request: FastifyRequest, answer: Answer, refusal?: ApiError, unrouted = false, routeOp?: Operation): void {
  const access = request.access;
  if (journal.keep <= 0 || !access) return;
  // (a route's handler names its operation: fastify's routeOptions makes an object of a dozen members on every read)
  const op = routeOp ?? request.routeOptions.config?.op;
  if ((!op && !unrouted) || (op && 'inspector' in op && op.inspector)) return;
  const durationMs = request.startedAt === undefined ? 0 : performance.now() - request.startedAt;
  journal.record(incomingEntry({
    request, access, status: answer.status, answer: answer.body, secret: op?.id === 'webhookSecret' || op?.id === 'sandboxDashboardLink', record: op !== undefined && answersRecord(op), replayed: answer.replayed,
    error: refusal && { code: refusal.code, details: refusal.details },
    durationMs, wall: Math.round(Date.now() - durationMs), serverNow: ctx.realClock().getTime(),
  }), request.method !== 'GET');
}

/** Whether an operation answers one charge's record (Create's inside `data`): the journal reads which charge from it. */
const answersRecord = (op: Operation): boolean => op.response === Transaction || op.response === CreateInvoiceResponse || op.id === 'searchTransaction';

interface OperationOptions {
  version: string;
  /** apiHeaders(version), made once for the app */
  headers: Readonly<Record<string, string>>;
  authenticate: Authenticator;
  /** a rate limit runs after authentication: every request's token is checked in a hook */
  rateLimited: boolean;
  streams: Streams;
  answered: Answered | undefined;
}

function registerOperations(app: FastifyInstance, ctx: ServerContext, { version, headers, authenticate, rateLimited, streams, answered }: OperationOptions): void {
  const journal = ctx.journal as JournalRecorder;
  // The context of a token's requests: its company's clock, and the token that makes the changes (recorded
  // in the charge's timeline). Made once per access the authenticator keeps (an access is kept
  // in memory until its company changes), for the server's context; a key's transaction makes its own.
  const contexts = new WeakMap<Access, ServerContext>();
  const accessContext = (base: ServerContext, access: Access): ServerContext => {
    const make = () => ({ ...companyContext(base, access.company), actor: access.token });
    if (base !== ctx) return make();
    let made = contexts.get(access);
    if (!made) contexts.set(access, (made = make()));
    return made;
  };
  for (const op of OPERATIONS) {
    const handler = HANDLERS[op.id];
    const check = async (request: FastifyRequest) => {
      request.startedAt ??= performance.now();
      request.access = await authenticate(request);
      if ('writes' in op && op.writes && request.access.token.read_only) throw forbidden(op.name);
    };
    // A request with a body is authenticated before the body is read: without a valid token it learns
    // nothing about its body. A GET has none: its token is checked first thing in the handler, which
    // spares it a hook (a sixth of a GET's time), unless the rate limit (a hook after this one) needs the token.
    const early = op.auth === 'bearer' && (op.method !== 'GET' || rateLimited);
    const late = op.auth === 'bearer' && !early;
    app.route({
      method: op.method,
      url: routerPath(op.path),
      config: { op },
      ...(early && { onRequest: check }),
      handler: async (request, reply) => {
        request.startedAt ??= performance.now();
        if (late) await check(request);
        const company = request.access?.company;
        const own = (base: ServerContext): ServerContext => (request.access ? accessContext(base, request.access) : base);
        const key = 'idempotent' in op && op.idempotent ? checkKey(request.headers['idempotency-key']) : undefined;
        // With a key, the operation runs inside the key's transaction: its lookup, work and stored answer commit together.
        const answer = key && company
          ? await oncePerKey(ctx.store, { companyId: company.id, operation: op.id, key, body: request.body, now: ctx.realClock() },
            (tx) => handler({ ctx: own({ ...ctx, transaction: (fn) => fn(tx), reads: tx }), request, reply, company, version, streams }))
          : await handler({ ctx: own(ctx), request, reply, company, version, streams });
        if (answer.hijacked) {
          answered?.(request, op.id, reply.raw.statusCode);
          return reply;
        }
        reply.headers(headers);
        if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
        // accepted with fields it does not know (as production, never a 422): they are named, not lost silently
        const ignored = 'body' in op && op.body ? ignoredFieldsHeader(op.body, request.body) : undefined;
        if (ignored) reply.header(IGNORED_FIELDS_HEADER, ignored);
        reply.code(answer.status);
        let body = answer.body;
        // A value the journal keeps is serialized here, by the route's own serializer, as send would: the
        // text is made once, sent and journaled (not serialized by send and again for the journal).
        if (journal.keep > 0 && typeof body === 'object' && body !== null && !Buffer.isBuffer(body)) body = reply.serialize(body);
        // (the content type fastify gives the JSON it serializes itself)
        if (answer.json || body !== answer.body) reply.type('application/json; charset=utf-8');
        reply.send(body);
        journalRequest(journal, ctx, request, body === answer.body ? answer : { ...answer, body }, undefined, false, op);
        answered?.(request, op.id, answer.status);
        return reply;
      },
    });
  }
}
