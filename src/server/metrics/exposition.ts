// /metrics in Prometheus' text format, made by prom-client from what the app and its store count as
// they go (counts.ts, StoreCounts): each metric reads them in its collect() when scraped, so nothing
// of prom-client runs per request. This module (and prom-client) loads at the first scrape.
import { collectDefaultMetrics, Counter, Gauge, Registry, type Metric } from 'prom-client';
import type { JournalRecorder } from '../journal/recorder.js';
import type { Store } from '../store/port.js';
import { DURATION_BUCKETS, POSTBACK_OUTCOMES, type AppCounts } from './counts.js';

export interface MetricsSources {
  counts: AppCounts;
  store: Store;
  journal: JournalRecorder;
  /** the server's own time (the postback queue runs on it) */
  realClock: () => Date;
}

const DURATIONS = 'pinvoice_request_duration_seconds';

/**
 * The request histogram as prom-client's registry reads a metric (get()), from the buckets counts.ts
 * keeps: prom-client's Histogram can only observe, and observing per request is what it must not do.
 */
function durations(counts: AppCounts) {
  const help = 'Time from when an operation took the request (its token check, or its handler) to its answer handed to the socket, by operation';
  const values = () => [...counts.operations].flatMap(([operation, op]) => {
    let below = 0;
    const buckets = DURATION_BUCKETS.map((le, i) => ({ metricName: `${DURATIONS}_bucket`, labels: { operation, le }, value: (below += op.buckets[i] ?? 0) }));
    return [
      ...buckets,
      { metricName: `${DURATIONS}_bucket`, labels: { operation, le: '+Inf' }, value: op.count },
      { metricName: `${DURATIONS}_sum`, labels: { operation }, value: op.sum },
      { metricName: `${DURATIONS}_count`, labels: { operation }, value: op.count },
    ];
  });
  return {
    name: DURATIONS,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({ name: DURATIONS, help, type: 'histogram', aggregator: 'sum', values: values() }),
    reset: () => undefined,
  } as unknown as Metric;
}

/**
 * A gauge read from the store when scraped, by engine; a store that cannot answer now leaves it out of
 * this scrape (pinvoice_store_healthy says why). (Labelled: prom-client resets a gauge without labels to 0, not to nothing.)
 */
function storeGauge(registry: Registry, engine: string, name: string, help: string, read: () => Promise<number>): void {
  new Gauge({
    name, help, labelNames: ['engine'], registers: [registry],
    async collect() {
      this.reset();
      const value = await read().catch(() => undefined);
      if (value !== undefined) this.set({ engine }, value);
    },
  });
}

export function createExposition({ counts, store, journal, realClock }: MetricsSources): { contentType: string; text: () => Promise<string> } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const engine = store.engine;

  new Counter({
    name: 'pinvoice_requests_total', help: 'Requests answered, by operation (the API operation id; other: pages, unrouted paths) and status', labelNames: ['operation', 'status'], registers: [registry],
    collect() {
      this.reset();
      for (const [operation, op] of counts.operations) for (const [status, n] of op.statuses) this.inc({ operation, status }, n);
    },
  });
  registry.registerMetric(durations(counts));
  new Counter({
    name: 'pinvoice_store_round_trips_total',
    help: engine === 'postgres'
      ? 'Statements sent to PostgreSQL by this node (reads, transactions with their BEGIN and COMMIT, journal batches, LISTEN, probes)'
      : 'Calls into SQLite at the repositories: transactions (those that share a commit, one each) and reads; the journal and sign-ins are not counted',
    labelNames: ['engine'], registers: [registry],
    collect() {
      this.reset();
      this.inc({ engine }, store.counts.trips);
    },
  });
  new Counter({
    name: 'pinvoice_store_errors_total', help: 'Calls to the store (reads, transactions) that failed with a fault, by its code (the API error code they are answered with), those refused at once while the database is away included', labelNames: ['engine', 'code'], registers: [registry],
    collect() {
      this.reset();
      for (const [code, n] of Object.entries(store.counts.faults)) this.inc({ engine, code }, n);
    },
  });
  new Gauge({
    name: 'pinvoice_store_healthy', help: '1 while the store works, 0 while it is at fault (unreachable, full, damaged, being checked)', labelNames: ['engine'], registers: [registry],
    collect() {
      this.set({ engine }, store.health().status === 'ok' ? 1 : 0);
    },
  });
  new Counter({
    name: 'pinvoice_cache_lookups_total', help: 'Lookups in the caches above the store (record: charges\' answers; token: tokens\' companies), answered from the cache (hit) or the store (miss)', labelNames: ['cache', 'result'], registers: [registry],
    collect() {
      this.reset();
      for (const [cache, seen] of Object.entries(counts.cache)) {
        this.inc({ cache, result: 'hit' }, seen.hit);
        this.inc({ cache, result: 'miss' }, seen.miss);
      }
    },
  });
  new Gauge({
    name: 'pinvoice_journal_queued_entries', help: 'Journal entries waiting in memory for their batch to be written', registers: [registry],
    collect() {
      this.set(journal.queued ?? 0);
    },
  });
  storeGauge(registry, engine, 'pinvoice_journal_dropped_entries', 'Journal entries dropped, oldest first, from the companies\' windows (--journal), summed over companies since each one\'s last clear; PostgreSQL: every node\'s', () => store.journal.dropped());
  new Counter({
    name: 'pinvoice_postback_attempts_total', help: 'Postback attempts made by this node, by outcome: delivered (2xx), refused (another status), failed (no answer: unreachable, timed out), dropped (sandbox chaos, not sent)', labelNames: ['outcome'], registers: [registry],
    collect() {
      this.reset();
      for (const outcome of POSTBACK_OUTCOMES) this.inc({ outcome }, counts.postbacks[outcome]);
    },
  });
  storeGauge(registry, engine, 'pinvoice_postback_backlog_events', 'Postback events due now and not yet delivered (those in flight included); PostgreSQL: every node\'s', () => store.events.dueCount(realClock().toISOString()));
  return { contentType: registry.contentType, text: () => registry.metrics() };
}
