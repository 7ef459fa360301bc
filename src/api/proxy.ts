// What `pinvoice proxy` answers by itself, in place of the gateway's answer (contract, "Production
// through a proxy"): a write it refuses, and a gateway it could not reach. Every other answer is the
// gateway's, passed through as it came. And a recording's lines (`--record`), which `--replay` answers
// from, with its own answer to a request the recording does not hold.
import { z } from 'zod';
import { Difference, NEAR_MISSES } from './journal.js';

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

const Query = z.record(z.string(), z.union([z.string(), z.array(z.string())]), { error: 'must be an object of names to a string or a list of strings' });
const Headers = z.record(z.string(), z.union([z.string(), z.array(z.string())]), { error: 'must be an object of lower-case names to a string or a list of strings' });
const Body = z.string({ error: 'must be a string (the body as text) or null' }).nullable();

/** One line of a recording (`pinvoice proxy --record FILE`): an exchange, redacted, in the journal's id order. */
export const RecordingLine = z.object({
  at: z.string({ error: 'must be a string (an ISO 8601 time)' }),
  entry: z.int({ error: 'must be a whole number (the journal entry)' }).optional(),
  request: z.object({
    method: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
    path: z.string({ error: 'must be a string' }).startsWith('/', { error: 'must start with /' }),
    query: Query,
    headers: Headers,
    body: Body,
  }, { error: 'must be an object {method, path, query, headers, body}' }),
  answer: z.object({
    status: z.int({ error: 'must be a whole number (an HTTP status)' }).min(100, { error: 'must be an HTTP status' }).max(599, { error: 'must be an HTTP status' }),
    headers: Headers,
    body: Body,
  }, { error: 'must be an object {status, headers, body}' }),
}, { error: 'must be a JSON object {at, request, answer}' });
export type RecordingLine = z.infer<typeof RecordingLine>;

/** What `--replay` answers a request its recording does not hold: the recorded exchanges closest to it. */
export const NotRecorded = z.object({
  error: z.literal('not_recorded'),
  message: z.string(),
  near_misses: z.array(z.object({
    request: z.object({ method: z.string(), path: z.string(), query: Query, body: z.unknown().describe('the JSON body recorded, or its text when it is not JSON; null: none') }),
    entry: z.int().nullable().describe('the journal entry the exchange was recorded from'),
    line: z.int().describe('its line in the recording'),
    differences: z.array(Difference).describe('`expected`: the recording\'s; `received`: the request\'s (absent where it has nothing)'),
  })).max(NEAR_MISSES).describe('up to 3, closest first'),
}).strict();
export type NotRecorded = z.infer<typeof NotRecorded>;

/** Where the proxy's dashboard lives (its journal in a browser; src/proxy/dashboard.ts). */
export const DASHBOARD_PATH = `${OWN_PREFIX}/dashboard`;
