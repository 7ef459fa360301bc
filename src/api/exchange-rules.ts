// The proxy's checks of what is around an answer body: the merchant's request (refused as serve would
// refuse it?), the answer's status (one the operation table gives?) and its headers (beyond HTTP's and
// the contract's?). The answer body itself: finding-rules.ts.
import { difference, type Difference } from './finding-rules.js';
import { pointer } from './json-pointer.js';
import { parseInvoiceQuery } from './invoice-query.js';
import { answerStatuses, type Operation } from './operations.js';
import { shapeOf, stringShape } from './shape-sample.js';
import { parseWith, validateCreateRequest } from './validate.js';

/** The value a problem's pointer names in the body (`/items/0/unit_price`), or undefined. */
function valueAt(body: unknown, at: string): unknown {
  if (at === '') return body;
  let current = body;
  for (const segment of at.slice(1).split('/')) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Each problem the contract would refuse the request with (422), at its pointer: a create with serve's
 * create rules (cross-field ones included), any other body with its schema; no body is `{}`, as serve reads it.
 */
export function requestFindings(operation: Operation, body: unknown, now: Date = new Date()): Difference[] {
  if (!operation.body) return [];
  const checked = operation.id === 'createInvoice' ? validateCreateRequest(body, now) : parseWith(operation.body, body ?? {});
  if (checked.ok) return [];
  const found = new Map<string, Difference>();
  for (const problem of checked.details) {
    const path = pointer(problem.path, { anyIndex: true });
    const key = `${path} ${problem.message}`;
    if (!found.has(key)) found.set(key, difference('request', path, problem.message, shapeOf(valueAt(body, pointer(problem.path)))));
  }
  return [...found.values()];
}

/** Each problem serve would refuse Search Transaction's query with (422 at `query.<name>`); other operations read no query. */
export function queryFindings(operation: Operation, query: URLSearchParams): Difference[] {
  if (operation.id !== 'searchTransaction' || query.size === 0) return [];
  const given: Record<string, string | string[]> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    given[name] = values.length === 1 ? (values[0] as string) : values;
  }
  const checked = parseInvoiceQuery(given);
  if (checked.ok) return [];
  return checked.details.map((problem) => {
    const value = given[problem.path.replace(/^query\./, '')];
    return difference('request', problem.path, problem.message, Array.isArray(value) ? `${value.length} values` : shapeOf(value));
  });
}

const statuses = new WeakMap<Operation, number[]>();

/** A status the operation table does not give for the operation: a `status-code` finding. */
export function statusFinding(operation: Operation, status: number): Difference | undefined {
  let given = statuses.get(operation);
  if (given === undefined) statuses.set(operation, (given = answerStatuses(operation)));
  return given.includes(status) ? undefined : difference('status-code', '', `one of ${given.join(', ')}`, String(status));
}

/** Answer headers of HTTP itself, of caches and browsers' security, and those the contract and serve use. */
const KNOWN_HEADERS = new Set([
  'accept-ranges', 'age', 'allow', 'alt-svc', 'cache-control', 'connection', 'content-disposition', 'content-encoding',
  'content-language', 'content-length', 'content-location', 'content-range', 'content-security-policy', 'content-type',
  'date', 'etag', 'expires', 'keep-alive', 'last-modified', 'link', 'location', 'nel', 'permissions-policy', 'pragma',
  'referrer-policy', 'report-to', 'retry-after', 'server', 'server-timing', 'set-cookie', 'strict-transport-security',
  'timing-allow-origin', 'trailer', 'transfer-encoding', 'upgrade', 'vary', 'via', 'warning', 'www-authenticate',
  'x-content-type-options', 'x-frame-options', 'x-request-id', 'x-xss-protection', 'traceparent', 'tracestate',
  'idempotent-replayed',
]);
/** Families of headers known by their prefix: ours (Pinvoice-Serve, Pinvoice-Ignored-Fields, the proxy's entry), rate limits, CORS. */
const KNOWN_PREFIXES = ['pinvoice-', 'ratelimit', 'x-ratelimit-', 'access-control-', 'cross-origin-'];

export const isKnownHeader = (name: string): boolean => KNOWN_HEADERS.has(name) || KNOWN_PREFIXES.some((prefix) => name.startsWith(prefix));

/** An `extra-header` finding for each answer header beyond the known ones (names in lower case, as node gives them). */
export function headerFindings(headers: Readonly<Record<string, string | string[] | undefined>>): Difference[] {
  const found: Difference[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || isKnownHeader(name)) continue;
    const seen = Array.isArray(value) ? `${value.length} values` : stringShape(value);
    found.push(difference('extra-header', `headers.${name}`, 'no such header', seen));
  }
  return found;
}
