// Journal entries as they are made: one for a request answered with a company's token (the app calls
// `incomingEntry` once the answer is sent, or from its error handler), one for each postback attempt
// (the dispatcher calls `outgoingEntry`). Everything is redacted here, before the recorder buffers it.
//
// A request pays for its entry on its own thread, so the entry is made cheaply: times stay numbers
// (formatted when read), the answer's bytes are handed on as they are, and the members kept as JSON
// are only those that differ from an entry's defaults (DEFAULT_DETAIL), what is the same for every
// request of one token written once per token.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Finding } from '../../api/findings.js';
import { BODY_CAP_BYTES } from '../../api/journal.js';
import type { ErrorDetail } from '../../api/schemas.js';
import { maskToken } from '../../domain/secrets.js';
import type { Access, Company, NewJournalEntry } from '../store/port.js';
import { capped, redactedJson, redactSecretText } from './redact.js';
import { pointer } from '../../api/json-pointer.js';

/** The request headers kept (lower case); the bearer token is kept as its hint, others are left out. */
const KEPT_HEADERS = ['accept', 'content-type', 'content-length', 'content-encoding', 'user-agent', 'idempotency-key', 'x-request-id', 'traceparent'];

/** The members of an entry kept as JSON text besides its columns (api/journal.ts names them all). */
export interface EntryDetail {
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** kept in its own column since the journal was kept in batches; a detail written before holds it */
  duration_ms?: number;
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
  /** pinvoice proxy: the gateway's answer (null: none came) */
  upstream?: { status: number | null; duration_ms: number } | null;
  /** pinvoice proxy: how the exchange differs from the contract */
  findings?: Finding[];
  /** pinvoice proxy --forward, a tunnel: where to */
  host?: string;
  port?: number;
}

/** What a member absent from a stored detail stands for. */
export const DEFAULT_DETAIL: Readonly<EntryDetail> = Object.freeze({
  query: {}, headers: {}, token_name: null, token_hint: null, idempotency_key: null, replayed: false, problems: [],
  invoice_ids: [], event_id: null, event: null, attempt: null, url: null, signature_headers: [], error: null,
});

/** A stored detail, whole. */
export const readDetail = (text: string): EntryDetail => ({ ...DEFAULT_DETAIL, ...(JSON.parse(text) as Partial<EntryDetail>) });

/** The charge a record's JSON text names first (`{"id":42,…` or `{"data":{"id":42,…`), read from its first bytes only. */
const recordIds = new WeakMap<Buffer, number | undefined>();
function recordId(text: string | Buffer): number | undefined {
  // a kept record (a Buffer the server hands out again, to every poll) is read once
  if (Buffer.isBuffer(text)) {
    if (!recordIds.has(text)) recordIds.set(text, readRecordId(text));
    return recordIds.get(text);
  }
  return readRecordId(text);
}
function readRecordId(text: string | Buffer): number | undefined {
  const head = typeof text === 'string' ? text.slice(0, 40) : text.toString('latin1', 0, 40);
  const match = /^\{(?:"data":\{)?"id":(\d{1,15})[,}]/.exec(head);
  return match ? Number(match[1]) : undefined;
}

function bodyText(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  return capped(redactedJson(body));
}

export interface Incoming {
  request: FastifyRequest;
  access: Access;
  status: number;
  /** the answer as sent: JSON text, a Buffer of it, or the value fastify serialized */
  answer: unknown;
  /** the answer may hold a secret (the webhook secret's endpoint): its values are replaced */
  secret?: boolean;
  /** the answer is a charge's record (or Create's `{data: record}`): the charge it names is one it touched */
  record?: boolean;
  replayed?: boolean;
  /** the error's code and problems, when the answer is one */
  error?: { code: string; details?: ErrorDetail[] | undefined } | undefined;
  durationMs: number;
  /** when it was received, real time (ms) */
  wall: number;
  /** the server's time as the answer was made (a seeded server's stands still), which the company's clock runs from (ms) */
  serverNow: number;
}

/**
 * What every entry of one token's requests holds alike, as JSON members (its name and hint) and the
 * header shown: made once per access (the authenticator hands out the same one while it keeps it).
 */
const tokenParts = new WeakMap<Access, { json: string; header: string | undefined }>();
function tokenPart(access: Access, authorization: string | undefined): { json: string; header: string | undefined } {
  let part = tokenParts.get(access);
  if (!part) {
    const bearer = authorization === undefined ? undefined : /^Bearer\s+(\S+)/i.exec(authorization)?.[1];
    const hint = bearer === undefined ? undefined : maskToken(bearer);
    const name = `"token_name":${JSON.stringify(access.token.name)}`;
    part = hint === undefined ? { json: name, header: undefined } : { json: `${name},"token_hint":${JSON.stringify(hint)}`, header: `Bearer ${hint}` };
    tokenParts.set(access, part);
  }
  return part;
}

const keptValue = (value: string | string[] | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

/** The kept headers as JSON; a client sends the same ones request after request, so the last text of each access is reused when they are. */
const lastHeaders = new WeakMap<Access, { values: (string | undefined)[]; json: string }>();
function headersJson(access: Access, raw: FastifyRequest['headers'], header: string | undefined): string {
  const last = lastHeaders.get(access);
  if (last && KEPT_HEADERS.every((name, i) => keptValue(raw[name]) === last.values[i])) return last.json;
  const values = KEPT_HEADERS.map((name) => keptValue(raw[name]));
  const json = JSON.stringify(keptHeaders(raw, header));
  lastHeaders.set(access, { values, json });
  return json;
}

/** The allow-listed headers of a request (values cut at 512 characters), `authorization` as the token's hint when given. */
export function keptHeaders(raw: IncomingHttpHeaders, authorization: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = keptValue(raw[name]);
    if (value !== undefined) headers[name] = value.length > 512 ? value.slice(0, 512) : value;
  }
  if (authorization) headers.authorization = authorization;
  return headers;
}

export function incomingEntry(input: Incoming): NewJournalEntry {
  const { request, access, status, answer } = input;
  const url = request.url;
  const mark = url.indexOf('?');
  const raw = request.headers;
  const token = tokenPart(access, raw.authorization);
  // the answer as sent: JSON text, or its bytes (a kept record's), handed on as they are; only an answer
  // that may hold a secret is read and rewritten
  let answered: string | Buffer | null;
  if (answer === undefined || answer === null) answered = null;
  else if (typeof answer === 'string' || Buffer.isBuffer(answer)) answered = answer;
  else answered = JSON.stringify(answer);
  if (answered !== null && input.secret) answered = redactSecretText(answered.toString());
  const touched = answered === null || status >= 300 || !input.record ? undefined : recordId(answered);
  const key = raw['idempotency-key'];
  const headers = headersJson(access, raw, token.header);
  const query = request.query as Record<string, unknown> | undefined;
  let detail: string;
  if (mark === -1 && typeof key !== 'string' && !input.replayed && !input.error) {
    // a client polling a charge: the same detail as its request before, made once
    detail = plainDetail(access, headers, token.json, touched);
  } else {
    detail = `{"headers":${headers},${token.json}`;
    if (query && mark !== -1) detail += `,"query":${JSON.stringify(query)}`;
    if (typeof key === 'string') detail += `,"idempotency_key":${JSON.stringify(key.slice(0, 255))}`;
    if (input.replayed) detail += ',"replayed":true';
    if (input.error) {
      detail += `,"error":${JSON.stringify(input.error.code)}`;
      if (input.error.details?.length) detail += `,"problems":${JSON.stringify(input.error.details.map((problem) => ({ path: pointer(problem.path), message: problem.message })))}`;
    }
    if (touched !== undefined) detail += `,"invoice_ids":[${touched}]`;
    detail += '}';
  }
  return {
    company_id: access.company.id,
    at: input.wall,
    sandbox_at: input.serverNow + access.company.clock_offset_ms,
    direction: 'in',
    method: request.method,
    path: mark === -1 ? url : url.slice(0, mark),
    status,
    invoice_id: touched ?? null,
    duration_ms: Math.round(input.durationMs * 100) / 100,
    request_body: bodyText(request.body),
    response_body: answered === null ? null : typeof answered === 'string' ? capped(answered) : answered.length > BODY_CAP_BYTES ? capped(answered.toString()) : answered,
    detail,
  };
}

/** The detail of a request with nothing but its headers, token and charge: the access's last one when they are the same. */
const lastPlain = new WeakMap<Access, { headers: string; touched: number | undefined; detail: string }>();
function plainDetail(access: Access, headers: string, token: string, touched: number | undefined): string {
  const last = lastPlain.get(access);
  if (last && last.headers === headers && last.touched === touched) return last.detail;
  const detail = `{"headers":${headers},${token}${touched === undefined ? '' : `,"invoice_ids":[${touched}]`}}`;
  lastPlain.set(access, { headers, touched, detail });
  return detail;
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
  /** when it was sent, real time (ms) */
  wall: number;
  /** the server's time then (ms) */
  serverNow: number;
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
  const detail: Partial<EntryDetail> = {
    query,
    headers: input.headers,
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
    at: input.wall,
    sandbox_at: input.serverNow + input.company.clock_offset_ms,
    direction: 'out',
    method: 'POST',
    path,
    status: input.status,
    invoice_id: input.invoiceId,
    duration_ms: Math.round(input.durationMs * 100) / 100,
    request_body: input.body === null ? null : capped(input.body),
    response_body: input.answer === null ? null : capped(redactSecretText(input.answer)),
    detail: JSON.stringify(detail),
  };
}
