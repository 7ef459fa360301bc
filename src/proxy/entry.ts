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
import { TextLru } from '../base/text-lru.js';
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

/** Whether the answer of this request is a charge's record (`pinvoice logs export` reads those). */
export function answersRecord(method: string, path: string): boolean {
  const operation = operationAt(method, path)?.id;
  return operation !== undefined && (RECORD_ANSWERS.has(operation) || operation.startsWith('sandbox_'));
}

/** The charge a record's JSON text names first (`{"id":42,…`, `{"data":{"id":42,…`, whitespace allowed). */
function recordId(method: string, path: string, text: string | null): number | undefined {
  if (text === null || !answersRecord(method, path)) return undefined;
  const match = /^\s*\{\s*(?:"data"\s*:\s*\{\s*)?"id"\s*:\s*(\d{1,15})\s*[,}]/.exec(text.slice(0, 80));
  return match ? Number(match[1]) : undefined;
}

/** The query as serve's entries keep it: each name once, a repeated one as a list (the last few hundred kept: a poller's). */
const queries = new TextLru<Record<string, string | string[]>>(256);
export function queryOf(search: string): Record<string, string | string[]> {
  const known = queries.get(search);
  if (known !== undefined) return known;
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const had = query[name];
    query[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  queries.set(search, query);
  return query;
}

/**
 * The answers last redacted, by their text: a polled record is the same text again and again, and
 * a merchant's records read in turn are a few hundred texts. Each is kept as one Buffer, which serve's
 * journal store then writes once and names by reference in every entry that answered it (as it does
 * with serve's own kept records). Answers only: a request's body, which may hold a card, is not kept
 * past its exchange.
 */
const redactions = new TextLru<Buffer>(256);
function redactedAnswer(text: string | null): string | Buffer | null {
  if (text === null) return null;
  if (text.length > 16_384) return capped(redactedText(text));
  let kept = redactions.get(text);
  if (kept === undefined) redactions.set(text, (kept = Buffer.from(redactedText(text))));
  return kept;
}

/**
 * The findings as the detail's shared members (`"findings":[…]`), one Buffer per list: the checks
 * answer the same list for the same answer, and the journal then keeps it once and names it in each
 * entry (a polled record's 20-odd findings are 5 KB an entry otherwise, copied to the writer each time).
 */
const findingsKept = new WeakMap<readonly Finding[], Buffer>();
function sharedFindings(findings: readonly Finding[]): Buffer {
  let kept = findingsKept.get(findings);
  if (kept === undefined) findingsKept.set(findings, (kept = Buffer.from(`"findings":${JSON.stringify(findings)}`)));
  return kept;
}

export function proxyEntry(exchange: Exchanged): NewJournalEntry {
  const mark = exchange.url.indexOf('?');
  const bearer = /^Bearer\s+(\S+)/i.exec(exchange.headers.authorization ?? '')?.[1];
  const hint = bearer === undefined ? null : maskToken(bearer);
  const key = exchange.headers['idempotency-key'];
  const path = mark === -1 ? exchange.url : exchange.url.slice(0, mark);
  const touched = exchange.status !== null && exchange.status < 300 ? recordId(exchange.method, path, exchange.answerBody) : undefined;
  const problems = exchange.findings.filter((finding) => finding.kind === 'request').map((finding) => ({ path: finding.path, message: finding.expected }));
  const shared = exchange.findings.length === 0 ? undefined : sharedFindings(exchange.findings);
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
    // (none: said in the entry's own members; some: kept once, by the journal, for every entry with the same)
    detail: JSON.stringify(shared ? detail : { ...detail, findings: [] }),
    ...(shared && { detail_shared: shared }),
  };
}
