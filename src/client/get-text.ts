// A request over node:http(s): the reads' transport, and a batch's writes' (other writes go through
// ofetch). Measured here (Node
// 20, 2 cores, medians of 31 runs in one go, `node -e 0` = 28 ms): one GET of a transaction from a local
// `pinvoice serve` takes 179 ms in a script through ofetch, 154 ms through the global fetch, 47 ms through
// node:http. fetch loads undici (about 25 ms), and its process lives on about 70 ms after the answer.
// Each request through fetch also costs about 2.5 times the CPU: `invoice create --batch` sent 1,370
// creates/s through ofetch, 3,000 to 3,700/s over node:http on a keep-alive pool.
// An answer that fetch would treat differently (a compressed body), or a request
// it would build differently (credentials in the URL, a header node:http refuses), is not handled here:
// the caller asks ofetch instead. (fetch also refuses the Fetch standard's "bad ports", such as 6000;
// node:http does not, so reads reach a server there, as src/base/post-json.ts's postbacks do.)
import http from 'node:http';
import type https from 'node:https';

export interface TextResponse {
  status: number;
  statusText: string;
  text: string;
  retryAfter: string | null;
  /** Idempotent-Replayed: true, the answer to a create the server had already made */
  replayed?: boolean;
  /** Pinvoice-Ignored-Fields, as sent: the request's fields the server did not know */
  ignoredFields?: string | undefined;
  /** Pinvoice-Serve, as sent: the server is pinvoice serve, of this version (src/api/serve-header.ts) */
  serve?: string | undefined;
  /** a redirect's Location (never followed: http.ts reports it) */
  location?: string | undefined;
}

export interface TextRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** over one pool of keep-alive connections (per protocol), not one connection per request */
  keepAlive?: boolean;
  /** the certificate authorities an https server's certificate must chain to (default: Node's) */
  ca?: string[] | undefined;
}

/** The pools of keep-alive connections; Node unrefs idle ones, so they never hold the process. */
const pools = new Map<string, http.Agent>();
function pool(protocol: string, client: typeof http | typeof https): http.Agent {
  const agent = pools.get(protocol) ?? new client.Agent({ keepAlive: true });
  pools.set(protocol, agent);
  return agent;
}

/** As ofetch's timeout: an answer's head must arrive in time; the body may take longer. */
function timeoutError(): Error {
  const error = new Error('The operation was aborted due to timeout');
  error.name = 'TimeoutError';
  return error;
}

/** The answer, or undefined when fetch's handling is needed; rejects as node:http does (its error codes). */
export async function requestText(url: string, { method, headers, body, timeoutMs, keepAlive, ca }: TextRequest): Promise<TextResponse | undefined> {
  const target = new URL(url);
  if (target.username || target.password) return undefined;
  const client = target.protocol === 'https:' ? (await import('node:https')).default : http;
  return new Promise((resolve, reject) => {
    let request: http.ClientRequest;
    try {
      // agent: false, one connection per request: nothing is kept open to hold the process after the answer
      // (a batch's many requests share a pool, whose idle connections do not hold it either)
      // (a pool's TLS options are its own: a request with its own CAs goes on a connection of its own)
      const agent = keepAlive && !ca ? pool(target.protocol, client) : false;
      const length = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
      request = client.request(target, { method, headers: { ...headers, ...length }, agent, ...(ca && { ca }) }, (response) => {
        clearTimeout(timer);
        const encoding = response.headers['content-encoding'];
        const status = response.statusCode ?? 0;
        if (encoding && encoding !== 'identity') {
          response.destroy();
          return resolve(undefined);
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const retryAfter = response.headers['retry-after'];
          // as fetch's text(): UTF-8, a byte-order mark dropped, anything invalid shown as U+FFFD
          const text = new TextDecoder().decode(Buffer.concat(chunks));
          const replayed = response.headers['idempotent-replayed'] === 'true';
          const ignoredFields = response.headers['pinvoice-ignored-fields'];
          const serve = response.headers['pinvoice-serve'];
          resolve({
            status, statusText: response.statusMessage ?? '', text, retryAfter: retryAfter ?? null, replayed, location: response.headers.location,
            ignoredFields: typeof ignoredFields === 'string' ? ignoredFields : undefined, serve: typeof serve === 'string' ? serve : undefined,
          });
        });
      });
    } catch {
      // a header node:http will not send (a character beyond Latin-1 in a token): fetch's own refusal follows
      return resolve(undefined);
    }
    const timer = setTimeout(() => request.destroy(timeoutError()), timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}
