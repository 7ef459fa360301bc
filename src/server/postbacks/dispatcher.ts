// Delivers the outbox: POSTs each due event to its URL, signed; records every attempt; retries with
// exponential backoff and jitter. Events of one charge go one at a time, in order; charges run side by
// side up to a bound, so a slow or dead receiver holds up only its own charge's events.
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { BODY_SIGNATURE_HEADER, SIGNATURE_HEADER, bodySignature, signatureHeader } from '../../domain/signature.js';
import type { EventRow } from '../store/events.js';
import type { Store } from '../store/index.js';
import { postJson } from '../../base/post-json.js';

export interface PostbackOptions {
  /** attempts per event, the first included (default 4: one try and 3 retries) */
  attempts?: number;
  /** the first retry waits about this long, each next one twice as long (ms, default 1000) */
  baseDelayMs?: number;
  /** a receiver that has not answered by then is cut off (ms, default 10000) */
  timeoutMs?: number;
  /** events sent at once, across charges (default 16) */
  concurrency?: number;
}

export interface DispatcherOptions extends PostbackOptions {
  store: Store;
  clock: () => Date;
  userAgent: string;
  logError: (error: unknown) => void;
  /** a number in [0, 1) for the jitter */
  random?: () => number;
}

export const POSTBACK_DEFAULTS = { attempts: 4, baseDelayMs: 1000, timeoutMs: 10_000, concurrency: 16 } as const;
/** Even with nothing due, look again this often (events written by another process, a clock jump). */
const IDLE_MS = 1000;
const MAX_DELAY_MS = 3_600_000;

/** "Equal jitter": half the exponential delay, plus a random part of the other half. */
export function retryDelay(tries: number, baseDelayMs: number, random: () => number): number {
  const full = Math.min(MAX_DELAY_MS, baseDelayMs * 2 ** Math.max(0, tries - 1));
  return Math.round(full / 2 + random() * (full / 2));
}

export function createDispatcher(options: DispatcherOptions) {
  const { store, clock, logError } = options;
  const attempts = options.attempts ?? POSTBACK_DEFAULTS.attempts;
  const baseDelayMs = options.baseDelayMs ?? POSTBACK_DEFAULTS.baseDelayMs;
  const timeoutMs = options.timeoutMs ?? POSTBACK_DEFAULTS.timeoutMs;
  const concurrency = options.concurrency ?? POSTBACK_DEFAULTS.concurrency;
  const random = options.random ?? Math.random;
  const inFlight = new Map<number, Promise<void>>();
  const abort = new AbortController();
  // one listener per request in flight, up to `concurrency`: not a leak
  setMaxListeners(concurrency + 10, abort.signal);
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let unsubscribe: () => void = () => undefined;

  function schedule(ms: number): void {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(tick, Math.max(0, ms));
    timer.unref();
  }

  async function deliver(event: EventRow): Promise<void> {
    const secret = store.companies.get(event.company_id)?.webhook_secret;
    if (!secret) throw new Error(`event ${event.public_id}: its company is gone`);
    const started = clock();
    const headers = {
      'content-type': 'application/json',
      'user-agent': options.userAgent,
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(secret, Math.floor(started.getTime() / 1000), event.body),
      [BODY_SIGNATURE_HEADER.toLowerCase()]: bodySignature(secret, event.body),
      'pinvoice-event-id': event.public_id,
    };
    const t0 = performance.now();
    const result = await postJson(event.url, event.body, headers, timeoutMs, abort.signal);
    if (result.aborted) return; // stopped mid-flight: still pending, sent again on the next start
    const now = clock();
    const delivered = result.status !== undefined && result.status >= 200 && result.status <= 299;
    const tries = event.tries + 1;
    const error = result.error ?? (delivered ? null : `HTTP ${result.status}: not a 2xx answer`);
    store.events.recordAttempt(
      { event_id: event.id, url: event.url, started_at: started.toISOString(), duration_ms: Math.round(performance.now() - t0),
        status_code: result.status ?? null, error, response_excerpt: result.excerpt ?? null },
      delivered
        ? { state: 'delivered', next_attempt_at: null, delivered_at: now.toISOString() }
        : tries >= attempts
          ? { state: 'failed', next_attempt_at: null, delivered_at: null }
          : { state: 'pending', next_attempt_at: new Date(now.getTime() + retryDelay(tries, baseDelayMs, random)).toISOString(), delivered_at: null },
    );
  }

  function launch(event: EventRow): void {
    const flight = deliver(event)
      .catch(logError)
      .finally(() => {
        inFlight.delete(event.invoice_id);
        schedule(0);
      });
    inFlight.set(event.invoice_id, flight);
  }

  function tick(): void {
    if (!running) return;
    try {
      const now = clock();
      const free = concurrency - inFlight.size;
      if (free > 0) {
        for (const event of store.events.due(now.toISOString(), free + inFlight.size)) {
          if (inFlight.size >= concurrency) break;
          if (!inFlight.has(event.invoice_id)) launch(event);
        }
      }
      const next = store.events.nextDueAt();
      const wait = next === null ? IDLE_MS : Date.parse(next) - now.getTime();
      // Due but not launched means waiting on a charge in flight, whose end calls schedule(0).
      schedule(wait <= 0 ? IDLE_MS : Math.min(wait, IDLE_MS));
    } catch (error) {
      logError(error);
      schedule(IDLE_MS);
    }
  }

  return {
    /** Starts delivering: what is already due (say, from before a restart) goes at once, a new event as soon as its transaction ends. */
    start(): void {
      running = true;
      // a timer, not a call: the event's transaction is still open when the store tells
      unsubscribe = store.events.onDue(() => schedule(0));
      schedule(0);
    },
    /** Stops: nothing new is sent, requests in flight are cut off and stay pending. */
    async stop(): Promise<void> {
      running = false;
      unsubscribe();
      clearTimeout(timer);
      abort.abort();
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
