// A GET over node:http(s), the reads' transport; writes (POST) go through ofetch. Measured here (Node
// 20, 2 cores, medians of 31 runs in one go, `node -e 0` = 28 ms): one GET of a transaction from a local
// `pinvoice serve` takes 179 ms in a script through ofetch, 154 ms through the global fetch, 47 ms through
// node:http. fetch loads undici (about 25 ms), and its process lives on about 70 ms after the answer.
// An answer that fetch would treat differently (a redirect to follow, a compressed body), or a request
// it would build differently (credentials in the URL, a header node:http refuses), is not handled here:
// the caller asks ofetch instead. (fetch also refuses the Fetch standard's "bad ports", such as 6000;
// node:http does not, so reads reach a server there, as src/base/post-json.ts's postbacks do.)
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
