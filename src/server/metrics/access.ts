// Who may read /metrics: the holder of its own token (`serve --metrics-token-file`, or
// PINVOICE_METRICS_TOKEN), compared in constant time; without one, loopback clients only, and not
// through a proxy (a proxy on the same machine would make every client loopback). A company's API
// token never opens it.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

export const METRICS_PATH = '/metrics';

export interface MetricsAccess {
  /** the token /metrics asks for as `Authorization: Bearer`; absent: loopback clients only */
  token?: string;
}

/** 127.0.0.0/8, ::1, and IPv4 loopback mapped into IPv6. */
export const isLoopback = (address: string | undefined): boolean =>
  address !== undefined && (address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address));

const digest = (text: string) => createHash('sha256').update(text).digest();

const HOW = 'give serve a token of its own for it (--metrics-token-file FILE, or PINVOICE_METRICS_TOKEN), sent as Authorization: Bearer';

/** The refusal of a request to /metrics, or undefined when it may read it. */
export function metricsGuard(access: MetricsAccess): (request: FastifyRequest) => ApiError | undefined {
  if (access.token === undefined) {
    return (request) => {
      const proxied = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
      if (isLoopback(request.socket.remoteAddress) && !proxied) return undefined;
      return new ApiError(403, 'forbidden', `/metrics answers only clients on this machine (loopback, not through a proxy) while it has no token: ${HOW}.`);
    };
  }
  const expected = digest(access.token);
  return (request) => {
    const given = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '')?.[1];
    // (digests: equal lengths for timingSafeEqual, and nothing learned from a token's length)
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return undefined;
    return new ApiError(401, 'unauthorized', `/metrics needs its own token as Authorization: Bearer (the one serve was given with --metrics-token-file or PINVOICE_METRICS_TOKEN; a company's API token does not open it).`, undefined, {
      'WWW-Authenticate': given === undefined ? 'Bearer realm="pinvoice-metrics"' : 'Bearer realm="pinvoice-metrics", error="invalid_token"',
    });
  };
}
