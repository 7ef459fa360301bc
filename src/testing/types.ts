// The public types of `pinvoice/testing`, written out by hand: what a merchant's test suite sees in its
// editor, and what the package's declaration files promise. Records are the API's own (src/api).
import type { IncomingHttpHeaders } from 'node:http';
import type { Difference, JournalEntry, NearMiss, Problem, RequestPattern as ApiRequestPattern } from '../api/journal.js';
import type { EventType, PostbackBody } from '../api/postbacks.js';
import type { ChaosRequest, ChaosRule, SandboxClock } from '../api/sandbox.js';
import type { CreateInvoiceRequest, CreateInvoiceResponse, Enterprise, RefundRequest, ThreeDSRequest, Transaction } from '../api/schemas.js';

export type {
  ChaosRequest, ChaosRule, CreateInvoiceRequest, Difference, Enterprise, EventType, JournalEntry, NearMiss, PostbackBody, Problem, RefundRequest,
  SandboxClock, ThreeDSRequest, Transaction,
};

/** Where a sandbox keeps its data: 'sqlite', 'memory', or a postgres:// URL (any string, so that an environment variable fits; checked at start). */
export type Engine = 'sqlite' | 'memory' | (string & {});

/**
 * A fixtures document, given as one of:
 * - an object: the parsed document;
 * - a string whose first character other than white space is `{`: the document's JSON text;
 * - a string with a scheme (`file:///…`), or a URL: a file: URL naming its file (other schemes are refused);
 * - any other string: the path of its file, relative to process.cwd() (`'./{name}.json'` for a name that starts with `{`).
 * A file is read once, at start; reset() loads what was read then. `new URL('./fixtures.json', import.meta.url)` names a file beside the test.
 */
export type SandboxFixtures = object | string | URL;

export interface SandboxOptions {
  /**
   * 'sqlite' (default): a database file in a new temporary folder, removed by close(); 'memory': SQLite's
   * `:memory:`; a PostgreSQL URL: that database, which the sandbox owns (its charges are cleared at start).
   */
  engine?: Engine;
  /** ids, tokens and codes drawn from this seed, the clock standing still (at 2026-01-01T12:00:00Z unless `clock` says): runs repeat */
  seed?: number | string;
  /**
   * Companies and charges loaded at start and again by reset(), as `pinvoice serve --fixtures` loads them
   * (schemas/fixtures.schema.json): the document's parsed JSON, its JSON text, its file's path or a file: URL (see SandboxFixtures).
   */
  fixtures?: SandboxFixtures;
  /**
   * host[:port] the pix codes' locations name, as `pinvoice serve --public-host`: `'pix.example.com'` gives production-shaped
   * codes (`pix.example.com/qr/v2/<txid>`, no port) instead of `127.0.0.1:<port>/qr/v2/<txid>`. The sandbox still listens on 127.0.0.1.
   */
  publicHost?: string;
  /**
   * Names besides its own (loopback and `publicHost`) that the sandbox's pages (the dashboard, the checkout page) and
   * sign-in links answer at, as `pinvoice serve --allowed-host`: a browser that reaches the sandbox by another name
   * (a host-resolver rule, a container's name). `'.example.test'` allows that domain and the names under it. Any other Host is refused 403; the API answers any.
   */
  allowedHosts?: readonly string[];
  /** the server's clock: an instant, where it stands still (moved by sandbox.clock), or a function read at every use */
  clock?: string | Date | (() => Date);
  /** deliveries of one postback, the first included (default 4: one and 3 retries) */
  postbackAttempts?: number;
  /** journal entries kept, the oldest dropped first (`serve --journal N`; default 10,000; 0: off, and sandbox.requests refuses) */
  journal?: number;
}

/** What Create Invoices answers under `data`: the record, with `invoice_id` (the secureId) and `qr_code_pix`. */
export type CreatedInvoice = CreateInvoiceResponse['data'];

export interface WriteOptions {
  /** the Idempotency-Key header (default: a new one each call) */
  idempotencyKey?: string;
}

/** The API as the sandbox's company, typed with the API's records; an error status throws ApiRequestError. */
export interface SandboxApi {
  createInvoice(body: CreateInvoiceRequest, options?: WriteOptions): Promise<CreatedInvoice>;
  /** by the integer id or the secureId (INV-…) */
  getInvoice(ref: string | number): Promise<Transaction>;
  refund(ref: string | number, body?: RefundRequest, options?: WriteOptions): Promise<Transaction>;
  activate3ds(ref: string | number, body: ThreeDSRequest, options?: WriteOptions): Promise<Transaction>;
  company(): Promise<Enterprise>;
}

/** One postback as the receiver got it. */
export interface Delivery {
  event: EventType;
  body: PostbackBody;
  /** the body as sent, byte for byte (what a signature is computed over) */
  raw: string;
  headers: IncomingHttpHeaders;
  /** both signature headers match the company's keys (`pinvoice webhooks verify`'s check, no age limit) */
  verified: boolean;
}

export interface NextOptions {
  event?: EventType;
  /** the charge's integer id or secureId */
  invoice?: string | number;
  /** ms to wait before failing with WebhookTimeoutError (default 4000) */
  timeout?: number;
}

export interface WebhookReceiver {
  /** give it as the charge's postback_url */
  url: string;
  /** every delivery so far, in order of arrival */
  received: Delivery[];
  /** the first delivery that matches and no earlier next() returned, waiting for it if none has come yet */
  next(options?: NextOptions): Promise<Delivery>;
  close(): Promise<void>;
}

export interface ClockControl {
  /** moves the company's clock forward: '90s', '45m', '2h', '3d', '1w', '1h30m', or seconds */
  advance(by: string | number): Promise<SandboxClock>;
  /** moves it forward to this instant (never back) */
  set(at: string | Date): Promise<SandboxClock>;
  /** back to the server's own time */
  reset(): Promise<SandboxClock>;
}

export interface ChaosControl {
  /** replaces the faults injected into postbacks (members left out are off) */
  set(rule: ChaosRequest): Promise<ChaosRule>;
  clear(): Promise<ChaosRule>;
}

/**
 * What sandbox.requests looks for in the journal; every member given must match:
 * `method` (any case), `path` (exact, or with `*` standing for any run of characters),
 * `query` (these parameters with these values), `body` (a subset: objects by member, arrays by position),
 * `status` (`422`, or a class: `'4xx'`), `direction` (`'in'`: requests; `'out'`: postback attempts; `'tunnel'`: a proxy's CONNECTs to other hosts, --forward),
 * `invoice_id` (a charge it touched: integer id or secureId).
 * Bodies are kept redacted: a card number as its first 6 and last 4 digits, so a body pattern compares
 * `card: { number: '411111******1111' }`; a security code is not kept at all.
 */
export type RequestPattern = ApiRequestPattern;

export interface RequestWaitOptions {
  /** ms to wait before failing with RequestNotFoundError (default 4000: less than the 5 s test timeout of vitest and jest) */
  timeout?: number;
}

/**
 * The sandbox's journal (the inspector): every request made with its token, the sandbox's own client
 * included, and every postback attempt, oldest first, redacted. Entries are written within 100 ms.
 */
export interface SandboxRequests<Entry extends JournalEntry = JournalEntry> {
  /** the entries that match, oldest first (the newest 500 when more do) */
  find(pattern: RequestPattern): Promise<Entry[]>;
  count(pattern: RequestPattern): Promise<number>;
  /**
   * The first entry that matches, in the journal already or the first to arrive; after `timeout` ms,
   * rejects with RequestNotFoundError naming the closest entries field by field and what was dropped.
   */
  wait(pattern: RequestPattern, options?: RequestWaitOptions): Promise<Entry>;
  /** every entry of the window, oldest first */
  all(): Promise<Entry[]>;
  /** empties the journal (reset() does too) and zeroes its count of dropped entries */
  clear(): Promise<void>;
}

export interface Sandbox {
  /** the API's base URL (http://127.0.0.1:<port>) */
  url: string;
  /** the bearer token of the sandbox's company */
  token: string;
  /** what the company's postbacks are signed with */
  webhookSecret: string;
  api: SandboxApi;
  /** the sandbox drivers: what the payer, the bank or the card network would do */
  pay(ref: string | number): Promise<Transaction>;
  expire(ref: string | number): Promise<Transaction>;
  cancel(ref: string | number): Promise<Transaction>;
  chargeback(ref: string | number): Promise<Transaction>;
  clock: ClockControl;
  chaos: ChaosControl;
  /** what the sandbox received and sent: find, count, wait for requests, as your code made them */
  requests: SandboxRequests;
  /** a postback receiver on a free loopback port, closed with the sandbox */
  webhooks(): Promise<WebhookReceiver>;
  /** no charges (but the fixtures' again), an empty journal, clock and chaos off; same url, token and secret */
  reset(): Promise<void>;
  /** stops the server and the receivers, and removes the temporary folder */
  close(): Promise<void>;
}

export type StartSandbox = (options?: SandboxOptions) => Promise<Sandbox>;
