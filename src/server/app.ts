// createApp builds the HTTP app over a store without listening, so tests and `serve` share it.
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { OPERATIONS, routerPath } from '../api/operations.js';
import { authenticate } from './auth.js';
import { ApiError } from './errors.js';
import { checkKey, oncePerKey } from './idempotency.js';
import type { ServerContext } from './invoices/context.js';
import { expireDue } from './invoices/lifecycle.js';
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

export const BODY_LIMIT = 1024 * 1024;

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
}

function send(reply: FastifyReply, error: ApiError) {
  return reply.code(error.status).headers(error.headers).send(error.body());
}

/** Fastify's own errors (body parsing, limits) mapped to the contract's error codes. */
function frameworkError(error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'payload_too_large', `The request body is larger than ${BODY_LIMIT} bytes (1 MiB).`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'invalid_json', 'The body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, 'invalid_json', 'The body is not valid JSON (or holds a forbidden __proto__ or constructor key).');
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON|prototype|constructor/i.test(error.message))) {
    return new ApiError(400, 'invalid_json', 'The body is not valid JSON.');
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(400, 'bad_request', error.message);
  }
  return undefined;
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
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: false,
    forceCloseConnections: 'idle',
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    frameworkErrors: (error, _request, reply) => send(reply, frameworkError(error) ?? new ApiError(400, 'bad_request', error.message)),
  });
  app.removeContentTypeParser('text/plain');

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof ApiError) return send(reply, error);
    const mapped = frameworkError(error);
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
