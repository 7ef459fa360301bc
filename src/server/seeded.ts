// What a seed changes in the server (`serve --seed N`, `startSandbox({ seed })`): every id, token and
// code is drawn from streams of that seed, and the server's clock stands still at a fixed instant, so
// that the same requests give the same answers, byte for byte, on every run (a CI failure reproduces).
// Time moves only when a test moves it (`pinvoice sandbox clock advance|set`): expiry, boleto due
// dates and postback retries follow it as they follow a company's sandbox clock.
import { seededBytes, seededNumbers, type Seed } from '../base/seeded-random.js';
import { SEEDED_START } from './config.js';
import { newEventId } from './postbacks/outbox.js';
import { monthOf, type Store, type Writes } from './store/port.js';

export { SEEDED_START };

/** A clock that reads `at` every time. */
export function frozenClock(at: string | Date): () => Date {
  const ms = new Date(at).getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`${String(at)} is not a time`);
  return () => new Date(ms);
}

/**
 * The random sources of a seeded server, one stream per purpose: whether a charge has a postback URL
 * (events, jitter) never changes the ids of the charges after it.
 */
export function seededSources(seed: Seed) {
  return {
    /** the first company's CNPJ, token and webhook secret */
    company: seededBytes(seed, 'company'),
    /** secure ids, checkout tokens, pix txids */
    ids: seededBytes(seed, 'ids'),
    /** the random part of postback event ids */
    events: seededBytes(seed, 'events'),
    /** the jitter of postback retries */
    jitter: seededNumbers(seed, 'postback-jitter'),
  };
}

/**
 * The store, with the ids of the events its transactions record drawn from `bytes`: the outbox draws
 * them from the process's pool, which no seed reaches (done here, around the store, so that every
 * path that records an event, with or without an Idempotency-Key, goes through it).
 */
export function withEventIds(store: Store, bytes: (n: number) => Uint8Array): Store {
  const drawn = (tx: Writes): Writes => ({
    ...tx,
    events: { ...tx.events, insert: (event) => tx.events.insert({ ...event, public_id: newEventId(Date.parse(event.created_at), bytes) }) },
  });
  return { ...store, transaction: <T>(fn: (tx: Writes) => Promise<T>) => store.transaction((tx) => fn(drawn(tx))) };
}

/**
 * Whether the store already holds a charge. A seeded run starts its streams from the beginning, so on
 * such a database its ids would repeat those of the run before (and collide with them).
 */
export async function holdsCharges(store: Store, now: Date): Promise<boolean> {
  for (const company of await store.companies.list()) {
    if ((await store.invoices.list(company.id, { filter: {}, after: null, limit: 1 }, monthOf(now))).length > 0) return true;
  }
  return false;
}
