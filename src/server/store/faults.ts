// When the store itself fails (the database unreachable, a full disk, a damaged file): one typed error,
// StoreFault, that each engine makes of its own errors and the app answers at one place (503 or 507,
// never a stack trace); and the store's health, which a fault changes and the store's recovery restores.
import type { Store, Writes } from './port.js';

/** What is wrong with the store, as the API's error code says it. */
export type FaultCode =
  /** the database cannot be reached or read now (PostgreSQL restarting, an I/O error): retry */
  | 'store_unavailable'
  /** the disk holding the database is full: writes fail until space is freed */
  | 'insufficient_storage'
  /** a large SQLite file is being checked after start: writes wait for the check */
  | 'store_checking'
  /** the database file is damaged: the server only reads, and never writes to it */
  | 'store_damaged';

export class StoreFault extends Error {
  constructor(
    readonly code: FaultCode,
    message: string,
    /** seconds a client should wait before trying again (absent: trying again will not help) */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/**
 * What a store counts of its own work as it goes, for serve's /metrics (read when scraped, never
 * reset): plain numbers on the store, so that each store of a process (tests open several) has its own.
 */
export interface StoreCounts {
  /** PostgreSQL: statements sent to the database; SQLite: transactions and reads at the repositories */
  trips: number;
  /**
   * PostgreSQL: the writes of transactions' statements to the database (those made until one is
   * awaited go in one): the round trips transactions wait for; SQLite: 0
   */
  writes: number;
  /** the store's calls (reads, transactions) that failed with a StoreFault, by its code: also those refused at once (a database away) */
  faults: Record<FaultCode, number>;
}

export const createStoreCounts = (): StoreCounts => ({ trips: 0, writes: 0, faults: { store_unavailable: 0, insufficient_storage: 0, store_checking: 0, store_damaged: 0 } });

/** Counts the error when it is a StoreFault; answers it unchanged. */
export function countFault(counts: StoreCounts, error: unknown): unknown {
  if (error instanceof StoreFault) counts.faults[error.code]++;
  return error;
}

/** The store, each transaction that fails with a StoreFault counted in its counts (its reads are counted where they are guarded). */
export function countingTransactionFaults<S extends { transaction: Store['transaction']; readonly counts: StoreCounts }>(store: S): S {
  const run = store.transaction.bind(store);
  return Object.assign(store, { transaction: <T>(fn: (tx: Writes) => Promise<T>) => run(fn).catch((error: unknown) => Promise.reject(countFault(store.counts, error))) });
}

export type StoreHealth =
  | { status: 'ok' }
  | { status: 'degraded'; code: FaultCode; reason: string; since: string };

export interface HealthTracker {
  get(): StoreHealth;
  /** the store is at fault (a line is told once per change of code or reason, not per request) */
  fault(fault: StoreFault): void;
  /** the store works again */
  recovered(): void;
  /** a write was committed: a full disk or an I/O error is over (not a damaged file, nor a check under way) */
  committed(): void;
  /** called with each change, the one before it second; returns the unsubscribe */
  onChange(listener: (health: StoreHealth, before: StoreHealth) => void): () => void;
}

const OK: StoreHealth = { status: 'ok' };

export function createHealthTracker(clock: () => Date = () => new Date()): HealthTracker {
  let health: StoreHealth = OK;
  const listeners = new Set<(health: StoreHealth, before: StoreHealth) => void>();
  const set = (next: StoreHealth) => {
    const before = health;
    health = next;
    for (const listener of listeners) listener(next, before);
  };
  return {
    get: () => health,
    fault(fault) {
      if (health.status === 'degraded' && health.code === fault.code) return;
      set({ status: 'degraded', code: fault.code, reason: fault.message, since: clock().toISOString() });
    },
    recovered() {
      if (health.status !== 'ok') set(OK);
    },
    committed() {
      if (health.status === 'degraded' && (health.code === 'insufficient_storage' || health.code === 'store_unavailable')) set(OK);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The answer each fault is given, as HTTP says it. */
export const FAULT_STATUS: Record<FaultCode, number> = { store_unavailable: 503, insufficient_storage: 507, store_checking: 503, store_damaged: 503 };

const MEANWHILE: Record<FaultCode, string> = {
  store_unavailable: 'requests are answered 503 store_unavailable (with Retry-After) until it answers again',
  insufficient_storage: 'changes are answered 507 insufficient_storage until a change can be saved again',
  store_checking: 'changes are answered 503 store_checking until the check is done',
  store_damaged: 'changes are answered 503 store_damaged',
};

/** The line an operator reads when the store's health changes (serve's stderr). */
export function healthLine(health: StoreHealth, before: StoreHealth): string {
  if (health.status === 'degraded') return `store: ${health.reason} Meanwhile ${MEANWHILE[health.code]}.`;
  const since = before.status === 'degraded' ? Date.now() - Date.parse(before.since) : 0;
  const after = since > 0 ? ` after ${(since / 1000).toFixed(1)} s` : '';
  const code = before.status === 'degraded' ? before.code : undefined;
  const what = code === 'store_checking' ? 'the check found no damage' : code === 'insufficient_storage' ? 'changes are saved again' : 'the database answers again';
  return `store: ${what}${after}: serving as usual`;
}

/**
 * Wraps each method of each repository so that an engine error becomes the StoreFault it means
 * (`translate` answers other errors unchanged); each call and each fault is counted in `counts`.
 */
export function guardRepos<T extends object>(repos: T, translate: (error: unknown) => unknown, counts: StoreCounts = createStoreCounts()): T {
  const guarded: Record<string, unknown> = {};
  for (const [name, repo] of Object.entries(repos)) {
    const methods: Record<string, unknown> = {};
    for (const [method, fn] of Object.entries(repo as Record<string, (...args: unknown[]) => Promise<unknown>>)) {
      methods[method] = (...args: unknown[]) => {
        counts.trips++;
        return fn(...args).catch((error: unknown) => Promise.reject(countFault(counts, translate(error))));
      };
    }
    guarded[name] = methods;
  }
  return guarded as T;
}
