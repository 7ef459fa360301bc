// The operation table: every operation of the API, once. The server registers its routes from it,
// the client builds its requests from it, and the OpenAPI document is generated from it.
import type { z } from 'zod';
import { SANDBOX_ACTION_NAMES, SANDBOX_ACTIONS } from '../domain/status.js';
import { EventList, WebhookEvent, WebhookSecret } from './postbacks.js';
import { ChaosRequest, ChaosRule, ClockAdvanceRequest, ClockSetRequest, DashboardLink, SandboxClock, ScenarioList, WebhookSigning, WebhookSigningRequest } from './sandbox.js';
import { SEARCH_PARAMETERS } from './invoice-query.js';
import { FindAnswer, JournalCleared, JournalEntry, JournalPage, MAX_WAIT_SECONDS, RequestPattern } from './journal.js';
import { CreateInvoiceRequest, CreateInvoiceResponse, Enterprise, Health, PublicInvoice, RefundRequest, SearchTransactionAnswer, ThreeDSRequest, Transaction } from './schemas.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Operation {
  /** operationId in the OpenAPI document and the key the server's handlers are found by */
  id: string;
  /** the name the specification gives it */
  name: string;
  summary: string;
  method: HttpMethod;
  /** OpenAPI-style path, `{id}` for parameters */
  path: string;
  auth: 'bearer' | 'none';
  /** only on `pinvoice serve`, for driving charges in tests; not part of the production API */
  sandbox?: boolean;
  /** only on `pinvoice serve` (a pinvoice extension, not a sandbox control): what it is called when a gateway lacks it */
  extension?: string;
  pathParams?: Record<string, string>;
  query?: Record<string, { description: string; required: boolean; schema?: Record<string, unknown> }>;
  body?: z.ZodType;
  /** the inspector's own endpoints: not written to the journal they read */
  inspector?: boolean;
  /** answers Server-Sent Events (text/event-stream) of `response`, not one JSON body */
  stream?: boolean;
  /** POST operations that accept the Idempotency-Key header */
  idempotent?: boolean;
  /** changes something, or hands out a secret: a read-only token is refused (403 forbidden) */
  writes?: boolean;
  response: z.ZodType | 'openapi';
  /** the error statuses this operation can answer besides 500 */
  errors: number[];
}

/** The journal's filters, the same for its list and its stream. */
const JOURNAL_FILTERS = {
  direction: { description: 'in (requests), out (postback attempts) or tunnel (pinvoice proxy --forward: CONNECTs to other hosts)', required: false, schema: { type: 'string', enum: ['in', 'out', 'tunnel'] } },
  method: { description: 'GET, POST, PUT or DELETE', required: false },
  path: { description: 'the path exactly, or with `*` for any run of characters', required: false },
  status: { description: 'a status (422) or a class (4xx)', required: false },
  invoice_id: { description: 'entries that touched this charge (integer id or secureId)', required: false },
};

const ID_PARAM = { id: 'the integer `id` or the `secureId` (INV-…) of the transaction' };

export const OPERATIONS = [
  {
    id: 'createInvoice',
    name: 'Create Invoices',
    summary: "Creates an immediate charge. Answers, in the production gateway's shape, `{data: <the transaction record, plus invoice_id (= secureId) and qr_code_pix (= pix.qrCode, null for other methods)>}`.",
    method: 'POST',
    path: '/api/v2/invoices',
    auth: 'bearer',
    body: CreateInvoiceRequest,
    idempotent: true,
    response: CreateInvoiceResponse,
    writes: true,
    errors: [400, 401, 403, 409, 413, 415, 422],
  },
  {
    id: 'searchTransaction',
    name: 'Search Transaction',
    summary: 'Returns one transaction record, selected by the query parameter `id`. Without `id` (a pinvoice serve extension; '
      + "production offers none): a page of the company's charges, newest first, `{data: [record…], next_cursor}`, narrowed by the "
      + 'filters given (combined with AND) and continued with `cursor`; or the one charge of a pix code, checkout token or boleto line. '
      + '`id` and each search stand alone; an unknown parameter, one given twice or a value of the wrong form is a 422 at `query.<name>`.',
    method: 'GET',
    path: '/api/v2/invoices',
    auth: 'bearer',
    query: Object.fromEntries(Object.entries(SEARCH_PARAMETERS).map(([name, { description, schema }]) => [name, { description, required: false, schema }])),
    response: SearchTransactionAnswer,
    errors: [401, 404, 422],
  },
  {
    id: 'getTransaction',
    name: 'Search Transaction (by path)',
    summary: 'Returns one transaction record, selected by the path.',
    method: 'GET',
    path: '/api/v2/invoices/{id}',
    auth: 'bearer',
    pathParams: ID_PARAM,
    response: Transaction,
    errors: [401, 404],
  },
  {
    id: 'createRefund',
    name: 'Create Refunded',
    summary: 'Refunds a paid charge, wholly (no amount: the whole remainder) or in part; answers the record.',
    method: 'POST',
    path: '/api/v2/invoices/{id}/refund',
    auth: 'bearer',
    pathParams: ID_PARAM,
    body: RefundRequest,
    idempotent: true,
    response: Transaction,
    writes: true,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
  },
  {
    id: 'activate3ds',
    name: 'Active 3ds',
    summary: 'Completes a card charge waiting for 3-D Secure with the authentication values; answers the record.',
    method: 'POST',
    path: '/api/v2/invoices/{id}/3ds',
    auth: 'bearer',
    pathParams: ID_PARAM,
    body: ThreeDSRequest,
    idempotent: true,
    response: Transaction,
    writes: true,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
  },
  {
    id: 'publicInvoice',
    name: 'invoices public',
    summary: "The payer's view of a charge, by its unguessable token_checkout; no authentication.",
    method: 'GET',
    path: '/api/v2/public/invoices/{token_checkout}',
    auth: 'none',
    pathParams: { token_checkout: 'the `invoice.token_checkout` of the charge' },
    response: PublicInvoice,
    errors: [404],
  },
  ...SANDBOX_ACTION_NAMES.map((action) => ({
    id: `sandbox_${action}` as const,
    name: `Sandbox: ${action}`,
    summary: `pinvoice serve only: ${SANDBOX_ACTIONS[action].verb} the charge now, as the outside world would; 409 invalid_state when the status machine forbids it.`,
    method: 'POST' as const,
    path: `/api/v2/sandbox/invoices/{id}/${action}`,
    auth: 'bearer' as const,
    sandbox: true,
    pathParams: ID_PARAM,
    idempotent: true,
    writes: true,
    response: Transaction,
    errors: [400, 401, 403, 404, 409],
  })),
  {
    id: 'sandboxClock',
    name: 'Sandbox: clock',
    summary: "pinvoice serve only: the company's sandbox time (real time plus its offset), which everything time-dependent of the company follows.",
    method: 'GET',
    path: '/api/v2/sandbox/clock',
    auth: 'bearer',
    sandbox: true,
    response: SandboxClock,
    errors: [401],
  },
  {
    id: 'sandboxClockAdvance',
    name: 'Sandbox: advance the clock',
    summary: "pinvoice serve only: moves the company's clock forward `seconds`; pending postbacks move with it, and what the new time makes due is expired before the answer.",
    method: 'POST',
    path: '/api/v2/sandbox/clock/advance',
    auth: 'bearer',
    sandbox: true,
    body: ClockAdvanceRequest,
    idempotent: true,
    writes: true,
    response: SandboxClock,
    errors: [400, 401, 403, 409, 413, 415, 422],
  },
  {
    id: 'sandboxClockSet',
    name: 'Sandbox: set the clock',
    summary: "pinvoice serve only: moves the company's clock forward to `now`; 409 invalid_state when `now` is earlier than the clock reads.",
    method: 'POST',
    path: '/api/v2/sandbox/clock',
    auth: 'bearer',
    sandbox: true,
    body: ClockSetRequest,
    idempotent: true,
    writes: true,
    response: SandboxClock,
    errors: [400, 401, 403, 409, 413, 415, 422],
  },
  {
    id: 'sandboxClockReset',
    name: 'Sandbox: reset the clock',
    summary: "pinvoice serve only: the company's clock reads real time again (times already written stay as written).",
    method: 'DELETE',
    path: '/api/v2/sandbox/clock',
    auth: 'bearer',
    sandbox: true,
    writes: true,
    response: SandboxClock,
    errors: [401, 403],
  },
  {
    id: 'sandboxChaos',
    name: 'Sandbox: postback chaos',
    summary: "pinvoice serve only: the faults injected into the company's postback deliveries (all off when none is set).",
    method: 'GET',
    path: '/api/v2/sandbox/chaos',
    auth: 'bearer',
    sandbox: true,
    response: ChaosRule,
    errors: [401],
  },
  {
    id: 'sandboxChaosSet',
    name: 'Sandbox: set postback chaos',
    summary: 'pinvoice serve only: replaces the rule (members left out are off), for every charge of the company or, with `invoice_id`, one; applies from the next delivery attempt. Each attempt records what was injected.',
    method: 'PUT',
    path: '/api/v2/sandbox/chaos',
    auth: 'bearer',
    sandbox: true,
    body: ChaosRequest,
    writes: true,
    response: ChaosRule,
    errors: [400, 401, 403, 404, 413, 415, 422],
  },
  {
    id: 'sandboxChaosClear',
    name: 'Sandbox: clear postback chaos',
    summary: 'pinvoice serve only: postbacks are delivered faithfully again.',
    method: 'DELETE',
    path: '/api/v2/sandbox/chaos',
    auth: 'bearer',
    sandbox: true,
    writes: true,
    response: ChaosRule,
    errors: [401, 403],
  },
  {
    id: 'sandboxWebhookSigning',
    name: 'Sandbox: webhook signing key',
    summary: "pinvoice serve only: what keys the company's X-Webhook-Signature, the webhook secret (the default) or one of its API tokens (named, never shown).",
    method: 'GET',
    path: '/api/v2/sandbox/webhook-signing',
    auth: 'bearer',
    sandbox: true,
    response: WebhookSigning,
    errors: [401],
  },
  {
    id: 'sandboxWebhookSigningSet',
    name: 'Sandbox: set the webhook signing key',
    summary: 'pinvoice serve only: `{"key": "token"}` keys X-Webhook-Signature with the bearer token of this request, as handlers written for production verify it with their API key; '
      + 'the server then keeps a copy of that token it can sign with (in its database, never shown or logged) until `{"key": "secret"}` or the token\'s revocation, '
      + 'which bring the webhook secret back and forget the copy. Pinvoice-Signature stays keyed with the webhook secret. Applies from the next delivery attempt.',
    method: 'PUT',
    path: '/api/v2/sandbox/webhook-signing',
    auth: 'bearer',
    sandbox: true,
    body: WebhookSigningRequest,
    writes: true,
    response: WebhookSigning,
    errors: [400, 401, 403, 413, 415, 422],
  },
  {
    id: 'sandboxDashboardLink',
    name: 'Sandbox: dashboard sign-in link',
    summary: "pinvoice serve only: a one-time link (10 minutes) that signs a browser in to the dashboard, /dashboard, as this token, at the Host the request names; the journal keeps the request, the link's code masked. A Host that is not one of the server's names (loopback, its listening address, --public-host, --allowed-host) is refused, 403 forbidden.",
    method: 'POST',
    path: '/api/v2/sandbox/dashboard/links',
    auth: 'bearer',
    sandbox: true,
    response: DashboardLink,
    errors: [401, 403],
  },
  {
    id: 'sandboxScenarios',
    name: 'Sandbox: scenarios',
    summary: 'pinvoice serve only: every magic value that decides an outcome (test cards, tokens, 3-D Secure values) and what pix and boleto charges do.',
    method: 'GET',
    path: '/api/v2/sandbox/scenarios',
    auth: 'bearer',
    sandbox: true,
    response: ScenarioList,
    errors: [401],
  },
  {
    id: 'sandboxRequests',
    name: 'Sandbox: requests',
    summary: "pinvoice serve only: the journal, oldest first: every request made with the company's tokens and every postback attempt, redacted; "
      + 'narrowed by the filters given (AND) and continued with `after`. With `wait`, answers as soon as an entry after the cursor matches (an empty page when none came).',
    method: 'GET',
    path: '/api/v2/sandbox/requests',
    auth: 'bearer',
    sandbox: true,
    inspector: true,
    query: {
      ...JOURNAL_FILTERS,
      after: { description: 'entries after this cursor (an entry id; next_cursor of the last page)', required: false, schema: { type: 'integer', minimum: 0 } },
      limit: { description: 'at most this many (1 to 500, default 100)', required: false, schema: { type: 'integer', minimum: 1, maximum: 500 } },
      wait: { description: `seconds to wait for a matching entry after the cursor when none is there yet (0 to ${MAX_WAIT_SECONDS})`, required: false, schema: { type: 'number', minimum: 0, maximum: MAX_WAIT_SECONDS } },
    },
    response: JournalPage,
    errors: [401, 409, 422],
  },
  {
    id: 'sandboxRequestsStream',
    name: 'Sandbox: request stream',
    summary: 'pinvoice serve only: the journal as Server-Sent Events (text/event-stream), one `entry` event per entry as it is written (its `id:` the cursor; '
      + '`Last-Event-ID` or `after` resumes), the same filters as the list; at most 8 subscribers per company (429 beyond).',
    method: 'GET',
    path: '/api/v2/sandbox/requests/stream',
    auth: 'bearer',
    sandbox: true,
    inspector: true,
    stream: true,
    query: {
      ...JOURNAL_FILTERS,
      after: { description: 'start after this cursor (default: entries written from now on)', required: false, schema: { type: 'integer', minimum: 0 } },
    },
    response: JournalEntry,
    errors: [401, 409, 422, 429],
  },
  {
    id: 'sandboxRequest',
    name: 'Sandbox: one request',
    summary: 'pinvoice serve only: one journal entry by its id; 404 not_found names an entry dropped from the window.',
    method: 'GET',
    path: '/api/v2/sandbox/requests/{id}',
    auth: 'bearer',
    sandbox: true,
    inspector: true,
    pathParams: { id: 'the entry id (the cursor)' },
    response: JournalEntry,
    errors: [401, 404, 409],
  },
  {
    id: 'sandboxRequestsFind',
    name: 'Sandbox: find requests',
    summary: 'pinvoice serve only: the entries that match a pattern (every member given must match; `body` as a subset); when none does, the three closest, '
      + 'each with the members that differ (JSON pointers, expected and received) and its own validation problems. `?wait=<s>` waits for a match (up to 30 s).',
    method: 'POST',
    path: '/api/v2/sandbox/requests/find',
    auth: 'bearer',
    sandbox: true,
    inspector: true,
    query: {
      wait: { description: `seconds to wait for a match when none is there yet (0 to ${MAX_WAIT_SECONDS})`, required: false, schema: { type: 'number', minimum: 0, maximum: MAX_WAIT_SECONDS } },
    },
    body: RequestPattern,
    response: FindAnswer,
    errors: [400, 401, 409, 413, 415, 422],
  },
  {
    id: 'sandboxRequestsClear',
    name: 'Sandbox: clear the journal',
    summary: "pinvoice serve only: removes every entry of the company's journal and zeroes `dropped`; cursors go on from where they were.",
    method: 'DELETE',
    path: '/api/v2/sandbox/requests',
    auth: 'bearer',
    sandbox: true,
    inspector: true,
    writes: true,
    response: JournalCleared,
    errors: [401, 403, 409],
  },
  {
    id: 'companyInfos',
    name: 'Company Infos',
    summary: 'The company behind the token, balances included.',
    method: 'GET',
    path: '/api/v2/company',
    auth: 'bearer',
    response: Enterprise,
    errors: [401],
  },
  {
    id: 'webhookSecret',
    name: 'Webhook secret',
    summary: "The company's webhook secret, which signs every postback (header Pinvoice-Signature).",
    method: 'GET',
    path: '/api/v2/webhooks/secret',
    extension: 'webhook secret endpoint',
    auth: 'bearer',
    response: WebhookSecret,
    writes: true,
    errors: [401, 403],
  },
  {
    id: 'listEvents',
    name: 'Postback events of a charge',
    summary: 'Every postback event of the charge, oldest first, each with its delivery state and every attempt.',
    method: 'GET',
    path: '/api/v2/invoices/{id}/events',
    extension: 'postback event history',
    auth: 'bearer',
    pathParams: ID_PARAM,
    response: EventList,
    errors: [401, 404],
  },
  {
    id: 'getEvent',
    name: 'Postback event',
    summary: 'One postback event, with its delivery state and every attempt.',
    method: 'GET',
    path: '/api/v2/events/{event_id}',
    extension: 'postback event history',
    auth: 'bearer',
    pathParams: { event_id: 'the `id` (evt_…) of the event' },
    response: WebhookEvent,
    errors: [401, 404],
  },
  {
    id: 'resendEvent',
    name: 'Resend a postback event',
    summary: "Queues the event for delivery now, to the URL it was recorded with, with a fresh retry budget; answers the event. 409 invalid_state when the charge has no postback_url.",
    method: 'POST',
    path: '/api/v2/events/{event_id}/resend',
    extension: 'postback event history',
    auth: 'bearer',
    pathParams: { event_id: 'the `id` (evt_…) of the event' },
    idempotent: true,
    response: WebhookEvent,
    writes: true,
    errors: [400, 401, 403, 404, 409],
  },
  {
    id: 'openapi',
    name: 'OpenAPI document',
    summary: 'This document.',
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    response: 'openapi',
    errors: [],
  },
  {
    id: 'health',
    name: 'Health',
    summary: 'Answers 200 while the server is up; for scripts that wait for it.',
    method: 'GET',
    path: '/health',
    auth: 'none',
    response: Health,
    errors: [],
  },
] as const satisfies readonly Operation[];

export type OperationId = (typeof OPERATIONS)[number]['id'];

export function operation(id: OperationId): Operation {
  const found = OPERATIONS.find((op) => op.id === id);
  if (!found) throw new Error(`unknown operation ${id}`);
  return found;
}

/**
 * Every status an operation may answer (the OpenAPI document's responses): 200; any request can be
 * malformed (400), meet an unexpected failure (500) or a server too busy or a database away (503);
 * one with a token can meet `serve --rate-limit` (429), one that writes a full disk (507).
 */
export function answerStatuses(op: Operation): number[] {
  const writes = 'writes' in op && op.writes === true;
  return [200, ...new Set([400, ...op.errors, ...(op.auth === 'bearer' ? [429] : []), 500, 503, ...(writes ? [507] : [])])];
}

/** "/api/v2/invoices/{id}" -> "/api/v2/invoices/:id" (the router's syntax) */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Fills `{name}` placeholders, encoding each value. */
export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}
