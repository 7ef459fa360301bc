// Journal entries as they are made: one for a request answered with a company's token (the app calls
// `incoming` once the answer is sent, or from its error handler), one for each postback attempt (the
// dispatcher calls `outgoing`). Everything is redacted here, before the recorder buffers it.
import type { FastifyRequest } from 'fastify';
import type { ErrorDetail } from '../../api/schemas.js';
import { maskToken } from '../../domain/secrets.js';
import { companyTime } from '../sandbox/company-time.js';
import type { Access, Company, NewJournalEntry } from '../store/port.js';
import { BODY_CAP_BYTES } from '../../api/journal.js';
import { capped, pointer, redactSecretText, redactValue } from './redact.js';

/** The request headers kept (lower case); the bearer token is kept as its hint, others are left out. */
const KEPT_HEADERS = ['accept', 'content-type', 'content-length', 'content-encoding', 'user-agent', 'idempotency-key', 'x-request-id', 'traceparent'];

/** The members of an entry kept as JSON text besides its columns (api/journal.ts names them all). */
export interface EntryDetail {
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  duration_ms: number;
  token_name: string | null;
  token_hint: string | null;
  idempotency_key: string | null;
  replayed: boolean;
  problems: { path: string; message: string }[];
  invoice_ids: number[];
  event_id: string | null;
  event: string | null;
  attempt: number | null;
  url: string | null;
  signature_headers: string[];
  error: string | null;
}

/** The charge a record's JSON text names first (`{"id":42,…` or `{"data":{"id":42,…`), read from its first bytes only. */
function recordId(text: string | Buffer): number | undefined {
  const head = typeof text === 'string' ? text.slice(0, 40) : text.toString('latin1', 0, 40);
  const match = /^\{(?:"data":\{)?"id":(\d{1,15})[,}]/.exec(head);
  return match ? Number(match[1]) : undefined;
}

function bodyText(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  return capped(JSON.stringify(redactValue(body)));
}

export interface Incoming {
  request: FastifyRequest;
  access: Access;
  status: number;
  /** the answer as sent: JSON text, a Buffer of it, or the value fastify serialized */
  answer: unknown;
  /** the answer may hold a secret (the webhook secret's endpoint): its values are replaced */
  secret?: boolean;
  replayed?: boolean;
  /** the error's code and problems, when the answer is one */
  error?: { code: string; details?: ErrorDetail[] };
  durationMs: number;
  /** when it was received, real time */
  wall: Date;
  /** the server's time then (a seeded server's stands still), which the company's clock runs from */
  serverNow: Date;
}

export function incomingEntry(input: Incoming): NewJournalEntry {
  const { request, access, status, answer } = input;
  const url = request.url;
  const mark = url.indexOf('?');
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = name === 'idempotency-key' ? value.slice(0, 255) : value.slice(0, 512);
  }
  const bearer = /^Bearer\s+(\S+)/i.exec(request.headers.authorization ?? '')?.[1];
  const hint = bearer === undefined ? null : maskToken(bearer);
  if (hint) headers.authorization = `Bearer ${hint}`;
  // the answer as sent: JSON text, or its bytes (a kept record's), handed on as they are; only an answer
  // that may hold a secret is read and rewritten
  let answered: string | Buffer | null;
  if (answer === undefined || answer === null) answered = null;
  else if (typeof answer === 'string' || Buffer.isBuffer(answer)) answered = answer;
  else answered = JSON.stringify(answer);
  if (answered !== null && input.secret) answered = redactSecretText(answered.toString());
  const touched = answered === null || status >= 300 ? undefined : recordId(answered);
  const key = request.headers['idempotency-key'];
  const detail: EntryDetail = {
    query: (request.query ?? {}) as Record<string, string | string[]>,
    headers,
    duration_ms: Math.round(input.durationMs * 100) / 100,
    token_name: access.token.name,
    token_hint: hint,
    idempotency_key: typeof key === 'string' ? key.slice(0, 255) : null,
    replayed: input.replayed === true,
    problems: (input.error?.details ?? []).map((detail) => ({ path: pointer(detail.path), message: detail.message })),
    invoice_ids: touched === undefined ? [] : [touched],
    event_id: null,
    event: null,
    attempt: null,
    url: null,
    signature_headers: [],
    error: input.error?.code ?? null,
  };
  return {
    company_id: access.company.id,
    at: input.wall.toISOString(),
    sandbox_at: companyTime(access.company, input.serverNow.toISOString()),
    direction: 'in',
    method: request.method,
    path: mark === -1 ? url : url.slice(0, mark),
    status,
    invoice_id: touched ?? null,
    request_body: bodyText(request.body),
    response_body: answered === null ? null : typeof answered === 'string' ? capped(answered) : answered.length > BODY_CAP_BYTES ? capped(answered.toString()) : answered,
    detail: JSON.stringify(detail),
  };
}

export interface Outgoing {
  company: Company;
  invoiceId: number;
  eventId: string;
  event: string;
  attempt: number;
  url: string;
  /** the body as sent (a postback's JSON: no card number or secret is in one) */
  body: string | null;
  headers: Record<string, string>;
  signatureHeaders: string[];
  status: number | null;
  answer: string | null;
  error: string | null;
  durationMs: number;
  /** when it was sent, real time */
  wall: Date;
  /** the server's time then */
  serverNow: Date;
}

export function outgoingEntry(input: Outgoing): NewJournalEntry {
  let path = input.url;
  let query: Record<string, string> = {};
  try {
    const url = new URL(input.url);
    path = url.pathname;
    query = Object.fromEntries(url.searchParams);
  } catch {
    // kept as recorded
  }
  const detail: EntryDetail = {
    query,
    headers: input.headers,
    duration_ms: Math.round(input.durationMs * 100) / 100,
    token_name: null,
    token_hint: null,
    idempotency_key: null,
    replayed: false,
    problems: [],
    invoice_ids: [input.invoiceId],
    event_id: input.eventId,
    event: input.event,
    attempt: input.attempt,
    url: input.url,
    signature_headers: input.signatureHeaders,
    error: input.error,
  };
  return {
    company_id: input.company.id,
    at: input.wall.toISOString(),
    sandbox_at: companyTime(input.company, input.serverNow.toISOString()),
    direction: 'out',
    method: 'POST',
    path,
    status: input.status,
    invoice_id: input.invoiceId,
    request_body: input.body === null ? null : capped(input.body),
    response_body: input.answer === null ? null : capped(redactSecretText(input.answer)),
    detail: JSON.stringify(detail),
  };
}
