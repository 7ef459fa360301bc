// `serve`'s /metrics as an operator's Prometheus meets it, on the engine of the run: the built binary,
// scraped over HTTP and parsed by a real text-format parser. The counts are the requests made (by
// operation and status), the histogram is cumulative and counts them too, the store's round trips
// grow with a create, the journal's drops and the postbacks' backlog and attempts are there; and who
// may read it: loopback only without a token (403 from this machine's other address, or through a
// proxy), the token's holder with one (401 for any other), nobody with --metrics off (404).
import { writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../support/engine.js';
import { scrape, type Scrape } from '../support/metrics.js';
import { call, dbFor, killAll, pixBody, removeWorkDirs, spawnServe, startServe, workDir } from '../support/processes.js';
import { eventually, startReceiver } from '../support/receiver.js';

const TOKEN = 'pinv_test_metrics_company_0001';
const METRICS_TOKEN = 'metrics_token_for_prometheus_0001';

afterAll(async () => {
  await killAll();
  removeWorkDirs();
});

/** An IPv4 address of this machine that is not loopback (what `hostname -I` lists first), if it has one. */
const otherAddress = Object.values(networkInterfaces()).flat().find((a) => a?.family === 'IPv4' && !a.internal)?.address;

/** requests_total's samples as "operation status" -> count. */
const requests = (s: Scrape) => Object.fromEntries(s.family('pinvoice_requests_total').metrics.map((m) => [`${m.labels?.operation} ${m.labels?.status}`, Number(m.value)]));

async function serving(name: string, args: string[] = []) {
  const work = workDir(`pinvoice-metrics-${name}-`);
  const db = await dbFor(work.dir, name);
  const node = await startServe(['--port', '0', '--db', db, '--token', TOKEN, ...args], work.env);
  return { ...node, work };
}

describe(`/metrics (${ENGINE})`, () => {
  it('counts a GET, a create, a 404 and a 401 by operation and status; the histogram is cumulative and counts the same requests', async () => {
    const node = await serving('counts');
    const created = await call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody());
    expect(created.status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await call(node.url, TOKEN, 'GET', `/api/v2/invoices/${created.body.data.secureId}`)).status).toBe(200);
    expect((await fetch(`${node.url}/api/v2/nothing-here?q=1`)).status).toBe(404);
    expect((await fetch(`${node.url}/api/v2/company`)).status).toBe(401);

    const first = await scrape(node.url);
    expect(first.status).toBe(200);
    const made = { 'createInvoice 200': 1, 'getTransaction 200': 2, 'other 404': 1, 'companyInfos 401': 1 };
    expect(requests(first)).toEqual(made);
    // a scrape is not a request of the API: the next one reads the same counts
    expect(requests(await scrape(node.url))).toEqual(made);

    const histogram = first.family('pinvoice_request_duration_seconds');
    expect(histogram.type).toBe('HISTOGRAM');
    const operations = [...new Set(Object.keys(made).map((key) => key.split(' ')[0] as string))];
    for (const operation of operations) {
      const { buckets, count, sum } = first.histogram('pinvoice_request_duration_seconds', { operation });
      expect(buckets.length, operation).toBeGreaterThan(10);
      for (let i = 1; i < buckets.length; i++) expect(buckets[i]?.[1], `${operation}: the bucket of le=${buckets[i]?.[0]} is below the one before`).toBeGreaterThanOrEqual(buckets[i - 1]?.[1] as number);
      const answered = Object.entries(made).filter(([key]) => key.startsWith(`${operation} `)).reduce((total, [, n]) => total + n, 0);
      expect(count, `${operation}: _count`).toBe(answered);
      expect(buckets.at(-1), `${operation}: +Inf`).toEqual([Number.POSITIVE_INFINITY, answered]);
      expect(sum, `${operation}: _sum`).toBeGreaterThan(0);
    }
    expect(new Set(first.text.split('\n').filter((line) => line.startsWith('pinvoice_request_duration_seconds_count')).map((line) => line.replace(/ .*/, '')))).toEqual(new Set(operations.map((operation) => `pinvoice_request_duration_seconds_count{operation="${operation}"}`)));

    // the store: a create is round trips of this engine, none failed, the store works
    const trips = first.value('pinvoice_store_round_trips_total', { engine: ENGINE }) as number;
    expect(trips).toBeGreaterThan(0);
    expect((await call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody())).status).toBe(200);
    expect(((await scrape(node.url)).value('pinvoice_store_round_trips_total', { engine: ENGINE }) as number) - trips).toBeGreaterThanOrEqual(ENGINE === 'postgres' ? 3 : 1);
    expect(first.family('pinvoice_store_errors_total').metrics.map((m) => Number(m.value))).toEqual([0, 0, 0, 0]);
    expect(first.value('pinvoice_store_healthy', { engine: ENGINE })).toBe(1);
    expect(first.family('pinvoice_cache_lookups_total').metrics.map((m) => `${m.labels?.cache} ${m.labels?.result}`).sort()).toEqual(['record hit', 'record miss', 'token hit', 'token miss']);
    // the token: looked up by the create, kept for the two GETs; the charge: read by the first GET, kept for the second
    const lookups = (cache: string, result: string) => first.value('pinvoice_cache_lookups_total', { cache, result });
    expect([lookups('token', 'miss'), lookups('token', 'hit'), lookups('record', 'miss'), lookups('record', 'hit')]).toEqual([1, 2, 1, 1]);
    expect(first.value('pinvoice_journal_queued_entries')).toBeGreaterThanOrEqual(0);
    expect(first.families.some((f) => f.name === 'process_cpu_user_seconds_total')).toBe(true);
  });

  it('tells the journal\'s drops, the postbacks by outcome and the backlog of events due', async () => {
    const delivered = await startReceiver(() => 200);
    const hanging = await startReceiver(() => 'hang');
    const node = await serving('journal', ['--journal', '2', '--postback-timeout', '60000']);
    try {
      // three requests with the token for a window of two: one dropped once their batch is written
      expect((await call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody({ postback_url: delivered.url }))).status).toBe(200);
      await delivered.waitFor(1);
      const attempts = await eventually(async () => {
        const s = await scrape(node.url);
        return s.value('pinvoice_postback_attempts_total', { outcome: 'delivered' }) === 1 && s;
      }, 10_000, 'the delivered attempt');
      expect(attempts.value('pinvoice_postback_attempts_total', { outcome: 'refused' })).toBe(0);
      expect((await call(node.url, TOKEN, 'GET', '/api/v2/company')).status).toBe(200);
      expect((await call(node.url, TOKEN, 'GET', '/api/v2/company')).status).toBe(200);
      await eventually(async () => (await scrape(node.url)).value('pinvoice_journal_dropped_entries') === 2, 10_000, 'two entries dropped (the create, its postback attempt)');

      // an event whose receiver never answers is due and in flight: the backlog holds it
      expect((await scrape(node.url)).value('pinvoice_postback_backlog_events')).toBe(0);
      expect((await call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody({ postback_url: hanging.url }))).status).toBe(200);
      await hanging.waitFor(1);
      expect((await scrape(node.url)).value('pinvoice_postback_backlog_events')).toBe(1);
    } finally {
      await node.kill();
      await Promise.all([delivered.close(), hanging.close()]);
    }
  });
});

describe('who may read /metrics', () => {
  it('without a token: loopback clients only; 403 from this machine\'s other address and through a proxy', async () => {
    const local = await serving('loopback');
    expect((await scrape(local.url)).status).toBe(200);
    const proxied = await fetch(`${local.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.status).toBe(403);
    expect(((await proxied.json()) as any).error).toBe('forbidden');
    if (!otherAddress) return console.warn('skipped the 403 from another address: this machine has no IPv4 address but loopback');
    const wide = await serving('wide', ['--host', otherAddress]);
    const refused = await fetch(`${wide.url}/metrics`);
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as any;
    expect(body.error).toBe('forbidden');
    expect(body.message).toContain('--metrics-token-file');
    // the API answers there as ever
    expect((await call(wide.url, TOKEN, 'GET', '/api/v2/company')).status).toBe(200);
  });

  it('with a token of its own: the right one 200 from any address, a wrong one, none or a company\'s 401', async () => {
    const work = workDir('pinvoice-metrics-token-');
    const file = join(work.dir, 'metrics-token');
    writeFileSync(file, `${METRICS_TOKEN}\n`, { mode: 0o600 });
    const db = await dbFor(work.dir, 'token');
    const node = await startServe(['--port', '0', '--db', db, '--token', TOKEN, '--host', otherAddress ?? '127.0.0.1', '--metrics-token-file', file], work.env);
    expect((await scrape(node.url, { authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200);
    for (const headers of [{ authorization: 'Bearer metrics_token_for_prometheus_0002' }, {}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const refused = await fetch(`${node.url}/metrics`, { headers });
      expect(refused.status, JSON.stringify(headers)).toBe(401);
      expect(((await refused.json()) as any).error).toBe('unauthorized');
    }
    // PINVOICE_METRICS_TOKEN does the same, on loopback too
    const byEnv = await startServe(['--port', '0', '--db', db, '--token', TOKEN], { ...work.env, PINVOICE_METRICS_TOKEN: METRICS_TOKEN });
    expect((await fetch(`${byEnv.url}/metrics`)).status).toBe(401);
    expect((await scrape(byEnv.url, { authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200);
  });

  it('--metrics off answers 404; a token that is a company\'s, or too short, stops the start (exit 2)', async () => {
    const off = await serving('off', ['--metrics', 'off']);
    expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
    const work = workDir('pinvoice-metrics-refused-');
    const file = join(work.dir, 'token');
    for (const [token, said] of [[TOKEN, "a company's API token"], ['short', 'at least 16']] as const) {
      writeFileSync(file, token);
      const node = spawnServe(['--port', '0', '--db', await dbFor(work.dir, 'refused'), '--token', TOKEN, '--metrics-token-file', file], work.env);
      // (a start that is not stopped listens: said at once, not after the test's timeout)
      expect(await Promise.race([node.exited.then((exit) => exit.code), node.listening.then(() => 'it listened')])).toBe(2);
      expect(node.stderr()).toContain(`--metrics-token-file ${file}: `);
      expect(node.stderr()).toContain(said);
      expect(node.stderr()).not.toContain(TOKEN);
    }
  });
});
