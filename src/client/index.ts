// createClient: the API's operations over HTTP. Answers are read tolerantly (src/client/read): the
// client takes what it knows from wherever a gateway puts it and keeps the answer as received (`raw`,
// what --json prints), so that no field, status or shape it did not foresee makes it refuse a record.
// What it sends is checked strictly, by the callers, with the shared schemas.
import type { ChaosRequest, SigningKey } from '../api/sandbox.js';
import type { CreateInvoiceRequest, RefundRequest, ThreeDSRequest } from '../api/schemas.js';
import type { SandboxAction } from '../domain/status.js';
import { ApiRequestError, RedirectError, UnexpectedResponseError } from './errors.js';
import type { ServerEvent, StreamEnd } from './event-stream.js';
import { createHttp, logRequest, networkError, REDIRECTS, redirectMessage, requestHeaders, requestUrl, type HttpOptions, type HttpRequest, type HttpResponse } from './http.js';
import { OPERATIONS, type OperationId } from './operations.js';
import { toApiError } from './read/error-body.js';
import { isWholeRecord, readIdentity, readTransaction, type TransactionView } from './read/transaction.js';
import { isRecord, unwrapData } from './read/values.js';

/** A request with no answer gives up after this long, retries and waits included (PINVOICE_TIMEOUT, --timeout). */
export const DEFAULT_TIMEOUT_MS = 20_000;

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
  /** how messages name an operation (the CLI: the command that calls it); default: the specification's name */
  nameOperation?: (id: OperationId) => string;
  /** certificate authorities to trust instead of Node's (see HttpOptions) */
  ca?: string[] | undefined;
  /** where the inspector's journal is: serve's /api/v2/sandbox/requests (default), or a proxy's /_pinvoice/requests */
  journalPath?: string;
}

/** serve's journal path, which `journalPath` stands in for. */
const JOURNAL_PATH = '/api/v2/sandbox/requests';

/** What a create answered: the answer as received, its `data` (or itself), and the charge read from that. */
export interface Created {
  raw: unknown;
  data: unknown;
  /** the whole view, read when first asked for (a batch needs only the identity) */
  view: TransactionView;
  identity: Pick<TransactionView, 'id' | 'secureId' | 'status'>;
  /** the answer holds the charge's whole record, not only its id and pix code */
  whole: boolean;
  /** the request's fields the gateway said it ignored (Pinvoice-Ignored-Fields; production never says): none, most often */
  ignoredFields: string[];
}

/** What an answer's headers said besides its body. */
export interface AnswerNotes {
  /** Idempotent-Replayed: the server answered a create it had already made for the key */
  replayed?: boolean;
  /** Pinvoice-Ignored-Fields, as sent */
  ignoredFields?: string | undefined;
}

/** How journalStream is followed: where it resumes, what hears its events, what stops it. */
export interface JournalStream {
  /** the last event's id (Last-Event-ID): the stream resumes after it; none: from now */
  lastEventId?: string | undefined;
  signal: AbortSignal;
  /** the server has answered with the stream */
  onOpen(): void;
  onEvent(event: ServerEvent): void;
}

/** Three of the server's heartbeats (every 15 s) missed: the connection is taken as dropped. */
const STREAM_IDLE_MS = 45_000;

/** One page of `pinvoice serve`'s charge listing: the records as sent, their views, and where the next page starts. */
export interface InvoicePage {
  records: unknown[];
  views: TransactionView[];
  nextCursor: string | undefined;
}

/**
 * The listing is a `pinvoice serve` extension on Search Transaction's path: a gateway without it answers
 * 404/405, a 422 of its own about the missing `id` (an older serve's names `query.id`), or a record.
 */
function noListing(baseUrl: string, status?: number): ApiRequestError {
  const said = status === undefined ? 'it answered something other than a list' : `it answered HTTP ${status}`;
  return new ApiRequestError(status ?? 404, 'no_listing', `this gateway (${new URL(baseUrl).origin}) has no charge listing or search: that is a \`pinvoice serve\` extension (${said}); it finds a charge by its id or secureId only`, [], true);
}

const listingRefused = (error: unknown) =>
  error instanceof ApiRequestError && (error.status === 404 || error.status === 405 ||
    (error.status === 422 && (error.code !== 'validation_failed' || error.details.some((detail) => detail.path === 'query.id'))));

/** A list's answer as the CLI prints it with --json: `{data: [...]}`'s list as sent, or anything else as it came. */
const unwrapList = (answer: unknown) => (isRecord(answer) && Array.isArray(answer.data) ? answer.data : answer);

/**
 * The readers of Company Infos' and of `pinvoice serve`'s own answers, loaded by the operations that
 * read them: a charge's lookup (`invoice get`, the start-up that counts) does without both.
 */
const companyReader = () => import('./read/company.js');
const serveAnswers = () => import('./read/serve-answers.js');

/** A new Idempotency-Key. node:crypto takes about 3 ms to load, so only the writes that need one load it. */
const newKey = async () => (await import('node:crypto')).randomUUID();

/** "/api/v2/invoices/{id}" with its parameters filled in, as src/api/operations.ts fills them. */
const fillPath = (path: string, params: Record<string, string | number>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));

/** What an operation's `{id}` names, for a 404's message, where it is not a charge. */
const LOOKED_UP: Partial<Record<OperationId, string>> = { sandboxRequest: 'journal entry' };

/**
 * A 404 or 405 to an operation only `pinvoice serve` has, from a gateway that has no such route (not our
 * server's "no such charge" for a route it has), said as what it is.
 */
function missingExtension(error: ApiRequestError, id: OperationId, baseUrl: string, named?: string): ApiRequestError {
  const extension = (OPERATIONS[id] as { extension?: string }).extension;
  const routeMissing = error.status === 405 || (error.status === 404 && (error.code !== 'not_found' || error.message.startsWith('No operation ')));
  if (extension === undefined || !routeMissing) return error;
  const needs = named === undefined ? '' : `, which ${named} needs`;
  const message = `this gateway (${new URL(baseUrl).origin}) has no ${extension}${needs}: that is a \`pinvoice serve\` extension (the gateway answered HTTP ${error.status})`;
  return new ApiRequestError(error.status, error.code, message, [], true);
}

export function createClient(options: ClientOptions) {
  const httpOptions: HttpOptions = {
    baseUrl: options.baseUrl,
    token: options.token,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retries: options.retries ?? 2,
    debug: options.debug,
    sleep: options.sleep,
    userAgent: `pinvoice/${options.version ?? 'dev'}`,
    waitOutRateLimit: options.waitOutRateLimit,
    keepAlive: options.keepAlive,
    ca: options.ca,
  };
  const send = createHttp(httpOptions);
  /** the version a Pinvoice-Serve header named on an answer to this client: the server is pinvoice serve */
  let serveVersion: string | undefined;
  const nameOf = (id: OperationId) => options.nameOperation?.(id) ?? OPERATIONS[id].name;
  /** An operation's path; the journal's at `journalPath` when given (a proxy's) */
  const pathOf = (id: OperationId): string => {
    const path: string = OPERATIONS[id].path;
    return options.journalPath !== undefined && path.startsWith(JOURNAL_PATH) ? options.journalPath + path.slice(JOURNAL_PATH.length) : path;
  };

  /** An error status as the error it is: the gateway's words, a route only `pinvoice serve` has, or what a 404 looked up. */
  function refused(id: OperationId, { status, statusText, text, url }: Pick<HttpResponse, 'status' | 'statusText' | 'text' | 'url'>, params: Record<string, string | number> = {}): ApiRequestError {
    const error = toApiError(status, statusText, text, url);
    // a gateway's message may name the operation as the specification does ("Create Invoices is not open to it")
    if (options.nameOperation) error.message = error.message.split(OPERATIONS[id].name).join(nameOf(id));
    const missing = missingExtension(error, id, options.baseUrl, options.nameOperation && nameOf(id));
    if (missing === error && status === 404 && params.id !== undefined) error.lookedUp = `${LOOKED_UP[id] ?? 'charge'} ${JSON.stringify(String(params.id))}`;
    return missing;
  }

  /** The answer's JSON value, as sent (an empty body is no value); an error status is an ApiRequestError. */
  async function call(id: OperationId, request: Omit<HttpRequest, 'path'>, params: Record<string, string | number> = {}, answer?: AnswerNotes): Promise<unknown> {
    const response = await send({ ...request, path: fillPath(pathOf(id), params) });
    const { status, statusText, text, url, replayed, ignoredFields } = response;
    serveVersion = response.serve ?? serveVersion;
    if (status < 200 || status > 299) throw refused(id, response, params);
    if (answer) Object.assign(answer, { replayed: replayed === true, ignoredFields });
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      // never the body itself: it is a page or a fragment of one, not something to print
      throw new UnexpectedResponseError(`${new URL(url).origin} answered ${nameOf(id)} with HTTP ${status} ${statusText}, but not with JSON`);
    }
  }

  const read = (id: OperationId, params?: Record<string, string | number>) => call(id, { method: 'GET', retrySafe: true }, params);

  /** A POST carrying an Idempotency-Key (a new UUID unless given), so a retry cannot act twice. */
  async function write(id: OperationId, body: unknown, key?: string, params?: Record<string, string | number>, answer?: AnswerNotes) {
    const headers = { 'Idempotency-Key': key ?? (await newKey()) };
    return call(id, { method: 'POST', body, headers, retrySafe: true }, params, answer);
  }

  const getInvoice = async (ref: string | number) => readTransaction(await read('getTransaction', { id: ref }));

  /**
   * An action on one charge answers the charge (`data ?? answer`); an answer that is not its whole
   * record (a gateway's `{status}`, or nothing) is followed by a lookup, so the record is always shown.
   */
  async function actOn(id: 'createRefund' | 'activate3ds' | `sandbox_${SandboxAction}`, ref: string | number, body: unknown, key?: string): Promise<TransactionView> {
    const data = unwrapData(await write(id, body, key, { id: ref }));
    return isWholeRecord(data) ? readTransaction(data) : getInvoice(ref);
  }

  /**
   * An operation with nothing in its path. Each is safe to send again: a read, a PUT or DELETE (each
   * names its whole result), or a POST with its Idempotency-Key (the sandbox clock moves once).
   */
  const plain = async (id: OperationId, method: HttpRequest['method'] = 'GET', body?: unknown) =>
    call(id, { method, body, retrySafe: true, ...(method === 'POST' && { headers: { 'Idempotency-Key': await newKey() } }) });

  return {
    getInvoice,
    /**
     * The server has said it is `pinvoice serve` (Pinvoice-Serve) on an answer to this client: what only
     * serve has (a charge's postback history) is asked for only then. A production gateway never says it.
     * (Async as every method: the CLI wraps each one as an async function, src/cli/context.ts.)
     */
    isPinvoiceServe: async () => serveVersion !== undefined,
    /**
     * Charges of `pinvoice serve`'s listing (GET /api/v2/invoices without `id`): filters, `limit` and
     * `cursor`, or one of `pix_code`, `token_checkout`, `boleto_line` to find the charge they belong to.
     */
    async listInvoices(query: Record<string, string>): Promise<InvoicePage> {
      let answer: unknown;
      try {
        answer = await call('searchTransaction', { method: 'GET', retrySafe: true, query });
      } catch (error) {
        throw listingRefused(error) ? noListing(options.baseUrl, (error as ApiRequestError).status) : error;
      }
      const records = isRecord(answer) && Array.isArray(answer.data) ? answer.data : undefined;
      if (records === undefined) throw noListing(options.baseUrl);
      const cursor = isRecord(answer) ? answer.next_cursor : undefined;
      return { records, views: records.map(readTransaction), nextCursor: typeof cursor === 'string' && cursor !== '' ? cursor : undefined };
    },
    refund: (ref: string | number, body: RefundRequest, key?: string) => actOn('createRefund', ref, body, key),
    complete3ds: (ref: string | number, values: ThreeDSRequest, key?: string) => actOn('activate3ds', ref, values, key),
    sandbox: (ref: string | number, action: SandboxAction) => actOn(`sandbox_${action}`, ref, {}),
    company: async () => (await companyReader()).readCompany(await plain('companyInfos')),
    async webhookSecret() {
      const raw = await plain('webhookSecret');
      const secret = (await serveAnswers()).readWebhookSecret(raw);
      if (secret === undefined) throw new UnexpectedResponseError(`${new URL(options.baseUrl).origin} answered ${nameOf('webhookSecret')} without a webhook_secret`);
      return { raw, secret };
    },
    /** The events, and the list as sent (the answer's `data`, or the answer when it is a bare list). */
    async listEvents(ref: string | number) {
      const answer = await read('listEvents', { id: ref });
      return { raw: unwrapList(answer), events: (await serveAnswers()).readEvents(answer) };
    },
    resendEvent: async (id: string, key?: string) => (await serveAnswers()).readEvent(unwrapData(await write('resendEvent', {}, key, { event_id: id }))),
    clockShow: async () => (await serveAnswers()).readClock(await plain('sandboxClock')),
    clockAdvance: async (seconds: number) => (await serveAnswers()).readClock(await plain('sandboxClockAdvance', 'POST', { seconds })),
    clockSet: async (now: string) => (await serveAnswers()).readClock(await plain('sandboxClockSet', 'POST', { now })),
    clockReset: async () => (await serveAnswers()).readClock(await plain('sandboxClockReset', 'DELETE')),
    chaosShow: async () => (await serveAnswers()).readChaos(await plain('sandboxChaos')),
    chaosSet: async (rule: ChaosRequest) => (await serveAnswers()).readChaos(await plain('sandboxChaosSet', 'PUT', rule)),
    chaosClear: async () => (await serveAnswers()).readChaos(await plain('sandboxChaosClear', 'DELETE')),
    signingShow: async () => (await serveAnswers()).readSigning(await plain('sandboxWebhookSigning')),
    /** `token`: the token this client sends becomes the key of X-Webhook-Signature */
    signingSet: async (key: SigningKey) => (await serveAnswers()).readSigning(await plain('sandboxWebhookSigningSet', 'PUT', { key })),
    /**
     * The inspector's journal (`pinvoice serve` only): a page of entries after a cursor, as sent
     * (`{data, next_cursor, dropped}`), with the filters given; `wait` seconds (at most 10 a request here)
     * make the server answer as soon as one comes.
     */
    journalList: async (query: Record<string, string>) => call('sandboxRequests', { method: 'GET', retrySafe: true, query }),
    journalEntry: async (id: string | number) => call('sandboxRequest', { method: 'GET', retrySafe: true }, { id }),
    /** Entries matching a pattern, or the near misses; `waitSeconds` makes the server wait for a match. */
    journalFind: async (pattern: unknown, waitSeconds?: number) =>
      call('sandboxRequestsFind', { method: 'POST', body: pattern, retrySafe: true, ...(waitSeconds !== undefined && { query: { wait: String(waitSeconds) } }) }),
    journalClear: async () => call('sandboxRequestsClear', { method: 'DELETE', retrySafe: true }),
    /**
     * The journal as it is written (Server-Sent Events), each event to `onEvent`, until the server ends
     * the stream, the connection drops or falls silent, or `signal` stops it: resolves with the cursor to
     * go on from (Last-Event-ID) and the wait the server asked for. Refusals are thrown as any call's.
     */
    async journalStream(query: Record<string, string>, stream: JournalStream): Promise<StreamEnd> {
      const url = requestUrl(options.baseUrl, pathOf('sandboxRequestsStream'), query);
      const headers = requestHeaders(httpOptions, { Accept: 'text/event-stream', ...(stream.lastEventId !== undefined && { 'Last-Event-ID': stream.lastEventId }) });
      logRequest(options.debug, { method: 'GET' }, url, headers);
      const opened = () => {
        options.debug?.('< 200 OK (event stream)');
        stream.onOpen();
      };
      // loaded only for a stream (logs tail): a lookup's start-up does without it
      const { openEventStream } = await import('./event-stream.js');
      const answer = await openEventStream(url, { ...stream, onOpen: opened, headers, timeoutMs: httpOptions.timeoutMs, idleMs: STREAM_IDLE_MS, ca: options.ca })
        .catch((error: unknown) => {
          throw networkError(error, url, httpOptions.timeoutMs);
        });
      if ('ended' in answer) return answer;
      options.debug?.(`< ${answer.status} ${answer.statusText}`);
      if (REDIRECTS.has(answer.status)) throw new RedirectError(redirectMessage(url, answer.status, answer.location ?? '', options.baseUrl));
      if (answer.status >= 200 && answer.status <= 299) {
        throw new UnexpectedResponseError(`${new URL(url).origin} answered ${nameOf('sandboxRequestsStream')} with HTTP ${answer.status}, but not with an event stream`);
      }
      throw refused('sandboxRequestsStream', { ...answer, url });
    },
    /**
     * A one-time dashboard sign-in link (`pinvoice serve` only). Its path and code are put on the
     * profile's own origin: a server behind a proxy may name itself otherwise, and a link to elsewhere is never opened.
     */
    async dashboardLink(): Promise<{ raw: unknown; url: string; expiresAt: string | undefined }> {
      const raw = await plain('sandboxDashboardLink', 'POST');
      const given = (raw as { url?: unknown } | null)?.url;
      const link = typeof given === 'string' && URL.canParse(given) ? new URL(given) : undefined;
      if (!link || !link.searchParams.has('code')) throw new UnexpectedResponseError(`${new URL(options.baseUrl).origin} answered ${nameOf('sandboxDashboardLink')} without a sign-in link`);
      const url = new URL(`${link.pathname}${link.search}`, options.baseUrl).href;
      const expiresAt = (raw as { expires_at?: unknown }).expires_at;
      return { raw, url, expiresAt: typeof expiresAt === 'string' ? expiresAt : undefined };
    },
    async scenarios() {
      const answer = await plain('sandboxScenarios');
      return { raw: unwrapList(answer), list: (await serveAnswers()).readScenarios(answer) };
    },
    /**
     * The create's answer, read: production answers `{data: {invoice_id, qr_code_pix, status}}` and
     * maybe nothing more (`whole` is then false; `invoice create` looks the charge up, a batch does not
     * need to). `answer.replayed` tells whether the server answered a create it had already made for the
     * key (Idempotent-Replayed).
     */
    async createInvoice(body: CreateInvoiceRequest, idempotencyKey?: string, answer: AnswerNotes = {}): Promise<Created> {
      const raw = await write('createInvoice', body, idempotencyKey, undefined, answer);
      const data = unwrapData(raw);
      // the header's reader is loaded only for an answer that carries it (pinvoice serve, unknown fields sent)
      const ignoredFields = answer.ignoredFields === undefined ? [] : (await import('../api/ignored-fields.js')).readIgnoredFields(answer.ignoredFields);
      let view: TransactionView | undefined;
      return {
        raw, data, whole: isWholeRecord(data), ignoredFields, identity: readIdentity(data),
        get view() {
          return (view ??= readTransaction(data));
        },
      };
    },
  };
}

export type Client = ReturnType<typeof createClient>;
