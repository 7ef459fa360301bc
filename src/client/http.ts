// One HTTP exchange with timeouts, retries where they cannot duplicate a charge, and debug output.
// Reads go over node:http (get-text.ts says why), writes through ofetch, loaded only for them; a
// batch's writes go over node:http too, on one keep-alive pool (keepAlive).
import { maskToken, redactCard, redactSecretsInText } from '../domain/secrets.js';
import { NetworkError } from './errors.js';
import { requestText, type TextResponse } from './get-text.js';

export interface HttpOptions {
  baseUrl: string;
  token?: string;
  timeoutMs: number;
  /** retries after the first attempt, for retryable failures only */
  retries: number;
  debug?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  userAgent: string;
  /**
   * Given, a 429 to a retry-safe request is waited out by it (with the wait Retry-After asks for) and
   * retried without limit, the retry budget being left to other failures: a batch slows down instead of failing.
   */
  waitOutRateLimit?: (ms: number) => Promise<void>;
  /** retry-safe writes too over node:http, on one pool of keep-alive connections (many requests in one process) */
  keepAlive?: boolean;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  /** a retry cannot create a second resource (GET, or a POST carrying an Idempotency-Key) */
  retrySafe: boolean;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_DELAY_MS = 10_000;
const DEBUG_BODY_LIMIT = 4000;

/** Retry-After in seconds or as an HTTP date; capped so a CLI never waits for minutes. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_DELAY_MS) : undefined;
}

export function backoffMs(attempt: number, random = Math.random()): number {
  const base = Math.min(250 * 2 ** attempt, MAX_DELAY_MS);
  return Math.round(base / 2 + (base / 2) * random);
}

/** ofetch wraps fetch's TypeError, which wraps the system error (node:http gives it bare): walk the chain for what happened. */
function rootCause(error: unknown): { code?: string; names: string[]; message?: string } {
  const names: string[] = [];
  let message: string | undefined;
  let current = error as { cause?: unknown; code?: string; name?: string; message?: string } | undefined;
  for (let depth = 0; current && depth < 6; depth++) {
    if (current.name) names.push(current.name);
    message = current.message;
    if (typeof current.code === 'string' && !current.code.startsWith('UND_')) return { code: current.code, names, message };
    current = current.cause as typeof current;
  }
  return { names, message };
}

function describeNetworkError(error: unknown, url: string, timeoutMs: number): string {
  const origin = new URL(url).origin;
  const { code, names, message } = rootCause(error);
  if (names.includes('TimeoutError') || names.includes('AbortError')) return `no answer from ${origin} within ${timeoutMs / 1000} s`;
  if (code === 'ECONNREFUSED') return `cannot connect to ${origin} (connection refused; is the server running?)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve the host of ${origin}`;
  // node:http's ECONNRESET; fetch's SocketError (UND_ERR_SOCKET, "other side closed"), which holds no system code
  if (code === 'ECONNRESET' || names.includes('SocketError')) return `the connection to ${origin} was closed before an answer`;
  return `cannot reach ${origin} (${code ?? message ?? 'network error'})`;
}

export interface HttpResponse {
  status: number;
  text: string;
  /** the server answered a create it had already made (Idempotent-Replayed: true) */
  replayed?: boolean;
}

export function createHttp(options: HttpOptions) {
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const debug = options.debug;

  function logRequest(request: HttpRequest, url: string, headers: Record<string, string>): void {
    if (!debug) return;
    debug(`> ${request.method} ${url}`);
    for (const [name, value] of Object.entries(headers)) {
      debug(`> ${name}: ${name === 'Authorization' ? `Bearer ${maskToken(value.slice(7))}` : value}`);
    }
    // the card number and security code are masked like the token: debug output ends up in bug reports
    if (request.body !== undefined) debug(`> ${JSON.stringify(redactCard(request.body)).slice(0, DEBUG_BODY_LIMIT)}`);
  }

  async function exchange(request: HttpRequest, url: string, headers: Record<string, string>): Promise<TextResponse> {
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    // (a write given back to ofetch after node:http, for an answer it handles, is sent again: only a retry-safe one may be)
    const direct = request.method === 'GET' || (options.keepAlive === true && request.retrySafe);
    const read = direct ? await requestText(url, { method: request.method, headers, body, timeoutMs: options.timeoutMs, keepAlive: options.keepAlive }) : undefined;
    if (read) return read;
    const { ofetch } = await import('ofetch');
    const response = await ofetch.raw<string, 'text'>(url, {
      method: request.method,
      body,
      headers,
      timeout: options.timeoutMs,
      retry: 0,
      ignoreResponseError: true,
      responseType: 'text',
    });
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    return { status: response.status, statusText: response.statusText, text: response._data ?? '', retryAfter: response.headers.get('retry-after'), replayed };
  }

  async function once(request: HttpRequest, url: string, headers: Record<string, string>): Promise<HttpResponse & { retryAfter: string | null }> {
    const started = Date.now();
    try {
      const { status, statusText, text, retryAfter, replayed } = await exchange(request, url, headers);
      debug?.(`< ${status} ${statusText} (${Date.now() - started} ms)`);
      if (text) debug?.(`< ${redactSecretsInText(text.slice(0, DEBUG_BODY_LIMIT))}${text.length > DEBUG_BODY_LIMIT ? '…' : ''}`);
      return { status, text, retryAfter, replayed };
    } catch (error) {
      const message = describeNetworkError(error, url, options.timeoutMs);
      debug?.(`< network error after ${Date.now() - started} ms: ${message}`);
      throw new NetworkError(message);
    }
  }

  return async function send(request: HttpRequest): Promise<HttpResponse> {
    const target = new URL(request.path.replace(/^\//, ''), options.baseUrl.replace(/\/?$/, '/'));
    for (const [name, value] of Object.entries(request.query ?? {})) target.searchParams.set(name, value);
    const url = target.toString();
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': options.userAgent, ...request.headers };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    logRequest(request, url, headers);
    for (let attempt = 0; ; attempt++) {
      const canRetry = request.retrySafe && attempt < options.retries;
      let result;
      try {
        result = await once(request, url, headers);
      } catch (error) {
        if (!canRetry) throw error;
        await sleep(backoffMs(attempt));
        continue;
      }
      if (result.status === 429 && request.retrySafe && options.waitOutRateLimit) {
        const wait = retryAfterMs(result.retryAfter) ?? backoffMs(0);
        debug?.(`  rate limited: retrying in ${wait} ms`);
        await options.waitOutRateLimit(wait);
        attempt--; // a 429 waited out is not a failure: the budget is for the others
        continue;
      }
      if (!canRetry || !RETRY_STATUSES.has(result.status)) return result;
      const wait = retryAfterMs(result.retryAfter) ?? backoffMs(attempt);
      debug?.(`  retrying in ${wait} ms (attempt ${attempt + 2} of ${options.retries + 1})`);
      await sleep(wait);
    }
  };
}
