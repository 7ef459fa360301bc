// Delivers the outbox: POSTs each due event to its URL, signed; records every attempt; retries with
// exponential backoff and jitter. Events of one charge go one at a time, in order; charges run side by
// side up to a bound, so a slow or dead receiver holds up only its own charge's events.
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { BODY_SIGNATURE_HEADER, SIGNATURE_HEADER, bodySignature, signatureHeader } from '../../domain/signature.js';
import { keepAlivePools, postJson } from '../../base/post-json.js';
import { LEASE_MARGIN_MS, type PostbackConfig } from '../config.js';
import { chaosFor, wrongSecret } from '../sandbox/chaos.js';
import { companyTime } from '../sandbox/company-time.js';
import { monthOf, type ChaosSettings, type Company, type NewAttempt, type PostbackEvent, type Store } from '../store/port.js';
import { outgoingEntry } from '../journal/capture.js';
import type { JournalRecorder } from '../journal/recorder.js';
import type { PostbackOutcome } from '../metrics/counts.js';
import { eventBody } from './outbox.js';

export interface DispatcherOptions extends PostbackConfig {
  store: Store;
  clock: () => Date;
  userAgent: string;
  logError: (error: unknown) => void;
  /** a number in [0, 1) for the jitter */
  random?: () => number;
  /** names this process in its claims (default: host, PID and a random part) */
  node?: string;
  /** the inspector's journal: every attempt is an `out` entry */
  journal?: JournalRecorder | undefined;
  /** hears what became of each attempt (serve's /metrics) */
  counted?: (outcome: PostbackOutcome) => void;
}

/** The headers of a postback the journal keeps; the signatures' values never. */
const SIGNATURE_NAMES = [SIGNATURE_HEADER, BODY_SIGNATURE_HEADER];

/**
 * Even with nothing due, look again this often: every second when other processes' events go unheard
 * (SQLite), every 30 s when the store hears them (PostgreSQL's NOTIFY; then only against a clock jump
 * or a lost notice).
 */
const IDLE_MS = 1000;
const IDLE_HEARING_MS = 30_000;
const MAX_DELAY_MS = 3_600_000;
/** How soon to look again when something was due but could not be claimed. */
const DUE_RECHECK_MS = 1000;

/** The keys of one delivery's two signature headers. */
interface SigningKeys {
  /** Pinvoice-Signature's: the webhook secret */
  secret: string;
  /** X-Webhook-Signature's: the secret, or the company's API token */
  body: string;
}

/** Waits ms; false when stopped meanwhile. */
async function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** "Equal jitter": half the exponential delay, plus a random part of the other half. */
export function retryDelay(tries: number, baseDelayMs: number, random: () => number): number {
  const full = Math.min(MAX_DELAY_MS, baseDelayMs * 2 ** Math.max(0, tries - 1));
  return Math.round(full / 2 + random() * (full / 2));
}

export function createDispatcher(options: DispatcherOptions) {
  const { store, clock, logError, attempts: maxAttempts, baseDelayMs, timeoutMs, concurrency } = options;
  const random = options.random ?? Math.random;
  const node = options.node ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  // A claim lasts longer than any attempt can: another process takes the event only if this one died.
  const leaseMs = timeoutMs + LEASE_MARGIN_MS;
  const inFlight = new Map<number, Promise<void>>();
  // A receiver's connection serves its next postbacks (a new TCP, and TLS, handshake per postback cost
  // the creates a third of their rate); idle ones are kept up to the number in flight at most.
  const pools = keepAlivePools(concurrency);
  const abort = new AbortController();
  // one listener per request in flight, up to `concurrency`: not a leak
  setMaxListeners(concurrency + 10, abort.signal);
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let ticking = false;
  /** the look at the queue under way, which stop() waits for (its statements must not outlive the store) */
  let looking: Promise<void> | undefined;
  let again = false;
  let unsubscribe: () => void = () => undefined;
  const idleMs = store.hearsOtherProcesses ? IDLE_HEARING_MS : IDLE_MS;

  function schedule(ms: number): void {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), Math.max(0, ms));
    timer.unref();
  }

  /**
   * What signs a delivery: the webhook secret keys Pinvoice-Signature; X-Webhook-Signature is keyed with
   * the company's API token when it chose so (a copy read here only, never kept beyond the delivery).
   */
  async function signingKeys(company: Company, chaos: ChaosSettings | null): Promise<SigningKeys> {
    // switched back meanwhile: no copy any more, and the secret signs
    const token = company.signing_token_id === null ? undefined : await store.companies.signingToken(company.id);
    const keys = { secret: company.webhook_secret, body: token ?? company.webhook_secret };
    return chaos?.bad_signature ? { secret: wrongSecret(keys.secret), body: wrongSecret(keys.body) } : keys;
  }

  /** An attempt into the journal (sent or dropped by chaos), written on the next turn. */
  function journalAttempt(company: Company, event: PostbackEvent, attempt: NewAttempt, sent: { body: string; headers: Record<string, string> } | undefined, wall: number, serverNow: number): void {
    const journal = options.journal;
    if (!journal || journal.keep <= 0) return;
    journal.record(outgoingEntry({
      company, invoiceId: event.invoice_id, eventId: event.public_id, event: event.type, attempt: event.tries + 1, url: event.url,
      body: sent?.body ?? null, headers: sent?.headers ?? {}, signatureHeaders: sent ? SIGNATURE_NAMES : [],
      status: attempt.status_code, answer: attempt.response_excerpt, error: attempt.error, durationMs: attempt.duration_ms, wall, serverNow,
    }), true);
  }

  /** One POST of the body; its attempt as recorded (times in the company's clock). */
  async function post(company: Company, event: PostbackEvent, body: string, keys: SigningKeys, injected: string[]): Promise<{ attempt: NewAttempt; delivered: boolean } | undefined> {
    const started = clock();
    const headers = {
      'content-type': 'application/json',
      'user-agent': options.userAgent,
      // `t` is the wall clock's, whatever the sandbox clock (or a seeded server's standing clock) reads:
      // receivers check it against their own clock
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(keys.secret, Math.floor(Date.now() / 1000), body),
      [BODY_SIGNATURE_HEADER.toLowerCase()]: bodySignature(keys.body, body),
      'pinvoice-event-id': event.public_id,
    };
    const t0 = performance.now();
    const wall = Date.now();
    const result = await postJson(event.url, body, headers, timeoutMs, abort.signal, pools);
    if (result.aborted) return undefined;
    const delivered = result.status !== undefined && result.status >= 200 && result.status <= 299;
    options.counted?.(delivered ? 'delivered' : result.status === undefined ? 'failed' : 'refused');
    const attempt: NewAttempt = {
      event_id: event.id, url: event.url, started_at: companyTime(company, started.toISOString()), duration_ms: Math.round(performance.now() - t0),
      status_code: result.status ?? null, error: result.error ?? (delivered ? null : `HTTP ${result.status}: not a 2xx answer`),
      response_excerpt: result.excerpt ?? null, injected: injected.length > 0 ? injected : null,
    };
    journalAttempt(company, event, attempt, { body, headers: { 'content-type': headers['content-type'], 'user-agent': headers['user-agent'], 'pinvoice-event-id': event.public_id } }, wall, started.getTime());
    return { delivered, attempt };
  }

  /** Settles the event after its attempt(s): delivered, failed for good, or due again after a backoff (real time). */
  async function settle(company: Company, event: PostbackEvent, attempts: NewAttempt[], delivered: boolean): Promise<void> {
    const now = clock();
    const tries = event.tries + 1;
    await store.transaction((tx) =>
      tx.events.recordAttempt(
        attempts,
        delivered
          ? { state: 'delivered', next_attempt_at: null, delivered_at: companyTime(company, now.toISOString()) }
          : tries >= maxAttempts
            ? { state: 'failed', next_attempt_at: null, delivered_at: null }
            : { state: 'pending', next_attempt_at: new Date(now.getTime() + retryDelay(tries, baseDelayMs, random)).toISOString(), delivered_at: null },
        node,
      ),
    );
  }

  /** With chaos `reorder`, the charge's newest due event goes before the one claimed (whose claim keeps the charge's turn). */
  async function reordered(event: PostbackEvent): Promise<PostbackEvent | undefined> {
    const now = clock().toISOString();
    const newest = (await store.events.forInvoice(event.invoice_id))
      .filter((e) => e.state === 'pending' && e.id > event.id && (e.next_attempt_at ?? now) <= now)
      .at(-1);
    if (!newest) return undefined;
    const until = new Date(clock().getTime() + leaseMs).toISOString();
    return (await store.transaction((tx) => tx.events.claim(newest.id, node, now, until))) ? newest : undefined;
  }

  /** `held`: the events whose claims this attempt keeps (the event, and the charge's head it was reordered before). */
  async function attempt(company: Company, event: PostbackEvent, chaos: ChaosSettings | null, injected: string[], held: number[]): Promise<void> {
    if (chaos && event.tries < chaos.drop_first) {
      // nothing is sent: no body to build
      const dropped: NewAttempt = {
        event_id: event.id, url: event.url, started_at: companyTime(company, clock().toISOString()), duration_ms: 0, status_code: null,
        error: `dropped by sandbox chaos (drop_first ${chaos.drop_first}): not sent`, response_excerpt: null, injected: [...injected, `drop_first=${chaos.drop_first}`],
      };
      journalAttempt(company, event, dropped, undefined, Date.now(), clock().getTime());
      options.counted?.('dropped');
      return settle(company, event, [dropped], false);
    }
    const aggregate = await store.invoices.aggregate(company.id, String(event.invoice_id), monthOf(companyTime(company, clock().toISOString())));
    if (!aggregate) throw new Error(`event ${event.public_id}: its charge is gone`);
    const body = eventBody(company, aggregate, event);
    if (chaos && chaos.delay_ms > 0) {
      // the claims outlive the wait, so no other process takes the event (or its charge's turn) meanwhile
      const now = clock();
      const until = new Date(now.getTime() + chaos.delay_ms + leaseMs).toISOString();
      await store.transaction(async (tx) => {
        for (const id of held) await tx.events.claim(id, node, now.toISOString(), until);
      });
      if (!(await wait(chaos.delay_ms, abort.signal))) return;
      injected.push(`delay_ms=${chaos.delay_ms}`);
    }
    const keys = await signingKeys(company, chaos);
    if (chaos?.bad_signature) injected.push('bad_signature');
    const first = await post(company, event, body, keys, injected);
    if (!first) return; // stopped mid-flight: still pending, its claim released by stop()
    const second = chaos?.duplicate ? await post(company, event, body, keys, [...injected, 'duplicate']) : undefined;
    const sent = second ? [first, second] : [first];
    await settle(company, event, sent.map((s) => s.attempt), sent.some((s) => s.delivered));
  }

  async function deliver(claimed: PostbackEvent): Promise<void> {
    const company = await store.companies.get(claimed.company_id);
    if (!company) throw new Error(`event ${claimed.public_id}: its company is gone`);
    const chaos = chaosFor(company, claimed.invoice_id);
    const newer = chaos?.reorder ? await reordered(claimed) : undefined;
    try {
      await attempt(company, newer ?? claimed, chaos, newer ? ['reorder'] : [], newer ? [newer.id, claimed.id] : [claimed.id]);
    } finally {
      // the older event's turn comes next, now, not when its claim runs out
      if (newer) await store.transaction((tx) => tx.events.release(claimed.id, node));
    }
  }

  function launch(event: PostbackEvent): void {
    const flight = deliver(event)
      .catch(logError)
      .finally(() => {
        inFlight.delete(event.invoice_id);
        schedule(0);
      });
    inFlight.set(event.invoice_id, flight);
  }

  async function tick(): Promise<void> {
    if (!running) return;
    if (ticking) {
      // a wake-up during a look at the queue: look again right after it (what woke us may be newer than what it read)
      again = true;
      return;
    }
    ticking = true;
    again = false;
    looking = look();
    await looking;
  }

  async function look(): Promise<void> {
    try {
      const now = clock();
      const free = concurrency - inFlight.size;
      if (free > 0 && (await store.events.nextDueAt(now.toISOString())) !== null) {
        const at = now.toISOString();
        const until = new Date(now.getTime() + leaseMs).toISOString();
        // Claimed in one transaction: no other process gets these until the lease ends.
        // (A charge in flight has its own claimed event at the head of its queue: none of its others is due.)
        const claimed = await store.transaction((tx) => tx.events.claimDue(at, free, node, until));
        for (const event of claimed) launch(event);
      }
      const next = await store.events.nextDueAt(now.toISOString());
      const wait = next === null ? idleMs : Date.parse(next) - now.getTime();
      // Due but not launched: a charge of ours in flight (its end calls schedule(0)), or one another process
      // was claiming as we read (PostgreSQL: its claim not yet committed, and a claim sends no NOTIFY).
      // Look again within a second, not after the idle wait: that claim's lease may run out unseen.
      schedule(wait <= 0 ? Math.min(idleMs, DUE_RECHECK_MS) : Math.min(wait, idleMs));
    } catch (error) {
      if (running) logError(error); // (stopping: the store may be closing under the look; the next start looks again)
      schedule(idleMs);
    } finally {
      ticking = false;
      looking = undefined;
      if (again) schedule(0);
    }
  }

  return {
    /** Starts delivering: what is already due (say, from before a restart) goes at once, a new event as soon as its transaction commits. */
    start(): void {
      running = true;
      unsubscribe = store.onEventsRecorded(() => schedule(0));
      schedule(0);
    },
    /** Looks at the queue now: the store is back after a fault, and what fell due meanwhile goes at once. */
    resume(): void {
      schedule(0);
    },
    /** Stops: nothing new is sent, requests in flight are cut off and stay pending. */
    async stop(): Promise<void> {
      running = false;
      unsubscribe();
      clearTimeout(timer);
      abort.abort();
      await looking;
      await Promise.allSettled([...inFlight.values()]);
      pools.close();
      // What was cut off goes at once on the next start, here or in another process, not after the lease.
      await store.transaction((tx) => tx.events.releaseClaims(node)).catch(logError);
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
