// The proxy's checks of one exchange (contract, "Checks, out of band"): the request as serve checks
// it, the status against the operation table, the headers, and the answer against the schema of what
// serve writes, read with the CLI's tolerant error reader. The rules live in src/api; this only picks
// them for the exchange. Called for every exchange, so what a body gives is kept (a polled record
// costs a map lookup).
import { answerFindings, difference, type Difference } from '../api/finding-rules.js';
import { headerFindings, queryFindings, requestFindings, statusFinding } from '../api/exchange-rules.js';
import type { Finding } from '../api/findings.js';
import { operationAt } from '../api/operation-at.js';
import type { Operation } from '../api/operations.js';
import { Transaction } from '../api/schemas.js';
import { shapeOf } from '../api/shape-sample.js';
import { TextLru } from '../base/text-lru.js';
import { errorBodyHasMessage } from '../client/read/error-body.js';
import type { Exchange } from './forward.js';

export type { Exchange };

/** How many answer bodies' findings are kept; a poller's record, its creates and its errors fit many times over. */
const CACHE_SIZE = 256;
/** A longer answer (a page of records) is checked each time: the cache holds at most 256 × 64 KiB. */
const CACHED_BODY_CHARS = 64 * 1024;
/** Of one answer body (an error body is the same for many requests), at most this many contexts. */
const CONTEXTS_PER_BODY = 16;
type Made = { request: Difference[]; answer: Difference[] };
/** By answer body (hashed as it is, not copied into a longer key), then by what else decides the findings. */
const cache = new TextLru<Map<string, Made>>(CACHE_SIZE);

type Parsed = { json: true; value: unknown } | { json: false };
function parse(text: string): Parsed {
  try {
    return { json: true, value: JSON.parse(text) as unknown };
  } catch {
    return { json: false };
  }
}

const textShape = (text: string) => (text.trim() === '' ? 'empty' : `text, ${text.length} characters`);
const notJson = (text: string): Difference => difference('not-json', '', 'a JSON body', textShape(text));

function checkRequest(op: Operation, body: string | null): Difference[] {
  if (!op.body) return [];
  if (body === null || body.trim() === '') return requestFindings(op, undefined);
  const parsed = parse(body);
  if (!parsed.json) return [difference('request', '', 'a JSON body', textShape(body))];
  return requestFindings(op, parsed.value);
}

function checkAnswer(op: Operation, byId: boolean, status: number, body: string | null): Difference[] {
  if (status >= 400) {
    const text = body ?? '';
    const parsed = parse(text);
    if (!parsed.json) return [notJson(text)];
    if (errorBodyHasMessage(status, text)) return [];
    return [difference('error-shape', '', 'an error body with a message (`message`, `error`)', shapeOf(parsed.value))];
  }
  if (status < 200 || status >= 300 || op.response === 'openapi' || ('stream' in op && op.stream)) return [];
  const parsed = parse(body ?? '');
  if (!parsed.json) return [notJson(body ?? '')];
  return answerFindings(op.id === 'searchTransaction' && byId ? Transaction : op.response, parsed.value);
}

/** The body-made findings of an exchange, from the cache when these bodies were checked before. */
function bodyFindings(op: Operation, exchange: Exchange, head: boolean): Made {
  const byId = exchange.query.has('id');
  const { status } = exchange;
  const body = exchange.answerBody ?? '';
  const context = `${op.id} ${byId ? 1 : 0} ${status ?? '-'} ${head ? 1 : 0} ${exchange.answerBody === null ? 0 : 1} ${exchange.requestBody ?? ''}`;
  const entries = cache.get(body);
  const cached = entries?.get(context);
  if (cached) return cached;
  const made = {
    request: checkRequest(op, exchange.requestBody),
    answer: status === null || head ? [] : checkAnswer(op, byId, status, exchange.answerBody),
  };
  if (body.length > CACHED_BODY_CHARS || (exchange.requestBody?.length ?? 0) > CACHED_BODY_CHARS) return made;
  if (entries) {
    entries.set(context, made);
    if (entries.size > CONTEXTS_PER_BODY) entries.delete(entries.keys().next().value as string);
  } else cache.set(body, new Map([[context, made]]));
  return made;
}

/** Every finding of one exchange, request first; none for a path that is no operation of the table. */
export function checkExchange(exchange: Exchange): Finding[] {
  const op = operationAt(exchange.method, exchange.path);
  if (!op) return [];
  const { status } = exchange;
  const { request, answer } = bodyFindings(op, exchange, exchange.method.toUpperCase() === 'HEAD');
  const around = status === null ? [] : [statusFinding(op, status), ...headerFindings(exchange.answerHeaders)].filter((found) => found !== undefined);
  const finding = (direction: Finding['direction']) => (found: Difference): Finding =>
    ({ severity: found.severity, kind: found.kind, operation: op.id, direction, status, path: found.path, expected: found.expected, seen: found.seen });
  const asked = askedOf(op, exchange.query);
  // the usual exchange (nothing in its query, status or headers): the same list as the last time its
  // bodies were seen, so that the journal writes its JSON once (proxy/entry.ts)
  const plain = asked.length === 0 && around.length === 0;
  const kept = plain ? whole.get(request)?.get(answer) : undefined;
  if (kept) return kept;
  const found = [...[...asked, ...request].map(finding('request')), ...[...around, ...answer].map(finding('answer'))];
  if (plain) {
    if (!whole.has(request)) whole.set(request, new WeakMap());
    whole.get(request)?.set(answer, found);
  }
  return found;
}

/** queryFindings, once per query object: the proxy hands the same one for the same request line (forward.ts). */
const asks = new WeakMap<URLSearchParams, { op: Operation; found: Difference[] }>();
function askedOf(op: Operation, query: URLSearchParams): Difference[] {
  const known = asks.get(query);
  if (known?.op === op) return known.found;
  const found = queryFindings(op, query);
  asks.set(query, { op, found });
  return found;
}

/** The findings of a plain exchange, by its body-made lists (which the cache above keeps the same). */
const whole = new WeakMap<Difference[], WeakMap<Difference[], Finding[]>>();
