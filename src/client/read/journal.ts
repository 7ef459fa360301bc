// The inspector's journal entries (`pinvoice logs`), read as tolerantly as a charge: a server of another
// version may add, rename or leave out fields, and the CLI shows what it can (--json prints them as sent).
import { at, bool, decimal, int, isRecord, list, text } from './values.js';

export interface ProblemView {
  path: string;
  message: string;
}

/** A difference `pinvoice proxy` found between the exchange and the contract. */
export interface FindingView {
  severity: string;
  kind: string;
  direction?: string | undefined;
  path: string;
  expected: string;
  seen: string;
}

export interface EntryView {
  raw: unknown;
  id?: number | undefined;
  at?: string | undefined;
  sandboxAt?: string | undefined;
  /** "in" (a request received), "out" (a postback attempt sent), or what the server said */
  direction?: string | undefined;
  method?: string | undefined;
  path?: string | undefined;
  /** the query as a URL's: "status=paid&limit=5", or "" */
  query: string;
  headers: [name: string, value: string][];
  body: unknown;
  responseBody: unknown;
  /** the answer's status; none: no answer came (see error) */
  status?: number | undefined;
  durationMs?: number | undefined;
  tokenName?: string | undefined;
  tokenHint?: string | undefined;
  idempotencyKey?: string | undefined;
  replayed?: boolean | undefined;
  problems: ProblemView[];
  chargeIds: string[];
  eventId?: string | undefined;
  event?: string | undefined;
  attempt?: number | undefined;
  url?: string | undefined;
  signatureHeaders: string[];
  error?: string | undefined;
  /** a proxy's entry: the gateway's own status (none: it did not answer) */
  upstreamStatus?: number | undefined;
  /** a proxy's entry: how the exchange differs from the contract */
  findings: FindingView[];
}

const strings = (value: unknown): string[] => list(value).flatMap((item) => text(item) ?? []);

function queryText(value: unknown): string {
  if (!isRecord(value)) return '';
  const search = new URLSearchParams();
  for (const [name, given] of Object.entries(value)) for (const one of Array.isArray(given) ? given : [given]) search.append(name, text(one) ?? '');
  return search.toString();
}

const readFinding = (value: unknown): FindingView[] => {
  const kind = text(at(value, 'kind'));
  if (kind === undefined) return [];
  return [{ kind, severity: text(at(value, 'severity')) ?? '?', direction: text(at(value, 'direction')), path: text(at(value, 'path')) ?? '', expected: text(at(value, 'expected')) ?? '', seen: text(at(value, 'seen')) ?? '' }];
};

const readProblem = (value: unknown): ProblemView[] => {
  const message = text(at(value, 'message'));
  return message === undefined ? [] : [{ path: typeof at(value, 'path') === 'string' ? (at(value, 'path') as string) : '', message }];
};

export function readEntry(value: unknown): EntryView {
  const headers = at(value, 'headers');
  return {
    raw: value,
    id: int(at(value, 'id')),
    at: text(at(value, 'at')),
    sandboxAt: text(at(value, 'sandbox_at')),
    direction: text(at(value, 'direction')),
    method: text(at(value, 'method')),
    path: text(at(value, 'path')),
    query: queryText(at(value, 'query')),
    headers: isRecord(headers) ? Object.entries(headers).flatMap(([name, header]) => (text(header) === undefined ? [] : [[name, String(header)] as [string, string]])) : [],
    body: at(value, 'body') ?? null,
    responseBody: at(value, 'response_body') ?? null,
    status: int(at(value, 'status')),
    durationMs: decimal(at(value, 'duration_ms')),
    tokenName: text(at(value, 'token_name')),
    tokenHint: text(at(value, 'token_hint')),
    idempotencyKey: text(at(value, 'idempotency_key')),
    replayed: bool(at(value, 'replayed')),
    problems: list(at(value, 'problems')).flatMap(readProblem),
    chargeIds: strings(at(value, 'invoice_ids')),
    eventId: text(at(value, 'event_id')),
    event: text(at(value, 'event')),
    attempt: int(at(value, 'attempt')),
    url: text(at(value, 'url')),
    signatureHeaders: strings(at(value, 'signature_headers')),
    error: text(at(value, 'error')),
    upstreamStatus: int(at(value, 'upstream.status')),
    findings: list(at(value, 'findings')).flatMap(readFinding),
  };
}

export interface JournalPageView {
  entries: EntryView[];
  nextCursor?: number | undefined;
  /** entries dropped from the window since the journal was last cleared */
  dropped?: number | undefined;
}

/** `{data, next_cursor, dropped}`, or a bare list of entries. */
export function readJournalPage(answer: unknown): JournalPageView {
  return {
    entries: list(isRecord(answer) ? answer.data : answer).map(readEntry),
    nextCursor: int(at(answer, 'next_cursor')),
    dropped: int(at(answer, 'dropped')),
  };
}
