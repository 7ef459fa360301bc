// Delivers the outbox: POSTs each due event to its URL, signed; records every attempt; retries with
// exponential backoff and jitter. Events of one charge go one at a time, in order; charges run side by
// side up to a bound, so a slow or dead receiver holds up only its own charge's events.
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { BODY_SIGNATURE_HEADER, SIGNATURE_HEADER, bodySignature, signatureHeader } from '../../domain/signature.js';
import { postJson } from '../../base/post-json.js';
import { LEASE_MARGIN_MS, type PostbackConfig } from '../config.js';
import { monthOf, type PostbackEvent, type Store } from '../store/port.js';
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
}

/**
 * Even with nothing due, look again this often: every second when other processes' events go unheard
 * (SQLite), every 30 s when the store hears them (PostgreSQL's NOTIFY; then only against a clock jump
 * or a lost notice).
 */
const IDLE_MS = 1000;
const IDLE_HEARING_MS = 30_000;
const MAX_DELAY_MS = 3_600_000;

/** "Equal jitter": half the exponential delay, plus a random part of the other half. */
export function retryDelay(tries: number, baseDelayMs: number, random: () => number): number {
  const full = Math.min(MAX_DELAY_MS, baseDelayMs * 2 ** Math.max(0, tries - 1));
  return Math.round(full / 2 + random() * (full / 2));
}

export function createDispatcher(options: DispatcherOptions) {
  const { store, clock, logError, attempts, baseDelayMs, timeoutMs, concurrency } = options;
  const random = options.random ?? Math.random;
  const node = options.node ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  // A claim lasts longer than any attempt can: another process takes the event only if this one died.
  const leaseMs = timeoutMs + LEASE_MARGIN_MS;
  const inFlight = new Map<number, Promise<void>>();
  const abort = new AbortController();
  // one listener per request in flight, up to `concurrency`: not a leak
  setMaxListeners(concurrency + 10, abort.signal);
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let ticking = false;
  let again = false;
  let unsubscribe: () => void = () => undefined;
  const idleMs = store.hearsOtherProcesses ? IDLE_HEARING_MS : IDLE_MS;

  function schedule(ms: number): void {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), Math.max(0, ms));
    timer.unref();
  }

  async function deliver(event: PostbackEvent): Promise<void> {
    const company = await store.companies.get(event.company_id);
    const aggregate = company && (await store.invoices.aggregate(company.id, String(event.invoice_id), monthOf(clock())));
    if (!company || !aggregate) throw new Error(`event ${event.public_id}: its company or charge is gone`);
    const body = eventBody(company, aggregate, event);
    const secret = company.webhook_secret;
    const started = clock();
    const headers = {
      'content-type': 'application/json',
      'user-agent': options.userAgent,
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(secret, Math.floor(started.getTime() / 1000), body),
      [BODY_SIGNATURE_HEADER.toLowerCase()]: bodySignature(secret, body),
      'pinvoice-event-id': event.public_id,
    };
    const t0 = performance.now();
    const result = await postJson(event.url, body, headers, timeoutMs, abort.signal);
    if (result.aborted) return; // stopped mid-flight: still pending, its claim released by stop()
    const now = clock();
    const delivered = result.status !== undefined && result.status >= 200 && result.status <= 299;
    const tries = event.tries + 1;
    const error = result.error ?? (delivered ? null : `HTTP ${result.status}: not a 2xx answer`);
    await store.transaction((tx) =>
      tx.events.recordAttempt(
        { event_id: event.id, url: event.url, started_at: started.toISOString(), duration_ms: Math.round(performance.now() - t0),
          status_code: result.status ?? null, error, response_excerpt: result.excerpt ?? null },
        delivered
          ? { state: 'delivered', next_attempt_at: null, delivered_at: now.toISOString() }
          : tries >= attempts
            ? { state: 'failed', next_attempt_at: null, delivered_at: null }
            : { state: 'pending', next_attempt_at: new Date(now.getTime() + retryDelay(tries, baseDelayMs, random)).toISOString(), delivered_at: null },
        node,
      ),
    );
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
      // Due but not launched means waiting on a charge in flight, whose end calls schedule(0).
      schedule(wait <= 0 ? idleMs : Math.min(wait, idleMs));
    } catch (error) {
      logError(error);
      schedule(idleMs);
    } finally {
      ticking = false;
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
    /** Stops: nothing new is sent, requests in flight are cut off and stay pending. */
    async stop(): Promise<void> {
      running = false;
      unsubscribe();
      clearTimeout(timer);
      abort.abort();
      await Promise.allSettled([...inFlight.values()]);
      // What was cut off goes at once on the next start, here or in another process, not after the lease.
      await store.transaction((tx) => tx.events.releaseClaims(node)).catch(logError);
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
