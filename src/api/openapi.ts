// The OpenAPI 3.1 document, generated from the operation table and the zod schemas.
import { z } from 'zod';
import { IGNORED_FIELDS_DESCRIPTION, IGNORED_FIELDS_HEADER } from './ignored-fields.js';
import { SERVE_HEADER, SERVE_HEADER_DESCRIPTION } from './serve-header.js';
import { answerStatuses, OPERATIONS, type Operation } from './operations.js';
import * as J from './journal.js';
import * as P from './postbacks.js';
import * as X from './sandbox.js';
import * as S from './schemas.js';
import { BODY_SIGNATURE_HEADER, SIGNATURE_HEADER } from '../domain/signature.js';

type Json = Record<string, unknown>;

const REQUESTS = {
  CreateInvoiceRequest: S.CreateInvoiceRequest, RefundRequest: S.RefundRequest, ThreeDSRequest: S.ThreeDSRequest,
  ClockAdvanceRequest: X.ClockAdvanceRequest, ClockSetRequest: X.ClockSetRequest, ChaosRequest: X.ChaosRequest,
  WebhookSigningRequest: X.WebhookSigningRequest, RequestPattern: J.RequestPattern,
};
const RESPONSES = {
  Transaction: S.Transaction, InvoiceList: S.InvoiceList, SearchTransactionAnswer: S.SearchTransactionAnswer, CreateInvoiceResponse: S.CreateInvoiceResponse, Enterprise: S.Enterprise, PublicInvoice: S.PublicInvoice, ErrorBody: S.ErrorBody, Health: S.Health,
  WebhookSecret: P.WebhookSecret, WebhookEvent: P.WebhookEvent, EventList: P.EventList, PostbackBody: P.PostbackBody,
  SandboxClock: X.SandboxClock, ChaosRule: X.ChaosRule, ScenarioList: X.ScenarioList, DashboardLink: X.DashboardLink, WebhookSigning: X.WebhookSigning,
  JournalEntry: J.JournalEntry, JournalPage: J.JournalPage, FindAnswer: J.FindAnswer, JournalCleared: J.JournalCleared,
};

const STATUS_TEXT: Record<number, [S.ErrorCode, string]> = {
  400: ['invalid_json', 'The request is malformed: a body that is not valid JSON, not UTF-8 or nested deeper than 32 levels (invalid_json), or a broken URL or request (bad_request).'],
  401: ['unauthorized', 'The bearer token is missing or not accepted.'],
  403: ['forbidden', 'The token is read-only: it may look up charges and their events, not change anything or read the webhook secret.'],
  404: ['not_found', 'No such resource for this company.'],
  409: ['invalid_state', 'Conflict: the status machine forbids this (invalid_state), or the Idempotency-Key was used with another body (idempotency_conflict), or the journal is off (journal_off: `serve --journal 0`), or the charge is a production record loaded by --fixtures (fixture_record_read_only).'],
  413: ['payload_too_large', 'The body is larger than 1 MiB.'],
  415: ['unsupported_media_type', 'The body is not sent as application/json in UTF-8, or is compressed (Content-Encoding).'],
  422: ['validation_failed', 'The request breaks the rules; `details` lists every field at fault with its JSON path.'],
  429: ['rate_limited', 'Too many requests; see Retry-After.'],
  500: ['internal', 'Unexpected server error.'],
  503: ['server_busy', 'Unavailable for now; see Retry-After where it is given: the server holds too many unfinished request bodies (server_busy), its database does not answer (store_unavailable), a large database file is being checked after start (store_checking, changes only), or the database file is damaged and the server only reads (store_damaged, changes only).'],
  507: ['insufficient_storage', 'The disk holding the database is full: nothing was saved; changes work again once space is freed.'],
};

function components(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}` }).schemas;
  for (const schema of Object.values(out)) delete (schema as Json).$schema;
  return out as Record<string, Json>;
}

function refTo(schema: z.ZodType): Json {
  const all: Record<string, z.ZodType> = { ...REQUESTS, ...RESPONSES };
  const name = Object.keys(all).find((key) => all[key] === schema);
  if (!name) throw new Error('every schema used by an operation must be a named component');
  return { $ref: `#/components/schemas/${name}` };
}

const jsonContent = (schema: Json) => ({ 'application/json': { schema } });

function parameters(op: Operation): Json[] {
  const path = Object.entries(op.pathParams ?? {}).map(([name, description]) => ({
    name, in: 'path', required: true, description, schema: { type: 'string' },
  }));
  const query = Object.entries(op.query ?? {}).map(([name, q]) => ({
    name, in: 'query', required: q.required, description: q.description, schema: q.schema ?? { type: 'string' },
  }));
  const idempotency = op.idempotent
    ? [{ name: 'Idempotency-Key', in: 'header', required: false, description: 'Retries with the same key and body within 24 hours answer the first response again.', schema: { type: 'string', maxLength: 255 } }]
    : [];
  return [...path, ...query, ...idempotency];
}

/** On the answer to every operation that reads a JSON body: the fields it did not know and ignored. */
const IGNORED_FIELDS_HEADERS = { [IGNORED_FIELDS_HEADER]: { description: IGNORED_FIELDS_DESCRIPTION, schema: { type: 'string' } } };
/** On every answer but an event stream's: the server is pinvoice serve, of this version. */
const SERVE_HEADERS = { [SERVE_HEADER]: { description: SERVE_HEADER_DESCRIPTION, schema: { type: 'string' } } };

function responses(op: Operation): Json {
  const success = op.response === 'openapi'
    ? { description: 'The OpenAPI document.', headers: SERVE_HEADERS, content: jsonContent({ type: 'object' }) }
    : 'stream' in op && op.stream
      ? { description: 'Server-Sent Events: `event: entry`, `id: <cursor>`, `data: <the entry as JSON>`; a comment line every 15 s keeps the connection open.', content: { 'text/event-stream': { schema: refTo(op.response) } } }
      : { description: 'Success.', headers: { ...SERVE_HEADERS, ...(op.body && IGNORED_FIELDS_HEADERS) }, content: jsonContent(refTo(op.response)) };
  const out: Json = { 200: success };
  for (const status of answerStatuses(op).filter((status) => status !== 200)) {
    const [, description] = STATUS_TEXT[status] ?? ['internal', 'Error.'];
    const retryAfter = { 'Retry-After': { description: 'seconds to wait before sending again', schema: { type: 'integer' } } };
    const headers = status === 401 ? { 'WWW-Authenticate': { schema: { type: 'string' } } }
      : status === 429 || status === 503 || status === 507 ? retryAfter : undefined;
    out[status] = { description, headers: { ...SERVE_HEADERS, ...headers }, content: jsonContent(refTo(S.ErrorBody)) };
  }
  return out;
}

function pathItem(op: Operation): Json {
  return {
    operationId: op.id,
    summary: op.name,
    ...(op.sandbox && { tags: ['sandbox'] }),
    description: op.summary,
    ...(op.auth === 'none' && { security: [] }),
    parameters: parameters(op),
    ...(op.body && { requestBody: { required: true, content: jsonContent(refTo(op.body)) } }),
    responses: responses(op),
  };
}

export function buildOpenApi(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: pathItem(op) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment Invoicing API (pinvoice)',
      version,
      description: 'The API as specified, with the decisions of the pinvoice contract. Amounts are integer cents.',
    },
    servers: [{ url: 'http://127.0.0.1:4010', description: 'pinvoice serve (default)' }],
    security: [{ bearer: [] }],
    paths,
    webhooks: {
      postback: {
        post: {
          summary: 'Postback',
          description: `Sent to the charge's postback_url on every status change, with the event named in \`event\` (${P.EVENT_TYPES.join(', ')}). `
            + 'The body is the production gateway\'s payload, extended: `id` is the charge\'s id (INV-…), `event_id` the event\'s (deduplicate on it), the record under `transaction`. '
            + 'Any 2xx answer is a delivery; anything else, a timeout or a connection error is retried with exponential backoff and jitter (3 retries by default).',
          parameters: [
            { name: SIGNATURE_HEADER, in: 'header', required: true, description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the webhook secret>: replay-safe', schema: { type: 'string' } },
            { name: BODY_SIGNATURE_HEADER, in: 'header', required: true, description: '<hex HMAC-SHA256 of the raw body keyed with the webhook secret, or with an API token of the company when it chose so (PUT /api/v2/sandbox/webhook-signing)>: the form production handlers verify', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
            { name: 'Pinvoice-Event-Id', in: 'header', required: true, description: 'the event id, as `event_id` in the body', schema: { type: 'string' } },
          ],
          requestBody: { required: true, content: jsonContent(refTo(P.PostbackBody)) },
          responses: { '2XX': { description: 'Delivered.' } },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { ...components(REQUESTS, 'input'), ...components(RESPONSES, 'output') },
    },
  };
}
