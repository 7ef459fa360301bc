// What `pinvoice proxy` costs in front of a gateway, in one run, on one local upstream
// (bench/proxy-upstream.ts: production-style records of about 3 KB, their bytes made once, rotating
// over 100 ids of `GET /api/v2/invoices?id=N`), with the load of bench/load.ts's worker:
//   throughput, back to back: pinvoice proxy (journal and checks on) ÷ a bare node:http
//     streaming proxy that does nothing else (bench/bare-proxy.ts)                      goal ≥ 0.6×
//     the bare proxy ÷ the upstream direct (on 2 cores about 0.4×: the proxy's own hop)   informational
//     pinvoice proxy ÷ Prism's proxy mode on our OpenAPI document (bench/proxy-processes.ts says
//     with which flags)                                                                  goal ≥ 1.5×
//   latency added at a fixed 500 req/s: p50 and p99 through pinvoice proxy minus direct
//                                                                           goals ≤ 0.5 ms, ≤ 3 ms
//   then, on their own: pinvoice proxy --record (each exchange also a line of a recording) ÷ without
//                                                                                       informational
// All of them run side by side for the whole run and are loaded in turn, never together, in rounds
// whose order alternates (A B C D | D C B A | …); each figure is the median of its rounds, its range
// beside it. Informational: exits 0 unless a request failed.
//   npm run bench:proxy   (builds first; or: npx tsx bench/proxy.ts [--rounds 5] [--duration 2] [--warmup 0.5]
//                          [--connections 32] [--rate 500] [--latency-duration 3] [--cpu-prof DIR])
import { parseArgs } from 'node:util';
import { describe, LoadWorker, median, ms, type LoadOptions, type LoadResult, type RequestSpec } from './load.js';
import { startBareProxy, startPinvoiceProxy, startPrism, startUpstream } from './proxy-processes.js';
import { atExit, main, tempDir } from './serve-process.js';
import { fetchBytes } from './throughput.js';

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '0.5' },
    connections: { type: 'string', default: '32' },
    rate: { type: 'string', default: '500' },
    'latency-duration': { type: 'string', default: '3' },
    /** a folder: pinvoice proxy runs under node --cpu-prof and leaves its profile there */
    'cpu-prof': { type: 'string' },
  },
});
const rounds = Number(flags.rounds);
const [durationMs, warmupMs, latencyMs] = [flags.duration, flags.warmup, flags['latency-duration']].map((s) => Number(s) * 1000) as [number, number, number];
const connections = Number(flags.connections);
const rate = Number(flags.rate);
if (!(Number.isInteger(rounds) && rounds >= 1 && durationMs > 0 && warmupMs >= 0 && latencyMs > 0 && connections >= 1 && rate > 0)) {
  throw new Error('--rounds a whole number ≥ 1, --duration and --latency-duration > 0, --warmup ≥ 0 (seconds), --connections ≥ 1, --rate > 0');
}
const IDS = 100;
/** at the fixed rate: enough that one is free at every tick (an answer takes well under a tick's 2 ms) */
const RATE_CONNECTIONS = 8;
const GOALS = { bare: 0.6, prism: 1.5, p50: 0.5, p99: 3 };

interface Side {
  label: string;
  url: string;
  pid: number;
}

/** CPU time (µs) a request cost a side's own process, the median of the rounds: steadier than a rate on a busy machine. */
const cpuPerRequest = (rounds: Map<Side, LoadResult>[], side: Side) =>
  Math.round(median(rounds.map((round) => ((round.get(side) as LoadResult).serverCpu ?? NaN) / (round.get(side) as LoadResult).rps)) * 1e6);
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const range = (values: number[], digits: number) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
const rps = (value: number) => `${Math.round(value).toLocaleString('en-US')} req/s`;

await main(async () => {
  const dir = tempDir();
  const upstream = await startUpstream(IDS);
  const bare = await startBareProxy(upstream.url);
  const ours = await startPinvoiceProxy(upstream.url, dir, flags['cpu-prof']);
  atExit(() => void ours.stop().catch(() => undefined));
  const recording = await startPinvoiceProxy(upstream.url, dir, undefined, { name: 'recording', record: true });
  atExit(() => void recording.stop().catch(() => undefined));
  const prism = await startPrism(upstream.url, dir);
  atExit(() => void prism.stop().catch(() => undefined));
  const worker = LoadWorker.start();
  atExit(() => worker.close());

  const direct: Side = { label: 'direct', url: upstream.url, pid: upstream.pid };
  const barely: Side = { label: 'bare proxy', url: bare.url, pid: bare.pid };
  const pinvoice: Side = { label: 'pinvoice proxy', url: ours.url, pid: ours.pid };
  const prismed: Side = { label: 'prism proxy', url: prism.url, pid: prism.pid };
  const recorded: Side = { label: 'with --record', url: recording.url, pid: recording.pid };
  const spec = (side: Side): RequestSpec => ({
    method: 'GET',
    headers: { authorization: `Bearer ${upstream.token}` },
    url: upstream.ids.map((id) => `${side.url}/api/v2/invoices?id=${id}`),
  });
  await checkPassthrough(spec(direct), [barely, pinvoice, recorded, prismed].map(spec));

  console.log(`proxy: GET /api/v2/invoices?id=N over ${IDS} production-style records (${await recordBytes(spec(direct))} bytes on average), ${rounds} rounds, the order alternating`);
  console.log(`  prism proxy ${prism.flags}`);
  const line = (label: string, result: LoadResult) => `      ${label.padEnd(15)} ${describe(result)}`;
  const run = async (sides: Side[], options: LoadOptions, round: number) => {
    const results = new Map<Side, LoadResult>();
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) results.set(side, await worker.load(`${side.label}, round ${round + 1}`, spec(side), { ...options, watchPid: side.pid }));
    console.log(`    round ${round + 1}\n${sides.map((side) => line(side.label, results.get(side) as LoadResult)).join('\n')}`);
    return results;
  };

  console.log(`  throughput: ${connections} connections back to back, ${durationMs / 1000} s runs after ${warmupMs / 1000} s of warm-up (cpu: server = that side's own process)`);
  const loud: Map<Side, LoadResult>[] = [];
  for (let r = 0; r < rounds; r++) loud.push(await run([direct, barely, pinvoice, prismed], { connections, durationMs, warmupMs }, r));
  const ratio = (a: Side, b: Side, goal: number | undefined, note = '') => {
    const ratios = loud.map((round) => (round.get(a) as LoadResult).rps / (round.get(b) as LoadResult).rps);
    const value = median(ratios);
    const of = (side: Side) => rps(median(loud.map((round) => (round.get(side) as LoadResult).rps)));
    const verdict = goal === undefined ? `informational${note}` : `goal ≥ ${goal}×): ${met(value >= goal)}`;
    console.log(`    ${a.label} ÷ ${b.label}: ${value.toFixed(2)}× (median of ${rounds} rounds, all ${range(ratios, 2)}×; ${of(a)} ÷ ${of(b)}; ${verdict}${goal === undefined ? ')' : ''}`);
  };
  ratio(pinvoice, barely, GOALS.bare);
  ratio(barely, direct, undefined, ', about 0.4× on 2 cores');
  ratio(pinvoice, prismed, GOALS.prism);
  ratio(pinvoice, direct, undefined);
  console.log(`    CPU a request, the side's own process (medians): ${[direct, barely, pinvoice, prismed].map((side) => `${side.label} ${cpuPerRequest(loud, side)} µs`).join(', ')}`);

  console.log(`  latency at a fixed ${rate} req/s: ${RATE_CONNECTIONS} connections, each request at its due time, ${latencyMs / 1000} s runs after ${warmupMs / 1000} s of warm-up`);
  const steady: Map<Side, LoadResult>[] = [];
  for (let r = 0; r < rounds; r++) steady.push(await run([direct, pinvoice, barely], { connections: RATE_CONNECTIONS, durationMs: latencyMs, warmupMs, rate }, r));
  const added = (side: Side, goals: boolean) => {
    const by = (q: 'p50' | 'p99') => steady.map((round) => (round.get(side) as LoadResult)[q] - (round.get(direct) as LoadResult)[q]);
    const [p50, p99] = [median(by('p50')), median(by('p99'))];
    const at = (s: Side, q: 'p50' | 'p99') => ms(median(steady.map((round) => (round.get(s) as LoadResult)[q])));
    const short = steady.some((round) => [side, direct].some((s) => (round.get(s) as LoadResult).rps < 0.95 * rate));
    const verdict = goals ? `goals ≤ ${GOALS.p50} ms: ${met(p50 <= GOALS.p50)}, ≤ ${GOALS.p99} ms: ${met(p99 <= GOALS.p99)}` : 'informational';
    if (short) console.log(`    (a run fell short of ${rate} req/s: the latencies below are of a machine that could not keep up, not of a steady load)`);
    console.log(`    added by the ${side.label}: p50 +${ms(p50)} ms, p99 +${ms(p99)} ms (medians of ${rounds} rounds, p50 all ${range(by('p50'), 2)}, p99 all ${range(by('p99'), 2)}; ` +
      `p50 ${at(side, 'p50')} − ${at(direct, 'p50')} ms, p99 ${at(side, 'p99')} − ${at(direct, 'p99')} ms; its CPU a request ${cpuPerRequest(steady, side)} µs; ${verdict})`);
  };
  added(pinvoice, true);
  added(barely, false);

  // last, on their own: the recording writes ~0.5 GB a minute, whose write-back would weigh on the figures above
  console.log(`  recording: pinvoice proxy with --record and without, ${connections} connections back to back, in turn`);
  const recordRounds: Map<Side, LoadResult>[] = [];
  for (let r = 0; r < rounds; r++) recordRounds.push(await run([pinvoice, recorded], { connections, durationMs, warmupMs }, r));
  const costs = recordRounds.map((round) => (round.get(recorded) as LoadResult).rps / (round.get(pinvoice) as LoadResult).rps);
  console.log(`    with --record ÷ without: ${median(costs).toFixed(2)}× (median of ${rounds} rounds, all ${range(costs, 2)}×; CPU a request ${cpuPerRequest(recordRounds, recorded)} vs ${cpuPerRequest(recordRounds, pinvoice)} µs; informational: what --record costs)`);
  console.log(`  ${await journalSummary(ours.url, ours.token)}`);
  await Promise.all([ours.stop(), recording.stop(), prism.stop()]);
  if (flags['cpu-prof'] !== undefined) console.log(`  pinvoice proxy's CPU profile (the whole run): ${flags['cpu-prof']}`);
});

/** Before any load: each proxy answers the very bytes the upstream does (a proxy that answered something else would be measuring another thing). */
async function checkPassthrough(direct: RequestSpec, proxied: RequestSpec[]): Promise<void> {
  const [first] = direct.url as string[];
  const expected = await fetchBytes(first as string, { headers: direct.headers });
  for (const spec of proxied) {
    const url = (spec.url as string[])[0] as string;
    const got = await fetchBytes(url, { headers: spec.headers });
    if (!got.equals(expected)) throw new Error(`${url} answered other bytes than the upstream (${got.length} bytes, not ${expected.length}): ${got.toString().slice(0, 300)}`);
  }
}

/** What pinvoice proxy kept: that its journal and checks were on (an entry's findings, by kind). */
async function journalSummary(url: string, token: string): Promise<string> {
  const page = JSON.parse((await fetchBytes(`${url}/_pinvoice/requests?limit=1`, { headers: { authorization: `Bearer ${token}` } })).toString()) as {
    data: { findings?: { kind: string }[] }[];
    dropped: number;
  };
  const findings = page.data[0]?.findings ?? [];
  const kinds = [...new Set(findings.map((finding) => finding.kind))].join(', ');
  return `pinvoice proxy's journal: ${page.dropped.toLocaleString('en-US')} exchanges dropped from its window during the run; an entry's findings: ${findings.length}${kinds ? ` (${kinds})` : ''}`;
}

async function recordBytes(spec: RequestSpec): Promise<string> {
  const urls = spec.url as string[];
  const sizes = await Promise.all(urls.map(async (url) => (await fetchBytes(url, { headers: spec.headers })).length));
  return Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length).toLocaleString('en-US');
}
