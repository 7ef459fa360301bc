// createApp builds the HTTP app over a store without listening, so tests and `serve` share it.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { OPERATIONS, routerPath } from '../api/operations.js';
import { pooledRandomBytes } from '../base/random-pool.js';
import { createAuthenticator } from './auth.js';
import { registerCheckout } from './checkout/routes.js';
import { installBodyRules } from './body.js';
import { clientErrorHandler } from './client-errors.js';
import { ApiError, forbidden, frameworkError } from './errors.js';
import { checkKey, IDEMPOTENCY_WINDOW_MS, oncePerKey } from './idempotency.js';
import type { ServerContext } from './invoices/context.js';
import { expireDue } from './invoices/lifecycle.js';
import { resolveConfig, type ServerSettings } from './config.js';
import { checkingInterval } from './limits.js';
import { createDispatcher } from './postbacks/dispatcher.js';
import { HANDLERS } from './routes.js';
import type { Access, Store } from './store/port.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the company of the bearer token and the token itself, on authenticated operations */
    access?: Access;
  }
}

export interface AppOptions extends ServerSettings {
  store: Store;
  version: string;
  clock?: () => Date;
  random?: (n: number) => Uint8Array;
  /** where unexpected errors are reported (never to the client) */
  logError?: (error: unknown) => void;
}

function send(reply: FastifyReply, error: ApiError) {
  return reply.code(error.status).headers(error.headers).send(error.body());
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

/** Delivers postbacks while the app runs. */
function startDispatcher(app: FastifyInstance, ctx: ServerContext, version: string, logError: (error: unknown) => void): void {
  if (ctx.config.postbacks === false) return;
  const dispatcher = createDispatcher({ ...ctx.config.postbacks, store: ctx.store, clock: ctx.clock, logError, userAgent: `pinvoice-postbacks/${version}` });
  app.addHook('onReady', async () => dispatcher.start());
  app.addHook('onClose', async () => dispatcher.stop());
}

export function createApp(options: AppOptions): FastifyInstance {
  const { store } = options;
  const config = resolveConfig(options);
  const ctx: ServerContext = {
    store,
    clock: options.clock ?? (() => new Date()),
    random: options.random ?? pooledRandomBytes,
    config,
    transaction: (fn) => store.transaction(fn),
    reads: store,
  };
  const logError = options.logError ?? ((error: unknown) => console.error(error));
  const { limits } = config;
  const authenticate = createAuthenticator(store);
  const app = Fastify({
    bodyLimit: limits.bodyBytes,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { requestTimeout: limits.requestTimeoutMs, headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: checkingInterval(limits) },
    logger: false,
    forceCloseConnections: 'idle',
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    clientErrorHandler: clientErrorHandler(limits),
    frameworkErrors: (error, _request, reply) => send(reply, frameworkError(error, limits) ?? new ApiError(400, 'bad_request', error.message)),
  });
  app.removeContentTypeParser('text/plain');
  installBodyRules(app, limits);

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof ApiError) return send(reply, error);
    const mapped = frameworkError(error, limits);
    if (mapped) return send(reply, mapped);
    logError(error);
    return send(reply, new ApiError(500, 'internal', 'Unexpected server error; it has been logged by the server.'));
  });
  app.setNotFoundHandler((request, reply) =>
    send(reply, new ApiError(404, 'not_found', `No operation ${request.method} ${request.url.split('?')[0]}.`)),
  );

  // The app owns every timer: postbacks, expiry, and forgetting idempotency keys past their window.
  startDispatcher(app, ctx, options.version, logError);
  every(app, config.expiryCheckMs, () => expireDue(ctx), logError);
  every(app, config.idempotencyPurgeMs, () => ctx.transaction((tx) => tx.idempotency.purgeBefore(new Date(ctx.clock().getTime() - IDEMPOTENCY_WINDOW_MS).toISOString())), logError);
  for (const op of OPERATIONS) {
    const handler = HANDLERS[op.id];
    app.route({
      method: op.method,
      url: routerPath(op.path),
      // Before the body is read: a request without a valid token learns nothing about its body.
      onRequest: async (request) => {
        if (op.auth !== 'bearer') return;
        request.access = await authenticate(request);
        if ('writes' in op && op.writes && request.access.token.read_only) throw forbidden(op.name);
      },
      handler: async (request, reply) => {
        const company = request.access?.company;
        // the token that makes the changes of this request, recorded in the charge's timeline
        const own: ServerContext = request.access ? { ...ctx, actor: request.access.token } : ctx;
        const key = 'idempotent' in op && op.idempotent ? checkKey(request.headers['idempotency-key']) : undefined;
        // With a key, the operation runs inside the key's transaction: its lookup, work and stored answer commit together.
        const answer = key && company
          ? await oncePerKey(ctx.store, { companyId: company.id, operation: op.id, key, body: request.body, now: ctx.clock() },
            (tx) => handler({ ctx: { ...own, transaction: (fn) => fn(tx), reads: tx }, request, company, version: options.version }))
          : await handler({ ctx: own, request, company, version: options.version });
        if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
        return reply.code(answer.status).send(answer.body);
      },
    });
  }
  registerCheckout(app, ctx, logError);
  return app;
}
