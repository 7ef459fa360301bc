// One GET over https, as a payer's bank makes it: only https, the trusted roots given, no redirect
// followed (a location answers its charge or fails), a deadline for the whole exchange, a bounded body.
import { request } from 'node:https';
import { spokenDuration } from '../../base/spoken-duration.js';

export interface Fetched {
  status: number;
  statusText: string;
  contentType: string | undefined;
  body: string;
}

/** The location could not be asked or gave no answer (exit 13); the message names why, in the payer's terms. */
export class UnreachableError extends Error {}

/** A location's JWS or a JWKS is a few kilobytes; anything past this is not one. */
const MAX_BYTES = 1 << 20;

function tlsProblem(code: string | undefined, origin: string): string | undefined {
  const trust = 'trust a private CA with --ca FILE (or NODE_EXTRA_CA_CERTS)';
  switch (code) {
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return `cannot trust ${origin}: its TLS certificate is self-signed; ${trust}`;
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return `cannot trust ${origin}: its TLS certificate is signed by a certificate authority not trusted here; ${trust}`;
    case 'CERT_HAS_EXPIRED':
      return `cannot trust ${origin}: its TLS certificate has expired`;
    case 'CERT_NOT_YET_VALID':
      return `cannot trust ${origin}: its TLS certificate is not valid yet (is this machine's clock right?)`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `cannot trust ${origin}: its TLS certificate is for another host`;
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return `cannot talk TLS with ${origin} (does it serve plain http?)`;
    default:
      return undefined;
  }
}

function unreachable(error: unknown, origin: string, timeoutMs: number): UnreachableError {
  const { code, name, message } = error as { code?: string; name?: string; message?: string };
  if (name === 'AbortError' || name === 'TimeoutError' || code === 'ABORT_ERR') return new UnreachableError(`no answer from ${origin} within ${spokenDuration(timeoutMs)} (--timeout)`);
  if (code === 'ECONNREFUSED') return new UnreachableError(`cannot connect to ${origin} (connection refused)`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new UnreachableError(`cannot resolve the host of ${origin}`);
  if (code === 'ECONNRESET') return new UnreachableError(`the connection to ${origin} was closed before an answer`);
  return new UnreachableError(tlsProblem(code, origin) ?? `cannot reach ${origin} (${code ?? message ?? 'network error'})`);
}

export function httpsGet(url: URL, options: { ca: string[]; timeoutMs: number; accept: string; userAgent: string }): Promise<Fetched> {
  if (url.protocol !== 'https:') return Promise.reject(new UnreachableError(`${url.href} is not https: a payer's bank fetches only https`));
  const signal = AbortSignal.timeout(options.timeoutMs);
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => reject(error instanceof UnreachableError ? error : unreachable(error, url.origin, options.timeoutMs));
    const req = request(url, { method: 'GET', ca: options.ca, signal, headers: { accept: options.accept, 'user-agent': options.userAgent } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BYTES) {
          req.destroy();
          fail(new UnreachableError(`${url.origin} answered more than ${MAX_BYTES} bytes: not a pix location's answer`));
        } else chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('end', () => resolve({
        status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', contentType: res.headers['content-type'], body: Buffer.concat(chunks).toString('utf8'),
      }));
    });
    req.on('error', fail);
    req.end();
  });
}
