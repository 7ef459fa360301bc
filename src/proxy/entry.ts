// A journal entry of one exchange through the proxy, in serve's shape (server/journal/capture.ts) plus
// the gateway's answer and the findings: redacted here, before the recorder buffers it, by serve's own
// redactor (the bodies) and its header allow-list (the token kept as its hint).
import type { IncomingHttpHeaders } from 'node:http';
import type { Finding } from '../api/findings.js';
import { operationAt } from '../api/operation-at.js';
import { maskToken } from '../domain/secrets.js';
import { keptHeaders } from '../server/journal/capture.js';
import { capped, redactedText } from '../server/journal/redact.js';
import type { NewJournalEntry } from '../server/store/port.js';
import { PROXY_COMPANY } from './journal.js';

export interface Exchanged {
  /** when it was received, ms since the epoch */
  wall: number;
  method: string;
  /** the path and query as sent */
  url: string;
  headers: IncomingHttpHeaders;
  /** the request's body as text (null: none) */
  requestBody: string | null;
  /** what the client was answered (the gateway's status, or the proxy's own: 403, 502, 504); null: nothing (a cut answer) */
  status: number | null;
  /** the answer's body as text, decoded (gzip undone); null: none */
  answerBody: string | null;
  upstream: { status: number | null; duration_ms: number } | null;
  /** the proxy's own error code, or what went wrong on the way (a cut answer) */
  error: string | null;
  durationMs: number;
  findings: Finding[];
}

/** The operations whose answer is a charge's record (or `{data: record}`): another's `id` (Company Infos') is no charge. */
const RECORD_ANSWERS = new Set(['createInvoice', 'searchTransaction', 'getTransaction', 'createRefund', 'activate3ds']);

/** The charge a record's JSON text names first (`{"id":42,…`, `{"data":{"id":42,…`, whitespace allowed). */
function recordId(method: string, path: string, text: string | null): number | undefined {
  if (text === null) return undefined;
  const operation = operationAt(method, path)?.id;
  if (operation === undefined || !(RECORD_ANSWERS.has(operation) || operation.startsWith('sandbox_'))) return undefined;
  const match = /^\s*\{\s*(?:"data"\s*:\s*\{\s*)?"id"\s*:\s*(\d{1,15})\s*[,}]/.exec(text.slice(0, 80));
  return match ? Number(match[1]) : undefined;
}

/** The query as serve's entries keep it: each name once, a repeated one as a list. */
function queryOf(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const had = query[name];
    query[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return query;
}

/**
 * The answers last redacted, by their text: a polled record is the same text again and again, and
 * a merchant's records read in turn are a few hundred texts. Each is kept as one Buffer, which serve's
 * journal store then writes once and names by reference in every entry that answered it (as it does
 * with serve's own kept records). Answers only: a request's body, which may hold a card, is not kept
 * past its exchange.
 */
const REDACTED_KEPT = 256;
const redactions = new Map<string, Buffer>();
function redactedAnswer(text: string | null): string | Buffer | null {
  if (text === null) return null;
  if (text.length > 16_384) return capped(redactedText(text));
  let kept = redactions.get(text);
  if (kept === undefined) {
    kept = Buffer.from(redactedText(text));
    if (redactions.size >= REDACTED_KEPT) redactions.delete(redactions.keys().next().value as string);
  } else redactions.delete(text); // (to the end: the least recently used go first)
  redactions.set(text, kept);
  return kept;
}

/** The findings' JSON, made once per list: the checks answer the same list for the same answer. */
const findingsText = new WeakMap<readonly Finding[], string>();
function findingsJson(findings: readonly Finding[]): string {
  let text = findingsText.get(findings);
  if (text === undefined) findingsText.set(findings, (text = JSON.stringify(findings)));
  return text;
}

export function proxyEntry(exchange: Exchanged): NewJournalEntry {
  const mark = exchange.url.indexOf('?');
  const bearer = /^Bearer\s+(\S+)/i.exec(exchange.headers.authorization ?? '')?.[1];
  const hint = bearer === undefined ? null : maskToken(bearer);
  const key = exchange.headers['idempotency-key'];
  const path = mark === -1 ? exchange.url : exchange.url.slice(0, mark);
  const touched = exchange.status !== null && exchange.status < 300 ? recordId(exchange.method, path, exchange.answerBody) : undefined;
  const problems = exchange.findings.filter((finding) => finding.kind === 'request').map((finding) => ({ path: finding.path, message: finding.expected }));
  const detail = {
    query: mark === -1 ? {} : queryOf(exchange.url.slice(mark + 1)),
    headers: keptHeaders(exchange.headers, hint === null ? undefined : `Bearer ${hint}`),
    token_name: null,
    token_hint: hint,
    idempotency_key: typeof key === 'string' ? key.slice(0, 255) : null,
    problems,
    invoice_ids: touched === undefined ? [] : [touched],
    error: exchange.error,
    upstream: exchange.upstream,
  };
  return {
    company_id: PROXY_COMPANY,
    at: exchange.wall,
    sandbox_at: exchange.wall,
    direction: 'in',
    method: exchange.method,
    path,
    status: exchange.status,
    invoice_id: touched ?? null,
    duration_ms: Math.round(exchange.durationMs * 100) / 100,
    request_body: exchange.requestBody === null ? null : capped(redactedText(exchange.requestBody)),
    response_body: redactedAnswer(exchange.answerBody),
    detail: `${JSON.stringify(detail).slice(0, -1)},"findings":${findingsJson(exchange.findings)}}`,
  };
}
