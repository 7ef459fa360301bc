// A GET over node:http(s), the reads' transport; writes (POST) go through ofetch. Measured on this
// project's `invoice get --json` against a local serve (Node 20, 2 cores, median of 31 runs against
// `node -e 0` = 1.00): a script that imports ofetch and sends one GET takes 6.6x, one that calls the
// global fetch 5.7x, one that uses node:http 1.9x. fetch loads undici (about 25 ms), and its process
// lives on about 70 ms after the answer; node:http is already in Node's start-up snapshot.
// An answer that fetch would treat differently (a redirect to follow, a compressed body), or a URL
// it would refuse (credentials in it), is not handled here: the caller asks ofetch instead.
import http from 'node:http';

export interface TextResponse {
  status: number;
  statusText: string;
  text: string;
  retryAfter: string | null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** As ofetch's timeout: an answer's head must arrive in time; the body may take longer. */
function timeoutError(): Error {
  const error = new Error('The operation was aborted due to timeout');
  error.name = 'TimeoutError';
  return error;
}

/** The answer, or undefined when fetch's handling is needed; rejects as node:http does (its error codes). */
export async function getText(url: string, headers: Record<string, string>, timeoutMs: number): Promise<TextResponse | undefined> {
  const target = new URL(url);
  if (target.username || target.password) return undefined;
  const client = target.protocol === 'https:' ? (await import('node:https')).default : http;
  return new Promise((resolve, reject) => {
    let request: http.ClientRequest;
    try {
      // agent: false, one connection per request: nothing is kept open to hold the process after the answer
      request = client.get(target, { headers, agent: false }, (response) => {
        clearTimeout(timer);
        const encoding = response.headers['content-encoding'];
        const status = response.statusCode ?? 0;
        if ((REDIRECTS.has(status) && response.headers.location) || (encoding && encoding !== 'identity')) {
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
          resolve({ status, statusText: response.statusMessage ?? '', text, retryAfter: retryAfter ?? null });
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
  });
}
