// What is told of each answered request: its count for /metrics (metrics/counts.ts) and, with
// `serve --log-format json`, its line of the log. Called where the answer is known (the operations'
// handler, the error and not-found handlers; pages in a hook of their own), never in a hook of the API.
import { performance } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import type { AppCounts } from './metrics/counts.js';

/** A request's line of the JSON log: no token, no body, no query (the route's template, not the URL). */
export interface RequestLine {
  request_id: string;
  /** the API operation id, or `other` (a page, an unrouted path) */
  operation: string;
  method: string;
  /** the route's path template (`/api/v2/invoices/:id`); null for a path no route has */
  route: string | null;
  status: number;
  duration_ms: number;
  /** the company of the request's token, when it had a valid one */
  company_id: number | null;
}

/** `seconds`: the time taken when the caller knows it (fastify's, for pages), else since request.startedAt. */
export type Answered = (request: FastifyRequest, operation: string, status: number, seconds?: number) => void;

/** Undefined when nothing is told (metrics off, text logs): the request path then pays one test. */
export function createAnswered(counts: AppCounts | undefined, log: ((line: RequestLine) => void) | undefined): Answered | undefined {
  if (!counts && !log) return undefined;
  return (request, operation, status, seconds) => {
    const taken = seconds ?? (request.startedAt === undefined ? 0 : (performance.now() - request.startedAt) / 1000);
    counts?.request(operation, status, taken);
    log?.({
      request_id: request.id,
      operation,
      method: request.method,
      route: request.routeOptions.url ?? null,
      status,
      duration_ms: Math.round(taken * 1e6) / 1000,
      company_id: request.access?.company.id ?? null,
    });
  };
}
