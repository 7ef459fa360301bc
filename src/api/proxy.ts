// What `pinvoice proxy` answers by itself, in place of the gateway's answer (contract, "Production
// through a proxy"): a write it refuses, and a gateway it could not reach. Every other answer is the
// gateway's, passed through as it came.
import { z } from 'zod';

export const PROXY_ERROR_CODES = ['proxy_write_refused', 'proxy_amount_refused', 'proxy_body_too_large', 'gateway_unreachable', 'gateway_timeout',
  // --forward (connect.ts): a CONNECT without --forward, a malformed one, a tunnel that could not open, plain HTTP to another host, a certificate not made
  'proxy_forward_off', 'proxy_bad_connect', 'tunnel_unreachable', 'proxy_host_refused', 'proxy_forward_failed'] as const;
export type ProxyErrorCode = (typeof PROXY_ERROR_CODES)[number];

export const ProxyError = z.object({
  error: z.enum(PROXY_ERROR_CODES),
  message: z.string(),
});

/** The header naming the journal entry of an exchange, on every answer the proxy gives. */
export const ENTRY_HEADER = 'Pinvoice-Proxy-Entry';
/** The prefix of the proxy's own API: never forwarded. */
export const OWN_PREFIX = '/_pinvoice';
/** The methods that pass without --allow-writes. */
export const READ_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];
