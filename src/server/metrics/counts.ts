// What one app counts as it serves, for /metrics: plain numbers kept per app (a process may run
// several: the tests do), counted on the request path at the cost of a few additions, and read
// only when /metrics is scraped (exposition.ts makes Prometheus' text of them).

/** The request histogram's upper bounds, in seconds: a GET answered from the cache takes ~40 µs. */
export const DURATION_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** What became of a postback attempt: a 2xx, another status, no answer at all, or sandbox chaos kept it back. */
export type PostbackOutcome = 'delivered' | 'refused' | 'failed' | 'dropped';
export const POSTBACK_OUTCOMES: readonly PostbackOutcome[] = ['delivered', 'refused', 'failed', 'dropped'];

/** The caches above the store: charges' answers (invoices/record-cache.ts) and tokens' companies (auth.ts). */
export type CacheKind = 'record' | 'token';

export interface OperationCounts {
  /** answers by status */
  readonly statuses: Map<number, number>;
  /** answers per bucket of DURATION_BUCKETS, not cumulative; the last one past the largest bound */
  readonly buckets: number[];
  /** seconds, summed */
  sum: number;
  count: number;
}

export interface AppCounts {
  /** an answered request: its operation (the API's operation id, or `other`), status and time taken */
  request(operation: string, status: number, seconds: number): void;
  /** a lookup in one of the caches, answered from it (hit) or from the store */
  cacheLookup(cache: CacheKind, hit: boolean): void;
  postbackAttempt(outcome: PostbackOutcome): void;
  readonly operations: ReadonlyMap<string, OperationCounts>;
  readonly cache: Readonly<Record<CacheKind, { hit: number; miss: number }>>;
  readonly postbacks: Readonly<Record<PostbackOutcome, number>>;
}

export function createCounts(): AppCounts {
  const operations = new Map<string, OperationCounts>();
  const cache = { record: { hit: 0, miss: 0 }, token: { hit: 0, miss: 0 } };
  const postbacks = { delivered: 0, refused: 0, failed: 0, dropped: 0 };
  const of = (operation: string): OperationCounts => {
    let counts = operations.get(operation);
    if (!counts) operations.set(operation, (counts = { statuses: new Map(), buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
    return counts;
  };
  return {
    request(operation, status, seconds) {
      const counts = of(operation);
      counts.statuses.set(status, (counts.statuses.get(status) ?? 0) + 1);
      let bucket = 0;
      while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] as number)) bucket++;
      counts.buckets[bucket] = (counts.buckets[bucket] ?? 0) + 1;
      counts.sum += seconds;
      counts.count++;
    },
    cacheLookup(kind, hit) {
      cache[kind][hit ? 'hit' : 'miss']++;
    },
    postbackAttempt(outcome) {
      postbacks[outcome]++;
    },
    operations,
    cache,
    postbacks,
  };
}
