// Ground floor (src/base): imports nothing of ours but src/domain.
// One JSON POST over node:http(s): a bounded exchange that never throws, only reports. Used for postbacks
// and by `webhooks listen --forward-to`. (Not fetch: undici refuses "bad ports" a local receiver may use.)
import http from 'node:http';
import https from 'node:https';

export interface PostResult {
  /** the HTTP status, when an answer came */
  status?: number;
  /** why no (complete) answer came */
  error?: string;
  /** the start of the answer's body */
  excerpt?: string;
  /** cut off by the dispatcher stopping: not an attempt to record */
  aborted?: boolean;
}

const EXCERPT = 500;

function describe(error: NodeJS.ErrnoException, url: URL): string {
  switch (error.code) {
    case 'ECONNREFUSED': return `connection refused by ${url.host}`;
    case 'ECONNRESET': return 'connection reset by the receiver';
    case 'ENOTFOUND': case 'EAI_AGAIN': return `host ${url.hostname} not found`;
    case 'EHOSTUNREACH': case 'ENETUNREACH': return `host ${url.hostname} unreachable`;
    default: return error.code ? `${error.code}: ${error.message}` : error.message;
  }
}

/** Keep-alive connection pools, one per protocol: a receiver's connection serves its next postbacks. */
export interface Pools {
  http: http.Agent;
  https: https.Agent;
  close(): void;
}

/**
 * Pools whose idle connections never hold the process (node:http unrefs them) and follow the receiver's
 * `Keep-Alive: timeout` hint; at most `maxFree` idle ones per origin are kept.
 */
export function keepAlivePools(maxFree: number): Pools {
  const options = { keepAlive: true, maxFreeSockets: maxFree, scheduling: 'lifo' as const };
  const pools = { http: new http.Agent(options), https: new https.Agent(options) };
  return { ...pools, close: () => (pools.http.destroy(), pools.https.destroy()) };
}

/**
 * POSTs `body` to `url`; over a connection of `pools` when given (kept open for the next), else over
 * one of its own, closed after the answer.
 */
export function postJson(url: string, body: string | Buffer, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal, pools?: Pools): Promise<PostResult> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const chunks: Buffer[] = [];
    let received = 0;
    let status: number | undefined;
    let settled = false;
    const excerpt = () => Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT);
    const done = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const secure = target.protocol === 'https:';
    const client = secure ? https : http;
    const agent = pools ? (secure ? pools.https : pools.http) : false;
    const request = client.request(
      target,
      { method: 'POST', agent, signal, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (response) => {
        status = response.statusCode;
        response.on('data', (chunk: Buffer) => {
          if (received < EXCERPT * 4) chunks.push(chunk);
          received += chunk.length;
        });
        response.on('end', () => done({ status, excerpt: excerpt() }));
        response.on('error', () => done({ status, excerpt: excerpt() }));
      },
    );
    // A receiver that answered its status but stalls on the body has still answered.
    const timer = setTimeout(() => {
      request.destroy();
      done(status === undefined ? { error: `no answer within ${timeoutMs} ms` } : { status, excerpt: excerpt() });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (signal?.aborted) done({ aborted: true, error: 'stopped' });
      else done(status === undefined ? { error: describe(error, target) } : { status, excerpt: excerpt() });
    });
    request.end(body);
  });
}
