// One HTTP exchange with timeouts, retries where they cannot duplicate a charge, and debug output.
// Reads go over node:http (get-text.ts says why), writes through ofetch, loaded only for them.
import { maskToken, redactCard, redactSecretsInText } from '../domain/secrets.js';
import { NetworkError } from './errors.js';
import { getText, type TextResponse } from './get-text.js';

export interface HttpOptions {
  baseUrl: string;
  token?: string;
  timeoutMs: number;
  /** retries after the first attempt, for retryable failures only */
  retries: number;
  debug?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  userAgent: string;
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
    const read = request.method === 'GET' ? await getText(url, headers, options.timeoutMs) : undefined;
    if (read) return read;
    const { ofetch } = await import('ofetch');
    const response = await ofetch.raw<string, 'text'>(url, {
      method: request.method,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      headers,
      timeout: options.timeoutMs,
      retry: 0,
      ignoreResponseError: true,
      responseType: 'text',
    });
    return { status: response.status, statusText: response.statusText, text: response._data ?? '', retryAfter: response.headers.get('retry-after') };
  }

  async function once(request: HttpRequest, url: string, headers: Record<string, string>): Promise<{ status: number; text: string; retryAfter: string | null }> {
    const started = Date.now();
    try {
      const { status, statusText, text, retryAfter } = await exchange(request, url, headers);
      debug?.(`< ${status} ${statusText} (${Date.now() - started} ms)`);
      if (text) debug?.(`< ${redactSecretsInText(text.slice(0, DEBUG_BODY_LIMIT))}${text.length > DEBUG_BODY_LIMIT ? '…' : ''}`);
      return { status, text, retryAfter };
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
      if (!canRetry || !RETRY_STATUSES.has(result.status)) return result;
      const wait = retryAfterMs(result.retryAfter) ?? backoffMs(attempt);
      debug?.(`  retrying in ${wait} ms (attempt ${attempt + 2} of ${options.retries + 1})`);
      await sleep(wait);
    }
  };
}
