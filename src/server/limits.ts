// What one request, and all requests together, may cost the server; documented in docs/api.md (Limits).

export interface Limits {
  /** largest request body */
  bodyBytes: number;
  /** deepest nesting of objects and arrays in a JSON body */
  depth: number;
  /** from the connection (or the end of the previous request) to the end of the headers */
  headersTimeoutMs: number;
  /** from the start of a request to the end of its body */
  requestTimeoutMs: number;
  /** how long an idle keep-alive connection is kept open */
  keepAliveTimeoutMs: number;
  /** body bytes all unfinished requests may hold together; beyond it a request is answered 503 */
  bodyBudgetBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  bodyBytes: 1024 * 1024,
  depth: 32,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  bodyBudgetBytes: 64 * 1024 * 1024,
};

/** Node looks for timed-out requests on an interval (30 s by default): often enough for the shortest timeout. */
export function checkingInterval(limits: Limits): number {
  return Math.max(10, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
}

export const bytes = (n: number) => (n % (1024 * 1024) === 0 ? `${n} bytes (${n / 1024 / 1024} MiB)` : `${n} bytes`);

export const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
