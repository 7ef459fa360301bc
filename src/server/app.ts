// createApp builds the HTTP app over a store without listening, so tests and `serve` share it.
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { OPERATIONS, routerPath } from '../api/operations.js';
import { authenticate } from './auth.js';
import { installBodyRules } from './body.js';
import { clientErrorHandler } from './client-errors.js';
import { ApiError, frameworkError } from './errors.js';
import { checkKey, oncePerKey } from './idempotency.js';
import type { ServerContext } from './invoices/context.js';
import { expireDue } from './invoices/lifecycle.js';
import { checkingInterval, DEFAULT_LIMITS, type Limits } from './limits.js';
import { createDispatcher, type PostbackOptions } from './postbacks/dispatcher.js';
import { HANDLERS } from './routes.js';
import type { CompanyRow } from './store/companies.js';
import type { Store } from './store/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the company of the bearer token, on authenticated operations */
    company?: CompanyRow;
  }
}

export interface AppOptions {
  store: Store;
  version: string;
  clock?: () => Date;
  random?: (n: number) => Uint8Array;
  pixExpirySeconds?: number;
  pixLocation?: string;
  boletoDueDays?: number;
  /** how often pending charges past their time are expired, in ms; 0 turns the timer off */
  expiryCheckMs?: number;
  /** where unexpected errors are reported (never to the client) */
  logError?: (error: unknown) => void;
  /** postback delivery: retry and timeout settings, or false for none (events are still recorded) */
  postbacks?: PostbackOptions | false;
  /** body size, nesting depth, timeouts and the in-flight budget; the defaults are documented */
  limits?: Partial<Limits>;
}

function send(reply: FastifyReply, error: ApiError) {
  return reply.code(error.status).headers(error.headers).send(error.body());
}

/** Pending charges expire at their time whether or not anyone reads them. */
function startExpiryTimer(app: FastifyInstance, ctx: ServerContext, everyMs: number, logError: (error: unknown) => void): void {
  if (everyMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      try {
        expireDue(ctx);
      } catch (error) {
        logError(error);
      }
    }, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

/** Delivers postbacks while the app runs. */
function startDispatcher(app: FastifyInstance, ctx: ServerContext, options: AppOptions, logError: (error: unknown) => void): void {
  if (options.postbacks === false) return;
  const dispatcher = createDispatcher({ ...options.postbacks, store: ctx.store, clock: ctx.clock, logError, userAgent: `pinvoice-postbacks/${options.version}` });
  app.addHook('onReady', async () => dispatcher.start());
  app.addHook('onClose', async () => dispatcher.stop());
}

export function createApp(options: AppOptions): FastifyInstance {
  const ctx: ServerContext = {
    store: options.store,
    clock: options.clock ?? (() => new Date()),
    random: options.random ?? ((n) => randomBytes(n)),
    pixExpirySeconds: options.pixExpirySeconds ?? 3600,
    pixLocation: options.pixLocation ?? 'pix.pinvoice.local/qr/v2',
    boletoDueDays: options.boletoDueDays ?? 3,
  };
  const logError = options.logError ?? ((error: unknown) => console.error(error));
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
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

  startDispatcher(app, ctx, options, logError);
  startExpiryTimer(app, ctx, options.expiryCheckMs ?? 1000, logError);
  for (const op of OPERATIONS) {
    const handler = HANDLERS[op.id];
    app.route({
      method: op.method,
      url: routerPath(op.path),
      // Before the body is read: a request without a valid token learns nothing about its body.
      onRequest: async (request) => {
        if (op.auth === 'bearer') request.company = authenticate(ctx.store, request);
      },
      handler: async (request, reply) => {
        const { company } = request;
        const run = () => handler({ ctx, request, company, version: options.version });
        const key = 'idempotent' in op && op.idempotent ? checkKey(request.headers['idempotency-key']) : undefined;
        const answer = key && company
          ? oncePerKey(ctx.store, { companyId: company.id, operation: op.id, key, body: request.body, now: ctx.clock() }, run)
          : run();
        if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
        return reply.code(answer.status).send(answer.body);
      },
    });
  }
  return app;
}
