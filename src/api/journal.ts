// The inspector's records (contract, "The inspector"): what `pinvoice serve` received with a company's
// token and every postback attempt it made, as journal entries, redacted before they are kept; the
// patterns a test looks for them with, and what a miss is explained by. `pinvoice serve` only.
import { z } from 'zod';

export const DIRECTIONS = ['in', 'out', 'tunnel'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** The longest a list or find waits for a match (`wait=<s>`). */
export const MAX_WAIT_SECONDS = 30;
/** Bodies (and answers) above this many bytes of JSON are kept cut, marked. */
export const BODY_CAP_BYTES = 64 * 1024;
/** Server-Sent Events subscribers per company, at once. */
export const MAX_SUBSCRIBERS = 8;
/** How many near misses a find that matched nothing answers. */
export const NEAR_MISSES = 3;

const timestamp = () => z.string().describe('ISO 8601 UTC, milliseconds, trailing Z');

export const Problem = z.object({
  path: z.string().describe('a JSON pointer into the request body (`/payer/cpf_cnpj`, `` for the body itself), or `query.<name>` for a query parameter'),
  message: z.string(),
});

export const JournalEntry = z.object({
  id: z.int().describe("the cursor: the company's own count of its entries (1, 2, 3…), increasing, one journal for every node of a team"),
  at: timestamp().describe('when it was received (in) or sent (out), real time'),
  sandbox_at: timestamp().describe("the company's sandbox clock as the answer was made (out: as the attempt was sent): the time the records it wrote carry"),
  direction: z.enum(DIRECTIONS).describe('in: a request to the API; out: a postback attempt; tunnel: pinvoice proxy --forward only, a CONNECT to another host than the gateway\'s, tunnelled untouched (host and port only, never its bytes)'),
  method: z.string(),
  path: z.string().describe('in: the path asked for, without the query; out: the path of the postback URL'),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).describe('the query parameters as sent'),
  headers: z.record(z.string(), z.string()).describe('allow-listed headers (lower case); a bearer token shows as its hint'),
  body: z.unknown().describe('the JSON body sent, redacted (card number: first 6 and last 4; security code removed); a body above 64 KiB is its first 64 KiB as text, ending with the mark "…[cut: N bytes]"; null: none'),
  status: z.int().nullable().describe('the answer\'s HTTP status; out: the receiver\'s, null when none came (see error)'),
  response_body: z.unknown().describe('the answer (in: ours; out: the receiver\'s, as text), capped as body is'),
  duration_ms: z.number(),
  token_name: z.string().nullable().describe('in: the name of the token the request came with; out: null'),
  token_hint: z.string().nullable().describe('in: enough of that token to recognise it, never enough to use it'),
  idempotency_key: z.string().nullable(),
  replayed: z.boolean().describe('the answer was the one remembered for the Idempotency-Key (Idempotent-Replayed)'),
  problems: z.array(Problem).describe("a 4xx's validation problems, each pointing at the member of the request at fault"),
  invoice_ids: z.array(z.int()).describe('the charges it created, read or changed'),
  event_id: z.string().nullable().describe('out: the postback event (evt_…)'),
  event: z.string().nullable().describe('out: the event type (invoice.paid, …)'),
  attempt: z.int().nullable().describe('out: which delivery attempt of the event this was (1 first)'),
  url: z.string().nullable().describe('out: where the postback was sent'),
  signature_headers: z.array(z.string()).describe('out: the names of the signature headers sent (never their values)'),
  error: z.string().nullable().describe("out: why no answer came (connection refused, timeout) or why it was not a 2xx; in: the answer's error code"),
});

export const JournalPage = z.object({
  data: z.array(JournalEntry).describe('oldest first'),
  next_cursor: z.int().describe('give it as `after` to continue (the last entry\'s id, or the one given when nothing came)'),
  dropped: z.int().describe('entries dropped from the window (oldest first, beyond `serve --journal N`) since the journal was last cleared: an entry looked for may be among them'),
});

const Status = z.union([z.int().min(100).max(599), z.string().regex(/^[1-5]xx$/, 'must be a status (201) or a class (4xx)')], { error: 'must be a status such as 422, or a class such as "4xx"' });

export const RequestPattern = z.object({
  method: z.string().trim().min(1).max(10).optional().describe('GET, POST, … (any case)'),
  path: z.string().min(1).max(2048).optional().describe('the path, exactly, or with `*` standing for any run of characters (`/api/v2/invoices/*/refund`)'),
  query: z.record(z.string(), z.string()).optional().describe('query parameters that must be there with these values; others may be too'),
  body: z.unknown().optional().describe('matches when every member given is equal in the entry\'s body (objects by member, arrays by position); compare a card number as kept (first 6 and last 4)'),
  status: Status.optional(),
  direction: z.enum(DIRECTIONS, { error: 'must be "in", "out" or "tunnel"' }).optional(),
  invoice_id: z.union([z.int().min(1), z.string().min(1).max(64)]).optional().describe('a charge it touched: integer id or secureId'),
}).strict();

export const Difference = z.object({
  path: z.string().describe('a JSON pointer into the body (`/payer/cpf_cnpj`), or the member of the pattern (`method`, `path`, `status`, `direction`, `query.<name>`, `invoice_id`)'),
  expected: z.unknown(),
  received: z.unknown().optional().describe('what the entry had; absent when it had nothing there'),
});

export const NearMiss = z.object({
  entry: JournalEntry,
  differences: z.array(Difference),
  problems: z.array(Problem).describe("the entry's own validation problems, when it was refused"),
});

export const FindAnswer = z.object({
  data: z.array(JournalEntry).describe('the entries that match, oldest first: the oldest 500 when more do'),
  matched: z.int().describe('how many entries of the window match'),
  near_misses: z.array(NearMiss).describe('only when data is empty: up to 3 entries closest to the pattern, closest first'),
  dropped: z.int(),
});

export const JournalCleared = z.object({ cleared: z.int().describe('how many entries were removed') });

export type JournalEntry = z.infer<typeof JournalEntry>;
export type JournalPage = z.infer<typeof JournalPage>;
export type RequestPattern = z.infer<typeof RequestPattern>;
export type Difference = z.infer<typeof Difference>;
export type NearMiss = z.infer<typeof NearMiss>;
export type FindAnswer = z.infer<typeof FindAnswer>;
export type Problem = z.infer<typeof Problem>;
