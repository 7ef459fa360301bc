// createClient: the API's operations over HTTP, every answer parsed with the shared schemas.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { fillPath, operation } from '../api/operations.js';
import { EventList, WebhookEvent, WebhookSecret } from '../api/postbacks.js';
import {
  Enterprise, ErrorBody, PublicInvoice, Transaction,
  type CreateInvoiceRequest, type RefundRequest, type ThreeDSRequest,
} from '../api/schemas.js';
import { jsonPath } from '../api/validate.js';
import type { SandboxAction } from '../domain/status.js';
import { ApiRequestError, UnexpectedResponseError } from './errors.js';
import { createHttp, type HttpOptions, type HttpRequest } from './http.js';

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  timeoutMs?: number;
  retries?: number;
  debug?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  version?: string;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UnexpectedResponseError(`unexpected response to ${what}: the body is not JSON (${text.slice(0, 80) || 'empty'})`);
  }
}

/** Parses with the schema; extra fields are tolerated (zod strips them), missing or wrong ones are named. */
function fit<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue ? jsonPath(issue.path) || '(body)' : '(body)';
  const message = issue?.message.replace(/^Invalid input: /, '') ?? 'does not fit';
  throw new UnexpectedResponseError(`unexpected response to ${what}: field ${field}: ${message}`);
}

function toApiError(status: number, text: string): ApiRequestError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const parsed = ErrorBody.partial().loose().safeParse(body);
  const loose = (body ?? {}) as { message?: unknown; error?: unknown };
  const message = typeof loose.message === 'string' ? loose.message : typeof loose.error === 'string' ? loose.error : `HTTP ${status}`;
  const code = typeof loose.error === 'string' ? loose.error : `http_${status}`;
  return new ApiRequestError(status, code, message, parsed.success ? (parsed.data.details ?? []) : []);
}

/** Create's answer as integrations read it: `{data: …}`, the record or at least the charge's id. */
const CreatedEnvelope = z.object({ data: z.looseObject({ invoice_id: z.unknown().optional(), id: z.unknown().optional() }) });

export function createClient(options: ClientOptions) {
  const httpOptions: HttpOptions = {
    baseUrl: options.baseUrl,
    token: options.token,
    timeoutMs: options.timeoutMs ?? 15_000,
    retries: options.retries ?? 2,
    debug: options.debug,
    sleep: options.sleep,
    userAgent: `pinvoice/${options.version ?? 'dev'}`,
  };
  const send = createHttp(httpOptions);

  async function fetchJson(request: HttpRequest, what: string): Promise<unknown> {
    const { status, text } = await send(request);
    if (status < 200 || status > 299) throw toApiError(status, text);
    return parseJson(text, what);
  }

  async function call<S extends z.ZodType>(request: HttpRequest, schema: S, what: string): Promise<z.infer<S>> {
    return fit(schema, await fetchJson(request, what), what);
  }

  async function getInvoice(id: string | number) {
    const op = operation('getTransaction');
    return call({ method: 'GET', path: fillPath(op.path, { id }), retrySafe: true }, Transaction, op.name);
  }

  /** POSTs on one charge; each carries an Idempotency-Key, so a retry cannot act twice. */
  function postOnInvoice(id: 'createRefund' | 'activate3ds' | `sandbox_${SandboxAction}`, invoice: string | number, body: unknown, key: string = randomUUID()) {
    const op = operation(id);
    const request: HttpRequest = { method: 'POST', path: fillPath(op.path, { id: invoice }), body, headers: { 'Idempotency-Key': key }, retrySafe: true };
    return call(request, Transaction, op.name);
  }

  return {
    getInvoice,
    refund: (invoice: string | number, body: RefundRequest, key?: string) => postOnInvoice('createRefund', invoice, body, key),
    complete3ds: (invoice: string | number, values: ThreeDSRequest, key?: string) => postOnInvoice('activate3ds', invoice, values, key),
    sandbox: (invoice: string | number, action: SandboxAction) => postOnInvoice(`sandbox_${action}`, invoice, {}),
    async publicInvoice(token: string) {
      const op = operation('publicInvoice');
      return call({ method: 'GET', path: fillPath(op.path, { token_checkout: token }), retrySafe: true }, PublicInvoice, op.name);
    },
    async webhookSecret() {
      const op = operation('webhookSecret');
      return call({ method: 'GET', path: op.path, retrySafe: true }, WebhookSecret, op.name);
    },
    async listEvents(invoice: string | number) {
      const op = operation('listEvents');
      return (await call({ method: 'GET', path: fillPath(op.path, { id: invoice }), retrySafe: true }, EventList, op.name)).data;
    },
    async getEvent(id: string) {
      const op = operation('getEvent');
      return call({ method: 'GET', path: fillPath(op.path, { event_id: id }), retrySafe: true }, WebhookEvent, op.name);
    },
    async resendEvent(id: string, key: string = randomUUID()) {
      const op = operation('resendEvent');
      const request: HttpRequest = { method: 'POST', path: fillPath(op.path, { event_id: id }), body: {}, headers: { 'Idempotency-Key': key }, retrySafe: true };
      return call(request, WebhookEvent, op.name);
    },
    async company() {
      const op = operation('companyInfos');
      return call({ method: 'GET', path: op.path, retrySafe: true }, Enterprise, op.name);
    },
    /** Always sends an Idempotency-Key (a new UUID unless given), which makes retries safe. */
    async createInvoice(body: CreateInvoiceRequest, idempotencyKey: string = randomUUID()) {
      const op = operation('createInvoice');
      const request: HttpRequest = { method: 'POST', path: op.path, body, headers: { 'Idempotency-Key': idempotencyKey }, retrySafe: true };
      const { data } = fit(CreatedEnvelope, await fetchJson(request, op.name), op.name);
      // The record itself, as `invoice get` answers it (invoice_id and qr_code_pix are dropped: they
      // repeat secureId and pix.qrCode). An answer naming only the charge is looked up.
      const named = data.invoice_id ?? data.id;
      if (!('secureId' in data) && (typeof named === 'string' || typeof named === 'number')) return getInvoice(named);
      return fit(Transaction, data, op.name);
    },
  };
}

export type Client = ReturnType<typeof createClient>;
