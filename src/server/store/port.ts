// The store's port: what the server's operations may ask of storage, in decoded records, engine-neutral.
// An engine (SQLite today, PostgreSQL next) implements it below this line; nothing above it knows
// which engine answers: no SQL, no JSON text, no 0/1 booleans, no engine locks.
//
// Two doors:
// - the store's own repositories read, and never take a write lock: each call is one consistent read;
// - `transaction(fn)` hands fn repositories that also write; all of fn's writes commit together or
//   none do. Writes exist only inside a transaction.
import type { Changed } from './changes.js';
import type { Position } from '../../api/cursor.js';
import type { ListFilter } from '../../api/invoice-query.js';
import type { Card, Fee, FinancialMovement, Payer, ResponseItem } from '../../api/schemas.js';
import type { EventType } from '../../api/postbacks.js';
import type { PixLocationFault } from '../../api/sandbox.js';
import type { Direction } from '../../api/journal.js';
import type { FeeSchedule } from '../../domain/fees.js';
import type { Method, Status } from '../../domain/status.js';
import type { StoreCounts, StoreHealth } from './faults.js';

export type FeeSchedules = Record<Method, FeeSchedule>;

export const BLOCK_FLAGS = ['bank_slip', 'card', 'pix', 'processing', 'sake', 'system'] as const;
export type BlockFlag = (typeof BLOCK_FLAGS)[number];

export interface CompanyProfile {
  cnpj: string;
  company_type: string;
  corporate_reason: string;
  fantasy_name: string;
  url_website: string;
  address: string;
  address_city: string;
  address_number: string;
  address_postal_code: string;
  address_province: string;
  address_state: string;
  bank_account: string;
  bank_agency: string;
  bank_digit: string;
  bank_name: string;
  bank_type: string;
}

/** Postback faults the sandbox injects for a company, or for one of its charges. */
export interface ChaosSettings {
  duplicate: boolean;
  delay_ms: number;
  reorder: boolean;
  drop_first: number;
  bad_signature: boolean;
  /** what the pix code's location does wrong (absent in rules stored before it existed: none) */
  pix_location?: PixLocationFault | null;
  /** the one charge the faults are narrowed to; null: every charge of the company */
  invoice: { id: number; secure_id: string } | null;
}

export interface Company extends CompanyProfile {
  id: number;
  fees: FeeSchedules;
  blocked: Partial<Record<BlockFlag, boolean>>;
  is_custom: boolean;
  webhook_secret: string;
  created_at: string;
  updated_at: string;
  /** the sandbox clock: how far ahead of real time this company's time runs (0: real time; never negative) */
  clock_offset_ms: number;
  chaos: ChaosSettings | null;
  /**
   * The API token whose copy keys X-Webhook-Signature instead of the webhook secret (null: the secret
   * does). Only its id: the copy is read by the dispatcher alone (`signingToken`), never with the record.
   */
  signing_token_id: number | null;
}

/** The token a company's postbacks are signed with, as setSigningToken takes it. */
export interface SigningToken {
  tokenId: number;
  /** the token itself: kept as given, the only token the store keeps in a form it can sign with */
  token: string;
}

/** A company's balances and paid totals, kept by the store in the transaction of each movement and payment. */
export interface CompanyTotals {
  balance_pix: number;
  balance_card: number;
  balance_bank_slip: number;
  /** gross amount of every charge ever paid */
  paid_total: number;
  /** gross amount of the charges paid in the month asked for */
  paid_month: number;
}

export type BalanceName = 'balance_pix' | 'balance_card' | 'balance_bank_slip';

export interface BoletoData {
  barcode: string;
  digitableLine: string;
  dueDate: string;
  expiresAt: string;
}

export interface Invoice {
  id: number;
  company_id: number;
  secure_id: string;
  token_checkout: string;
  customer_id: number;
  method: Method;
  status: Status;
  amount: number;
  installments: number;
  refunded_amount: number;
  refused_reason: string | null;
  postback_url: string;
  ip: string | null;
  payer: Payer;
  items: ResponseItem[];
  fee: Fee;
  pix_code: string | null;
  pix_txid: string | null;
  boleto: BoletoData | null;
  card: Card | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  external_ref: string | null;
  metadata: Record<string, string> | null;
  /**
   * A production record loaded by `serve --fixtures` (its `records`), as its JSON text: lookups answer
   * it as it is, unknown members and statuses kept, and no action applies to it. Absent or null: a
   * charge of serve's own.
   */
  production_record?: string | null;
}

export interface Customer { id: number; created_at: string; updated_at: string }
export interface TimelineEntry {
  id: number;
  status: Status;
  note: string;
  at: string;
  /** the name of the token that made the change; null for what the server did by itself (expiry) */
  by: string | null;
}

/** An access token as the store keeps it: never the token itself. */
export interface ApiToken {
  id: number;
  company_id: number;
  name: string;
  /** may look up, list events and open the checkout view; nothing that changes anything */
  read_only: boolean;
  /** enough of the token to recognise it, never enough to use it */
  hint: string;
  created_at: string;
  revoked_at: string | null;
}

/** Who a request is: the company, and the token it came with. */
export interface Access {
  company: Company;
  token: Pick<ApiToken, 'id' | 'name' | 'read_only'>;
}

export interface NewToken {
  /** unique within the company; default `token-<id>` */
  name?: string;
  readOnly?: boolean;
}
export interface Refund { id: number; amount: number; reason: string | null; created_at: string }
export interface Movement { id: number; type: FinancialMovement['type']; amount: number; balance: BalanceName; description: string; created_at: string }

/** Everything a charge's record is built from, read together: a fixed number of indexed lookups. */
export interface InvoiceAggregate {
  invoice: Invoice;
  customer: Customer;
  timeline: TimelineEntry[];
  refunds: Refund[];
  movements: Movement[];
  totals: CompanyTotals;
}

/**
 * What a postback body held at the change it tells, in a few numbers: the charge's fields that change,
 * how far its append-only lists went, and the company's totals. The body is rebuilt from it.
 */
export interface EventSnapshot {
  status: Status;
  updated_at: string;
  paid_at: string | null;
  refunded_amount: number;
  refused_reason: string | null;
  /** the card as it was (3-D Secure changes it); absent for other methods */
  card?: Card | null;
  /** the last timeline, refund and movement ids the charge had */
  upto: { timeline: number; refunds: number; movements: number };
  /** the payer's customer record is touched by each of their charges */
  customer_updated_at: string;
  totals: Omit<CompanyTotals, 'paid_month'> & { paid_month: number };
}

/** pending: to be sent (again); delivered: a 2xx came back; failed: retries used up; no_url: nowhere to send */
export type EventState = 'pending' | 'delivered' | 'failed' | 'no_url';

export interface PostbackEvent {
  id: number;
  public_id: string;
  company_id: number;
  invoice_id: number;
  type: EventType;
  url: string;
  /** the body as recorded by versions before schema 5, decoded; new events keep a snapshot instead */
  body: unknown;
  snapshot: EventSnapshot | null;
  created_at: string;
  state: EventState;
  tries: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
}

export interface DeliveryAttempt {
  id: number;
  event_id: number;
  url: string;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  /** the faults sandbox chaos put into this attempt (`duplicate`, `delay_ms=2000`, …); null: none */
  injected: string[] | null;
}

export interface StoredAnswer {
  request_hash: string;
  status_code: number;
  response: unknown;
  created_at: string;
}

export type NewInvoice = Invoice;
export type NewEvent = Omit<PostbackEvent, 'id' | 'tries' | 'delivered_at' | 'body'>;
export type NewAttempt = Omit<DeliveryAttempt, 'id'>;
export type NewMovement = Omit<Movement, 'id'> & { company_id: number; invoice_id: number };

/** A compare-and-set: the status changes only if it is still `from`. */
export interface StatusChange {
  id: number;
  from: Status;
  to: Status;
  at: string;
  paid_at?: string | null;
  refused_reason?: string | null;
  card?: Card | null;
}

export interface AttemptOutcome {
  state: EventState;
  next_attempt_at: string | null;
  delivered_at: string | null;
}

export interface CompanyReads {
  /** the company a token opens and the token's own record, or undefined (unknown or revoked) */
  authenticate(token: string): Promise<Access | undefined>;
  /** the tokens of one company, or of all, oldest first */
  tokens(companyId?: number): Promise<ApiToken[]>;
  get(id: number): Promise<Company | undefined>;
  list(): Promise<(Company & { tokens: number })[]>;
  hasToken(token: string): Promise<boolean>;
  /** `month` is "YYYY-MM" (UTC) */
  totals(companyId: number, month: string): Promise<CompanyTotals>;
  /** the companies whose sandbox clock runs ahead of real time */
  aheadClocks(): Promise<{ id: number; clock_offset_ms: number }[]>;
  /** the copy of the token that keys the company's X-Webhook-Signature, or undefined when its secret does */
  signingToken(companyId: number): Promise<string | undefined>;
}

/**
 * Which charges of a company a page holds: the listing's filters, and the keys a charge is found by
 * (its checkout token, its pix txid, its boleto barcode). Every member given narrows it (AND).
 */
export interface InvoiceFilter extends ListFilter {
  token_checkout?: string;
  pix_txid?: string;
  boleto_barcode?: string;
}

export interface InvoicePageRequest {
  filter: InvoiceFilter;
  /** the page starts after this charge, in the listing's order; null: from the newest */
  after: Position | null;
  limit: number;
}

export interface InvoiceReads {
  /** By integer id or secureId, within one company only. */
  find(companyId: number, ref: string): Promise<Invoice | undefined>;
  /** The charge and everything its record shows, in one consistent read; `month` as for totals. */
  aggregate(companyId: number, ref: string, month: string): Promise<InvoiceAggregate | undefined>;
  /**
   * Up to `limit` charges of the company that match, newest first (created_at, then id, descending),
   * each with everything its record shows, in one consistent read; `month` as for totals. Selective
   * filters go by an index; a page costs the same however deep it starts.
   */
  list(companyId: number, page: InvoicePageRequest, month: string): Promise<InvoiceAggregate[]>;
  byCheckoutToken(token: string): Promise<Invoice | undefined>;
  /** The pix charge whose code's location ends in this txid, whichever its company (a payer's bank knows none). */
  byPixTxid(txid: string): Promise<Invoice | undefined>;
  /**
   * Pending charges whose time is up, oldest first (expires_at, then id), after `after` when given; of
   * one company only when `companyId` is given. Only expiries in the store's time form are compared
   * (rows.ts, isTimeText): one written past year 9999 by an older build is never due.
   */
  dueForExpiry(now: string, limit: number, companyId?: number, after?: DueCursor): Promise<Invoice[]>;
  /** Up to `limit` pending charges whose expiry is not in the store's time form (an older build's year past 9999). */
  unsortableExpiries(limit: number): Promise<Invoice[]>;
}

/** Where a sweep of due charges stands: the last charge it was given. */
export interface DueCursor {
  expires_at: string;
  id: number;
}

export interface EventReads {
  forInvoice(invoiceId: number): Promise<PostbackEvent[]>;
  find(companyId: number, publicId: string): Promise<PostbackEvent | undefined>;
  get(id: number): Promise<PostbackEvent | undefined>;
  attempts(eventId: number): Promise<DeliveryAttempt[]>;
  /** when the next unclaimed pending event is due, or null when none is */
  nextDueAt(now: string): Promise<string | null>;
  /** how many pending events are due at `now` (the postbacks' backlog: claimed ones, in flight, included) */
  dueCount(now: string): Promise<number>;
}

/**
 * A journal entry as the store keeps it (the inspector, src/server/journal): the columns it is found by,
 * and the rest as JSON text, already redacted and capped. `request_body` and `response_body` are the
 * texts as sent (JSON most often), kept as they came: nothing is parsed on the way in.
 */
export interface NewJournalEntry {
  company_id: number;
  /** when, real time, in ms since the epoch (shown as ISO 8601: formatting is left to the reads) */
  at: number;
  /** the same instant on the company's sandbox clock, in ms */
  sandbox_at: number;
  direction: Direction;
  method: string;
  path: string;
  status: number | null;
  /** the first charge it touched (filters go by it); all of them are in `detail` */
  invoice_id: number | null;
  /** how long the answer took (a postback: the receiver's), in ms to the hundredth */
  duration_ms: number;
  request_body: string | null;
  /** (a Buffer: the UTF-8 bytes of the JSON text as answered, handed over without decoding them) */
  response_body: string | Buffer | null;
  /**
   * the entry's other members, JSON text: only those that differ from an entry's defaults (journal/capture.ts);
   * what is the same for every request of one client (its headers, its token) is the same text
   */
  detail: string;
  /**
   * more members of `detail` that many entries share, as JSON members text (`"findings":[…]`, a
   * proxy's findings of a polled record): kept once by a store that can (SQLite names it by ref, as
   * it does a shared answer), written into the detail by one that cannot; a read gives them inside
   * `detail` (entryDetail). The same Buffer for the same members: the store keeps one per Buffer.
   */
  detail_shared?: Buffer;
}

export interface JournalRow extends Omit<NewJournalEntry, 'detail_shared'> {
  id: number;
}

/** An entry's whole detail: its own members and those it shares (NewJournalEntry.detail_shared), one JSON object. */
export function entryDetail(detail: string, shared: string | Buffer | null | undefined): string {
  if (shared === null || shared === undefined) return detail;
  const own = detail.trimEnd();
  const members = own.slice(0, -1).trimEnd();
  return `${members}${members.endsWith('{') ? '' : ','}${shared.toString()}}`;
}

/** Which entries of a company a list asks for; every member given narrows it (AND). */
export interface JournalFilter {
  direction?: Direction;
  /** upper case */
  method?: string;
  /** the path exactly, or with `*` for any run of characters */
  path?: string;
  /** an inclusive range: one status (422, 422) or a class (400, 499) */
  status?: [number, number];
  invoiceId?: number;
}

/** How a company's journal stands: entries dropped from its window since its last clear, and the last of them. */
export interface JournalState {
  dropped: number;
  /** the id of the newest entry dropped (0: none); an entry at or below it may have been one */
  dropped_upto: number;
}

export interface JournalReads {
  /** entries after `after`, oldest first, up to `limit` */
  list(companyId: number, filter: JournalFilter, after: number, limit: number): Promise<JournalRow[]>;
  get(companyId: number, id: number): Promise<JournalRow | undefined>;
  state(companyId: number): Promise<JournalState>;
  /** the newest entry's id of the company (0: none) */
  last(companyId: number): Promise<number>;
  /** entries dropped from every company's window (JournalState.dropped, summed) */
  dropped(): Promise<number>;
}

/**
 * The journal's own door, beside the charges' transactions and never inside one: its batches commit by
 * themselves (SQLite: in a file of their own, written off the main thread), so a journal that fails or
 * lags never holds up or rolls back a charge.
 */
export interface JournalStore extends JournalReads {
  /**
   * Appends the entries in order (each gets the next id: ids only grow, across companies and nodes),
   * then drops each company's oldest beyond `keep`, counting them; `lost` adds entries that never
   * reached the store (a full buffer while it was away) to a company's count. Given `maxBytes`, the
   * journal's room is bounded too (`serve --journal-max-bytes`): beyond it, the oldest entries of the
   * company that keeps the most are dropped, counted the same way, until it fits again.
   */
  append(entries: NewJournalEntry[], keep: number, lost?: ReadonlyMap<number, number>, maxBytes?: number): Promise<void>;
  /** removes the company's entries and zeroes its count of dropped ones; answers how many were removed */
  clear(companyId: number): Promise<number>;
  /** what opening it had to do that its operator should know (a damaged journal file set aside), once */
  readonly notice?: string;
}

/** The kinds of a dashboard sign-in: a one-time link's code, or a session (a browser's cookie). */
export type SignInKind = 'link' | 'session';

export interface NewSignIn {
  /** SHA-256 (hex) of the sign-in's secret: the secret itself is never kept */
  hash: string;
  kind: SignInKind;
  company_id: number;
  /** the token the sign-in was made with: the session reads and acts as it (its name, read_only); revoking it ends the session */
  token_id: number;
  /** epoch milliseconds */
  expires_at: number;
}

/** The dashboard's sign-ins (src/server/dashboard), shared by every process on the database (a team's nodes). */
export interface SignInStore {
  /** keeps a sign-in; sign-ins expired before `now` (epoch ms) are removed on the way */
  add(signIn: NewSignIn, now: number): Promise<void>;
  /**
   * The access a sign-in of this kind opens (the same `Access` that companies.authenticate answers:
   * the company and its token's id, name, read_only), or undefined when there is none, it has expired
   * (expires_at <= now) or its token is revoked. A `link` is removed as it is taken: of two concurrent
   * takes of one link only one gets the access.
   */
  take(hash: string, kind: SignInKind, now: number): Promise<Access | undefined>;
  /** forgets a sign-in (sign-out); no error when there is none */
  remove(hash: string): Promise<void>;
}

/** Whose key it is: one key per company and operation. */
export interface KeyScope {
  companyId: number;
  operation: string;
  key: string;
}

export interface IdempotencyReads {
  get(companyId: number, operation: string, key: string): Promise<StoredAnswer | undefined>;
}

export interface Reads {
  companies: CompanyReads;
  invoices: InvoiceReads;
  events: EventReads;
  idempotency: IdempotencyReads;
}

/**
 * A transaction's repositories. A call makes its statements when it is called, before its first
 * wait: a caller may make several calls and await them together (Promise.all), and they run in the
 * order they were called (on PostgreSQL they then share one round trip: postgres/pipeline.ts). A
 * call whose later statements depend on an earlier one's answer (a customer found or inserted) is
 * made alone, or beside calls whose order against them does not matter.
 */
export interface Writes {
  /**
   * Makes transactions that take the same named lock run one after another from here to their end
   * (on SQLite every write transaction already does; PostgreSQL takes an advisory lock).
   */
  lock(name: string): Promise<void>;
  /**
   * Deletes every charge and all that hangs off it (customers, timelines, refunds, movements, events and
   * their attempts, idempotency keys), zeroes the companies' totals and clears their sandbox clocks and
   * chaos; companies, tokens, secrets and the dashboard's sign-ins stay, and the next ids are those of a new database.
   * `pinvoice/testing`'s reset(), with no server running on the store.
   */
  clearCharges(): Promise<void>;
  companies: CompanyReads & {
    create(profile: CompanyProfile, fees: FeeSchedules, webhookSecret: string, now: string): Promise<number>;
    /** answers the new token's record; a name the company already uses is refused (TokenNameTaken) */
    addToken(companyId: number, token: string, now: string, options?: NewToken): Promise<ApiToken>;
    /**
     * false when there was no such token of that company, or it was already revoked. Revoking the token
     * that signs the company's postbacks forgets its copy: the webhook secret signs them again.
     */
    revokeToken(companyId: number, id: number, now: string): Promise<boolean>;
    /** sets the sandbox clock's offset (ms ahead of real time, ≥ 0); a sandbox setting, not the profile: updated_at stays */
    setClock(companyId: number, offsetMs: number): Promise<void>;
    /** sets (null: clears) the sandbox chaos; updated_at stays */
    setChaos(companyId: number, chaos: ChaosSettings | null): Promise<void>;
    /** keys X-Webhook-Signature with this token of the company (null: with its webhook secret again, the copy forgotten); updated_at stays */
    setSigningToken(companyId: number, signing: SigningToken | null): Promise<void>;
  };
  invoices: InvoiceReads & {
    /**
     * the id the next charge gets (ids are never reused); `wanted` (a production record's id): that
     * one when no charge has it, the ids after it then left for the charges that come next
     */
    allocateId(wanted?: number): Promise<number>;
    insert(invoice: NewInvoice): Promise<void>;
    upsertCustomer(companyId: number, document: string, now: string): Promise<Customer>;
    /** false when the status was no longer `from` (another request or process changed it first) */
    changeStatus(change: StatusChange): Promise<boolean>;
    /** `by`: the token that made the change, if a request did */
    addTimeline(invoiceId: number, status: Status, note: string, at: string, by?: Access['token'] | null): Promise<TimelineEntry>;
    /** adds a refund and its amount to the charge's refunded_amount, if that stays within the amount */
    addRefund(invoiceId: number, amount: number, reason: string | null, at: string): Promise<boolean>;
    /** a financial movement; the company's balance moves with it */
    addMovement(movement: NewMovement): Promise<Movement>;
    /** counts a payment in the company's paid totals */
    countPaid(companyId: number, amount: number, paidAt: string): Promise<void>;
    /** how far the charge's lists go and when its customer last changed (for event snapshots) */
    marks(invoiceId: number): Promise<Pick<EventSnapshot, 'upto' | 'customer_updated_at'>>;
  };
  events: EventReads & {
    insert(event: NewEvent): Promise<void>;
    /**
     * Claims up to `limit` due events, the head of each charge's queue, not claimed by a live lease,
     * for `node` until `leaseUntil`. Another process cannot claim them before the lease ends.
     */
    claimDue(now: string, limit: number, node: string, leaseUntil: string): Promise<PostbackEvent[]>;
    /**
     * Records an event's attempt (two when chaos duplicated it; they count as one try); settles the
     * event only while `node` still holds its claim (returns whether it did).
     */
    recordAttempt(attempts: NewAttempt[], outcome: AttemptOutcome, node: string): Promise<boolean>;
    /** Claims one pending event for `node` until `until` (or extends its claim); false when someone else holds a live claim or it is not pending. */
    claim(id: number, node: string, now: string, until: string): Promise<boolean>;
    /** Gives back `node`'s claim of one pending event: it may be sent at once by anyone. */
    release(id: number, node: string): Promise<void>;
    /** Makes the company's pending events due `ms` earlier, never before `notBefore` (its sandbox clock jumped). */
    shiftDue(companyId: number, ms: number, notBefore: string): Promise<void>;
    /** Gives up every claim of `node` (stopping): those events may be sent at once by anyone. */
    releaseClaims(node: string): Promise<void>;
    /** Sends the event again from a fresh retry budget (history kept). */
    requeue(id: number, at: string): Promise<void>;
  };
  idempotency: IdempotencyReads & {
    /**
     * Claims a key for this transaction by inserting it under its unique index (not an upsert), or by
     * taking over one remembered before `staleBefore`. False when it is held: a transaction elsewhere
     * that claimed it first is waited for, and its answer is then there for `get`.
     */
    claim(scope: KeyScope, requestHash: string, now: string, staleBefore: string): Promise<boolean>;
    /** Stores the answer of a key this transaction claimed. */
    answer(scope: KeyScope, statusCode: number, response: unknown): Promise<void>;
    purgeBefore(cutoff: string): Promise<number>;
  };
}

/** What commits changed, for what the server keeps in memory of what it read (src/server/cache/kept.ts). */
export interface ChangeFeed {
  /**
   * Calls listener with what each commit changed (store/changes.ts): this process's at its commit, before
   * the transaction's promise settles; another process's when the engine hears of it. Returns the unsubscribe.
   */
  onChanged(listener: (changed: Changed) => void): () => void;
  /**
   * Whether other processes' commits are heard now (false: keep nothing, use nothing kept). SQLite looks
   * here, once per turn of the event loop, whether another process committed (then: everything changed).
   */
  heard(): boolean;
}

export interface Store extends Reads {
  readonly engine: string;
  /** where the data lives, as given (a file path, :memory:) */
  readonly location: string;
  /** Runs fn with writing repositories; everything it wrote commits together, or nothing does. */
  transaction<T>(fn: (tx: Writes) => Promise<T>): Promise<T>;
  /**
   * Calls listener after a commit that changed when an event is due (recorded, requeued, a retry
   * scheduled, a claim released); returns the unsubscribe.
   */
  onEventsRecorded(listener: () => void): () => void;
  /**
   * Calls listener after a commit of this process that changed a charge (every change records an
   * event, with or without a postback URL); other processes' changes are not heard. Returns the unsubscribe.
   */
  onChargesChanged(listener: () => void): () => void;
  /**
   * Whether onEventsRecorded also hears other processes' commits (PostgreSQL: LISTEN/NOTIFY). When it
   * does not (SQLite: several processes on one file), a dispatcher must look at the queue often.
   */
  readonly hearsOtherProcesses: boolean;
  /** what each commit changed, this process's and other processes' on the same database: what the caches drop (src/server/cache) */
  readonly changes: ChangeFeed;
  /**
   * Where the pix location's CA and leaves are kept when the engine keeps them itself (PostgreSQL:
   * nodes on several machines share one CA); absent: a key folder on this machine (SQLite).
   */
  readonly keyVault?: KeyVault;
  /** the inspector's journal: what the server received and every postback attempt (src/server/journal) */
  readonly journal: JournalStore;
  /** the dashboard's sign-ins */
  readonly signIns: SignInStore;
  /** ok, or what is wrong with the database now: unreachable, full, damaged, being checked (faults.ts) */
  health(): StoreHealth;
  /** its round trips and the faults they met, counted as they go (serve's /metrics reads them) */
  readonly counts: StoreCounts;
  /** Calls listener when the health changes (the one before it second); returns the unsubscribe. */
  onHealthChange(listener: (health: StoreHealth, before: StoreHealth) => void): () => void;
  close(): Promise<void>;
}

/** A certificate and its private key, PEM. */
export interface StoredKeyPair {
  cert: string;
  key: string;
}

/** Named key pairs, each written once: of two writers, the first wins and both read its pair. */
export interface KeyVault {
  read(name: string): Promise<StoredKeyPair | undefined>;
  /** stores the pair unless the name holds one; answers what the name holds */
  createOnce(name: string, pair: StoredKeyPair): Promise<StoredKeyPair>;
  /** puts `fresh` in place of the pair whose certificate is `oldCert`, unless another writer already replaced it; answers what the name holds */
  replace(name: string, oldCert: string, fresh: StoredKeyPair): Promise<StoredKeyPair>;
}

/**
 * How far a commit is durable before the answer goes out.
 * - process: the commit is in the database's log file (the operating system's cache) before the
 *   answer: a crash or kill -9 of the server loses nothing answered; a power cut or kernel crash may
 *   lose the last commits.
 * - power: the log is flushed to the disk at every commit: an answered charge survives a power cut too.
 */
export type Durability = 'process' | 'power';

/** A token name the company already uses. */
export class TokenNameTaken extends Error {
  constructor(readonly tokenName: string) {
    super(`the company already has a token named "${tokenName}"`);
  }
}

/** The store cannot be opened (a file that is not a database, a read-only folder, a newer schema): the message says why. */
export class DatabaseOpenError extends Error {}

/** the last month asked for, and its span in ms (toISOString() on every cached GET showed in the profile) */
let lastMonth = { from: 0, to: 0, month: '' };
/** "YYYY-MM" of an instant, UTC: the month paid totals are kept by. */
export const monthOf = (at: string | Date): string => {
  if (typeof at === 'string') return at.slice(0, 7);
  const ms = at.getTime();
  if (ms >= lastMonth.from && ms < lastMonth.to) return lastMonth.month;
  const month = at.toISOString().slice(0, 7); // (an invalid date throws here, as before)
  lastMonth = { from: Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1), to: Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1), month };
  return month;
};
