// What an app counts (server/metrics/counts.ts) as /metrics gives it, over a real in-memory store and
// journal recorder: a duration on a bucket's bound is in that bucket (le: less than or equal), the
// buckets as given are cumulative, cache lookups and postback outcomes are told as counted, and the
// access rule's loopback addresses.
import { afterAll, describe, expect, it } from 'vitest';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { createRecorder } from '../../src/server/journal/recorder.js';
import { isLoopback } from '../../src/server/metrics/access.js';
import { createCounts } from '../../src/server/metrics/counts.js';
import { createExposition } from '../../src/server/metrics/exposition.js';
import { openStore } from '../../src/server/store/index.js';

const store = openStore(':memory:');
afterAll(() => store.close());

async function text(counts = createCounts()) {
  const journal = createRecorder(store, 0, () => undefined);
  return createExposition({ counts, store, journal, realClock: () => new Date() }).text();
}

const line = (all: string, start: string) => all.split('\n').find((l) => l.startsWith(start));

describe('the exposition of an app\'s counts', () => {
  it('puts a duration on a bound in that bucket, and each bucket holds those below it', async () => {
    const counts = createCounts();
    counts.request('getTransaction', 200, 0.0005);
    counts.request('getTransaction', 200, 0.0006);
    counts.request('getTransaction', 404, 20);
    const all = await text(counts);
    expect(line(all, 'pinvoice_request_duration_seconds_bucket{operation="getTransaction",le="0.00025"}')).toMatch(/ 0$/);
    expect(line(all, 'pinvoice_request_duration_seconds_bucket{operation="getTransaction",le="0.0005"}')).toMatch(/ 1$/);
    expect(line(all, 'pinvoice_request_duration_seconds_bucket{operation="getTransaction",le="0.001"}')).toMatch(/ 2$/);
    expect(line(all, 'pinvoice_request_duration_seconds_bucket{operation="getTransaction",le="10"}')).toMatch(/ 2$/);
    expect(line(all, 'pinvoice_request_duration_seconds_bucket{operation="getTransaction",le="+Inf"}')).toMatch(/ 3$/);
    expect(line(all, 'pinvoice_request_duration_seconds_count{operation="getTransaction"}')).toMatch(/ 3$/);
    expect(line(all, 'pinvoice_requests_total{operation="getTransaction",status="404"}')).toMatch(/ 1$/);
    // the whole text is Prometheus' format
    expect(parsePrometheusTextFormat(all).map((family) => family.name)).toContain('pinvoice_request_duration_seconds');
  });

  it('tells the cache lookups and postback outcomes counted', async () => {
    const counts = createCounts();
    counts.cacheLookup('record', true);
    counts.cacheLookup('record', true);
    counts.cacheLookup('token', false);
    counts.postbackAttempt('refused');
    const all = await text(counts);
    expect(line(all, 'pinvoice_cache_lookups_total{cache="record",result="hit"}')).toMatch(/ 2$/);
    expect(line(all, 'pinvoice_cache_lookups_total{cache="record",result="miss"}')).toMatch(/ 0$/);
    expect(line(all, 'pinvoice_cache_lookups_total{cache="token",result="miss"}')).toMatch(/ 1$/);
    expect(line(all, 'pinvoice_postback_attempts_total{outcome="refused"}')).toMatch(/ 1$/);
    expect(line(all, 'pinvoice_postback_backlog_events{engine="sqlite"}')).toMatch(/ 0$/);
  });
});

describe('loopback, for /metrics without a token', () => {
  it.each([['127.0.0.1', true], ['127.8.9.10', true], ['::1', true], ['::ffff:127.0.0.1', true], ['192.0.2.2', false], ['::ffff:192.0.2.2', false], ['1127.0.0.1', false], [undefined, false]])('%s: %s', (address, loopback) => {
    expect(isLoopback(address)).toBe(loopback);
  });
});
