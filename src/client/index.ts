// createClient: the API's operations over HTTP, every answer read with the shared schemas: without
// zod when it fits a schema generated as a shape (read-shape.ts), else with zod, loaded only then
// (parse.ts), as are the readers of error answers.
import type { ChaosRequest } from '../api/sandbox.js';
import type { CreateInvoiceRequest, RefundRequest, ThreeDSRequest } from '../api/schemas.js';
import type { SandboxAction } from '../domain/status.js';
import { UnexpectedResponseError } from './errors.js';
import { readShape } from './read-shape.js';
import { createHttp, type HttpOptions, type HttpRequest } from './http.js';
import type { Parsed, SchemaName } from './parse.js';
import { OPERATIONS, SHAPES } from './shapes.js';

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  timeoutMs?: number;
  retries?: number;
  debug?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  version?: string;
  /** 429s waited out by this, without limit, and writes over one keep-alive pool (see HttpOptions): a batch */
  waitOutRateLimit?: (ms: number) => Promise<void>;
  keepAlive?: boolean;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UnexpectedResponseError(`unexpected response to ${what}: the body is not JSON (${text.slice(0, 80) || 'empty'})`);
  }
}

/** The value as its schema's parse returns it; what does not fit is zod's to parse, or to name. */
async function fit<K extends SchemaName>(name: K, value: unknown, what: string): Promise<Parsed<K>> {
  const shape = SHAPES[name];
  const read = shape === undefined ? undefined : readShape(shape, value);
  if (read !== undefined) return read as Parsed<K>;
  return (await import('./parse.js')).fit(name, value, what);
}

/** A new Idempotency-Key. node:crypto takes about 3 ms to load, so only the writes that need one load it. */
const newKey = async () => (await import('node:crypto')).randomUUID();

/** "/api/v2/invoices/{id}" with its parameters filled in, as src/api/operations.ts fills them. */
const fillPath = (path: string, params: Record<string, string | number>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));

export function createClient(options: ClientOptions) {
  const httpOptions: HttpOptions = {
    baseUrl: options.baseUrl,
    token: options.token,
    timeoutMs: options.timeoutMs ?? 15_000,
    retries: options.retries ?? 2,
    debug: options.debug,
    sleep: options.sleep,
    userAgent: `pinvoice/${options.version ?? 'dev'}`,
    waitOutRateLimit: options.waitOutRateLimit,
    keepAlive: options.keepAlive,
  };
  const send = createHttp(httpOptions);

  async function fetchJson(request: HttpRequest, what: string, answer?: { replayed?: boolean }): Promise<unknown> {
    const { status, text, replayed } = await send(request);
    if (status < 200 || status > 299) throw (await import('./parse.js')).toApiError(status, text);
    if (answer) answer.replayed = replayed === true;
    return parseJson(text, what);
  }

  async function call<K extends SchemaName>(request: HttpRequest, schema: K, what: string): Promise<Parsed<K>> {
    return fit(schema, await fetchJson(request, what), what);
  }

  async function getInvoice(id: string | number) {
    const op = OPERATIONS.getTransaction;
    return call({ method: 'GET', path: fillPath(op.path, { id }), retrySafe: true }, 'Transaction', op.name);
  }

  /** POSTs on one charge; each carries an Idempotency-Key, so a retry cannot act twice. */
  async function postOnInvoice(id: 'createRefund' | 'activate3ds' | `sandbox_${SandboxAction}`, invoice: string | number, body: unknown, key?: string) {
    const op = OPERATIONS[id];
    const headers = { 'Idempotency-Key': key ?? (await newKey()) };
    const request: HttpRequest = { method: 'POST', path: fillPath(op.path, { id: invoice }), body, headers, retrySafe: true };
    return call(request, 'Transaction', op.name);
  }

  /**
   * An operation with nothing in its path. Each is safe to send again: a read, a PUT or DELETE (each
   * names its whole result), or a POST with its Idempotency-Key (the sandbox clock moves once).
   */
  function plain<K extends SchemaName>(id: keyof typeof OPERATIONS, schema: K, method: HttpRequest['method'] = 'GET', body?: unknown, headers?: Record<string, string>) {
    return call({ method, path: OPERATIONS[id].path, body, headers, retrySafe: true }, schema, OPERATIONS[id].name);
  }
  const keyed = async () => ({ 'Idempotency-Key': await newKey() });

  return {
    getInvoice,
    refund: (invoice: string | number, body: RefundRequest, key?: string) => postOnInvoice('createRefund', invoice, body, key),
    complete3ds: (invoice: string | number, values: ThreeDSRequest, key?: string) => postOnInvoice('activate3ds', invoice, values, key),
    sandbox: (invoice: string | number, action: SandboxAction) => postOnInvoice(`sandbox_${action}`, invoice, {}),
    async publicInvoice(token: string) {
      const op = OPERATIONS.publicInvoice;
      return call({ method: 'GET', path: fillPath(op.path, { token_checkout: token }), retrySafe: true }, 'PublicInvoice', op.name);
    },
    webhookSecret: () => plain('webhookSecret', 'WebhookSecret'),
    async listEvents(invoice: string | number) {
      const op = OPERATIONS.listEvents;
      return (await call({ method: 'GET', path: fillPath(op.path, { id: invoice }), retrySafe: true }, 'EventList', op.name)).data;
    },
    async getEvent(id: string) {
      const op = OPERATIONS.getEvent;
      return call({ method: 'GET', path: fillPath(op.path, { event_id: id }), retrySafe: true }, 'WebhookEvent', op.name);
    },
    async resendEvent(id: string, key?: string) {
      const op = OPERATIONS.resendEvent;
      const headers = { 'Idempotency-Key': key ?? (await newKey()) };
      const request: HttpRequest = { method: 'POST', path: fillPath(op.path, { event_id: id }), body: {}, headers, retrySafe: true };
      return call(request, 'WebhookEvent', op.name);
    },
    clockShow: () => plain('sandboxClock', 'SandboxClock'),
    clockAdvance: async (seconds: number) => plain('sandboxClockAdvance', 'SandboxClock', 'POST', { seconds }, await keyed()),
    clockSet: async (now: string) => plain('sandboxClockSet', 'SandboxClock', 'POST', { now }, await keyed()),
    clockReset: () => plain('sandboxClockReset', 'SandboxClock', 'DELETE'),
    chaosShow: () => plain('sandboxChaos', 'ChaosRule'),
    chaosSet: (rule: ChaosRequest) => plain('sandboxChaosSet', 'ChaosRule', 'PUT', rule),
    chaosClear: () => plain('sandboxChaosClear', 'ChaosRule', 'DELETE'),
    scenarios: async () => (await plain('sandboxScenarios', 'ScenarioList')).data,
    company: () => plain('companyInfos', 'Enterprise'),
    /**
     * Always sends an Idempotency-Key (a new UUID unless given), which makes retries safe. `answer.replayed`
     * tells whether the server answered a create it had already made for the key (Idempotent-Replayed).
     */
    async createInvoice(body: CreateInvoiceRequest, idempotencyKey?: string, answer?: { replayed?: boolean }) {
      const op = OPERATIONS.createInvoice;
      const headers = { 'Idempotency-Key': idempotencyKey ?? (await newKey()) };
      const request: HttpRequest = { method: 'POST', path: op.path, body, headers, retrySafe: true };
      const { data } = await fit('CreatedEnvelope', await fetchJson(request, op.name, answer), op.name);
      // The record itself, as `invoice get` answers it (invoice_id and qr_code_pix are dropped: they
      // repeat secureId and pix.qrCode). An answer naming only the charge is looked up.
      const named = data.invoice_id ?? data.id;
      if (!('secureId' in data) && (typeof named === 'string' || typeof named === 'number')) return getInvoice(named);
      return fit('Transaction', data, op.name);
    },
  };
}

export type Client = ReturnType<typeof createClient>;
