// One HTTP exchange with a deadline, retries where they cannot duplicate a charge, and debug output.
// Reads go over node:http (get-text.ts says why), writes through ofetch, loaded only for them; a
// batch's writes go over node:http too, on one keep-alive pool (keepAlive). Redirects are never
// followed (the token would go with the request, maybe to another origin): they are reported.
import { spokenDuration } from '../base/spoken-duration.js';
import { maskToken, redactCard, redactSecretsInText } from '../domain/secrets.js';
import { NetworkError, RedirectError } from './errors.js';
import { requestText, type TextResponse } from './get-text.js';

export interface HttpOptions {
  baseUrl: string;
  token?: string;
  /** the whole exchange, retries and waits included, gives up after this long */
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
  /**
   * The certificate authorities the server's certificate must chain to, instead of Node's (`pix pay
   * --ca`: a `serve --tls` whose CA is given for the run): every request then goes over node:https,
   * writes included (each retry-safe: it carries its Idempotency-Key).
   */
  ca?: string[] | undefined;
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
export const REDIRECTS = new Set([301, 302, 303, 307, 308]);
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

/** How to trust a private certificate authority, for the errors where that is the fix. */
const TRUST_HINT = 'if the server uses a private certificate authority, trust it with NODE_EXTRA_CA_CERTS=/path/to/ca.pem';

/** What a TLS failure means, by the code Node gives it; undefined for any other error. */
function describeTls(code: string | undefined, message: string | undefined, origin: string): string | undefined {
  switch (code) {
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return `cannot trust ${origin}: its certificate is self-signed; ${TRUST_HINT}`;
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return `cannot trust ${origin}: its certificate is signed by a certificate authority this machine does not trust; ${TRUST_HINT}`;
    case 'CERT_HAS_EXPIRED':
      return `cannot trust ${origin}: its certificate has expired (the server must renew it)`;
    case 'CERT_NOT_YET_VALID':
      return `cannot trust ${origin}: its certificate is not valid yet (is this machine's clock right?)`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID': {
      const names = /altnames: (.*)$/.exec(message ?? '')?.[1];
      return `cannot trust ${origin}: its certificate is for another host${names ? ` (${names})` : ''}; use the host name the certificate names in --base-url`;
    }
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return `cannot talk TLS with ${origin} (is it an http:// server given as https://?)`;
    default:
      return undefined;
  }
}

export function networkError(error: unknown, url: string, timeoutMs: number): NetworkError {
  const origin = new URL(url).origin;
  const { code, names, message } = rootCause(error);
  if (names.includes('TimeoutError') || names.includes('AbortError')) return new NetworkError(`no answer from ${origin} within ${spokenDuration(timeoutMs)} (--timeout, PINVOICE_TIMEOUT)`);
  if (code === 'ECONNREFUSED') return new NetworkError(`cannot connect to ${origin} (connection refused; is the server running?)`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new NetworkError(`cannot resolve the host of ${origin}`);
  if (code === 'ETIMEDOUT') return new NetworkError(`cannot connect to ${origin} (the connection timed out; is the host up, or a firewall in the way?)`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new NetworkError(`cannot reach ${origin} (no route to the host; is this machine on the network?)`);
  // node:http's ECONNRESET; fetch's SocketError (UND_ERR_SOCKET, "other side closed"), which holds no system code
  if (code === 'ECONNRESET' || names.includes('SocketError')) return new NetworkError(`the connection to ${origin} was closed before an answer`);
  const tls = describeTls(code, message, origin);
  // a certificate is the same on the next attempt: not retried
  return tls === undefined ? new NetworkError(`cannot reach ${origin} (${code ?? message ?? 'network error'})`) : new NetworkError(tls, false);
}

/**
 * A redirect, reported: where it points, and the base URL that would have been asked directly (the
 * redirect's target with the request's own path taken off, when it ends with it).
 */
export function redirectMessage(url: string, status: number, location: string, baseUrl: string): string {
  const from = new URL(url);
  let target: URL;
  try {
    target = new URL(location, url);
  } catch {
    return `${from.origin} answered HTTP ${status} with a redirect to "${location}", which is not a URL; pinvoice does not follow redirects`;
  }
  const below = from.pathname.slice(new URL(baseUrl).pathname.replace(/\/+$/, '').length);
  const base = (below !== '' && target.pathname.endsWith(below) ? `${target.origin}${target.pathname.slice(0, -below.length)}` : target.origin).replace(/\/+$/, '');
  const said = `${from.origin} answered HTTP ${status}, redirecting to ${target.origin}${target.pathname}; pinvoice does not follow redirects (the token would go with the request)`;
  // a redirect within the base URL itself (a trailing slash added): no other base URL would help
  return base === baseUrl.replace(/\/+$/, '') ? `${said}; the gateway moved this operation, which pinvoice cannot follow` : `${said}: use --base-url ${base} instead`;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  text: string;
  /** where the request went (for messages naming the origin) */
  url: string;
  /** the server answered a create it had already made (Idempotent-Replayed: true) */
  replayed?: boolean;
  /** Pinvoice-Ignored-Fields, as sent (pinvoice serve names the request's fields it did not know) */
  ignoredFields?: string | undefined;
  /** Pinvoice-Serve, as sent: pinvoice serve answered (its version); a production gateway does not send it */
  serve?: string | undefined;
}

/** The request's URL: the base URL, the operation's path under it, the query. */
export function requestUrl(baseUrl: string, path: string, query: Record<string, string> = {}): string {
  const target = new URL(path.replace(/^\//, ''), baseUrl.replace(/\/?$/, '/'));
  for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
  return target.toString();
}

/** The headers every request carries (the token only ever goes to the base URL's origin: redirects are not followed), and its own. */
export function requestHeaders(options: Pick<HttpOptions, 'token' | 'userAgent'>, own: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': options.userAgent, ...own };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  return headers;
}

/** --debug: the request as sent, the token masked. */
export function logRequest(debug: ((line: string) => void) | undefined, request: Pick<HttpRequest, 'method' | 'body'>, url: string, headers: Record<string, string>): void {
  if (!debug) return;
  debug(`> ${request.method} ${url}`);
  for (const [name, value] of Object.entries(headers)) {
    debug(`> ${name}: ${name === 'Authorization' ? `Bearer ${maskToken(value.slice(7))}` : value}`);
  }
  // the card number and security code are masked like the token: debug output ends up in bug reports
  if (request.body !== undefined) debug(`> ${JSON.stringify(redactCard(request.body)).slice(0, DEBUG_BODY_LIMIT)}`);
}

export function createHttp(options: HttpOptions) {
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const debug = options.debug;

  async function exchange(request: HttpRequest, url: string, headers: Record<string, string>, timeoutMs: number): Promise<TextResponse> {
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    // (a write given back to ofetch after node:http, for an answer it handles, is sent again: only a retry-safe one may be)
    const direct = request.method === 'GET' || ((options.keepAlive === true || options.ca !== undefined) && request.retrySafe);
    const read = direct ? await requestText(url, { method: request.method, headers, body, timeoutMs, keepAlive: options.keepAlive, ca: options.ca }) : undefined;
    if (read) return read;
    const { ofetch } = await import('ofetch');
    const response = await ofetch.raw<string, 'text'>(url, {
      method: request.method,
      body,
      headers,
      timeout: timeoutMs,
      retry: 0,
      redirect: 'manual',
      ignoreResponseError: true,
      responseType: 'text',
    });
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    const { status, statusText, headers: answer } = response;
    return { status, statusText, text: response._data ?? '', retryAfter: answer.get('retry-after'), replayed, location: answer.get('location') ?? undefined, ignoredFields: answer.get('pinvoice-ignored-fields') ?? undefined, serve: answer.get('pinvoice-serve') ?? undefined };
  }

  async function once(request: HttpRequest, url: string, headers: Record<string, string>, timeoutMs: number): Promise<HttpResponse & { retryAfter: string | null }> {
    const started = Date.now();
    let answer: TextResponse;
    try {
      answer = await exchange(request, url, headers, timeoutMs);
    } catch (error) {
      const failure = networkError(error, url, options.timeoutMs);
      debug?.(`< network error after ${spokenDuration(Date.now() - started)}: ${failure.message}`);
      throw failure;
    }
    const { status, statusText, text, retryAfter, replayed, location, ignoredFields, serve } = answer;
    debug?.(`< ${status} ${statusText} (${spokenDuration(Date.now() - started)})`);
    if (text) debug?.(`< ${redactSecretsInText(text.slice(0, DEBUG_BODY_LIMIT))}${text.length > DEBUG_BODY_LIMIT ? '…' : ''}`);
    if (REDIRECTS.has(status)) throw new RedirectError(redirectMessage(url, status, location ?? '', options.baseUrl));
    return { status, statusText, text, url, retryAfter, replayed, ignoredFields, serve };
  }

  return async function send(request: HttpRequest): Promise<HttpResponse> {
    const url = requestUrl(options.baseUrl, request.path, request.query);
    const headers = requestHeaders(options, { ...request.headers, ...(request.body !== undefined && { 'Content-Type': 'application/json' }) });
    logRequest(debug, request, url, headers);
    // One budget for the whole exchange: a silent server costs --timeout, not that for each retry.
    let deadline = Date.now() + options.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const canRetry = request.retrySafe && attempt < options.retries;
      let result;
      try {
        result = await once(request, url, headers, Math.max(deadline - Date.now(), 1));
      } catch (error) {
        const wait = backoffMs(attempt);
        if (!canRetry || !(error instanceof NetworkError) || !error.retryable || Date.now() + wait >= deadline) throw error;
        await sleep(wait);
        continue;
      }
      if (result.status === 429 && request.retrySafe && options.waitOutRateLimit) {
        const wait = retryAfterMs(result.retryAfter) ?? backoffMs(0);
        debug?.(`  rate limited: retrying in ${spokenDuration(wait)}`);
        await options.waitOutRateLimit(wait);
        deadline += wait; // a 429 waited out is not a failure: neither the budget nor the time is spent on it
        attempt--;
        continue;
      }
      if (!canRetry || !RETRY_STATUSES.has(result.status)) return result;
      const wait = retryAfterMs(result.retryAfter) ?? backoffMs(attempt);
      if (Date.now() + wait >= deadline) {
        debug?.(`  not retrying: the wait (${spokenDuration(wait)}) goes past --timeout`);
        return result;
      }
      debug?.(`  retrying in ${spokenDuration(wait)} (attempt ${attempt + 2} of ${options.retries + 1})`);
      await sleep(wait);
    }
  };
}
