// The team sandbox (issue 45), in one run: the built `pinvoice serve` on
//   - SQLite, one node (a temp file),
//   - PostgreSQL, one node (a new database),
//   - PostgreSQL, three nodes on one new database, the requests taken in turn by the three,
//   - and, for information, the bare node:http baseline (bench/bare-server.ts, SQLite's bytes), one
//     process and three (the requests taken in turn, as by the three nodes: what spreading them costs
//     on this machine whatever the server does),
// each store filled first with 1,000 pix charges through the API, under three loads: GET by secureId
// over all 1,000 in turn, POST a pix charge (no Idempotency-Key), and a mix on the same connections of
// 9 such GETs to 1 such create; and, on SQLite and PostgreSQL one node, the same POST on one connection
// (a create alone, as a mix's creates come: for the information lines below). Rounds (every target ×
// load once each) in alternating order; the figures are medians of the rounds. Goals, each printed
// beside the absolute rates it divides:
//   PostgreSQL one node ÷ SQLite                                  GET ≥ 0.7, POST ≥ 0.5
//   mix ÷ the rate expected from the pure GET and POST runs       ≥ 0.9 on SQLite and on PostgreSQL
//   CPU a request of the mix (every serve node and every PostgreSQL process, from /proc), three
//   nodes ÷ one                                                   ≤ 1.15
// and for information: the mix's CPU a request ÷ its parts' (9 GETs' and one create alone's, from the
// pure runs: 1.0 when the mix's GETs keep their cache and its creates cost what one alone does, so a
// mix ratio below 0.9 then comes from creates alone costing more than creates made ten at a time,
// which share a commit), and each run's main thread(s) from /proc/<pid>/schedstat, on a core and
// waiting for one (near 100% together: the thread is what sets the pace, whatever its CPU share).
// Each node reads each charge once before the rounds (the GETs measured are cached lookups: a miss's
// cost is bench/scale.ts's). The creates are another payer's than the charges read: a create touches
// its customer, and rightly drops the kept records of that customer's charges (they show its last
// change); the mix measures reads beside others' writes. Informational: exits 0 unless a request failed.
//   npm run bench:team   (builds first; or: npx tsx bench/team.ts [--rounds 3] [--connections 10] [--duration 3] [--warmup 1])
import { availableParallelism, loadavg } from 'node:os';
import { cpu, describe, int, LoadWorker, median, type LoadResult, type LoadSpec, type RequestSpec } from './load.js';
import { fetchBytes, loadFlags, startBare } from './throughput.js';
import { atExit, benchPostgres, main, PIX_CHARGE, startEngines, TOKEN, type ServeProcess } from './serve-process.js';

const { connections, durationMs, warmupMs, rounds } = loadFlags({ connections: 10, duration: 3, warmup: 1, rounds: 3 });
const CHARGES = 1000;
const MIX = { gets: 9, creates: 1 };
const GOALS = { getToSqlite: 0.7, postToSqlite: 0.5, mixToExpected: 0.9, threeToOneCpu: 1.15 };
const LOADS = ['GET', 'POST', 'mix', 'alone'] as const;
type Load = (typeof LOADS)[number];

/** The create of the loads: PIX_CHARGE by another payer than the filled charges' (a valid CPF of its own). */
const OTHER_PAYERS_CHARGE = JSON.stringify({
  ...(JSON.parse(PIX_CHARGE) as object),
  payer: { name: 'Beltrano de Tal', email: 'beltrano@example.com', cpf_cnpj: '111.444.777-35', phone: '+5511988887777' },
});
const auth = { authorization: `Bearer ${TOKEN}` };
const json = { ...auth, 'content-type': 'application/json' };

/** What a load is sent to: its nodes (one, or three of one database) and the charges its GETs take in turn. */
interface Target {
  label: string;
  origins: string[];
  pids: number[];
  /** the postmaster, when the target stands on the throwaway cluster */
  postgres?: number;
  secureIds: string[];
}

/**
 * Fills the nodes' store with CHARGES pending charges through the first node (their secureIds from the
 * create answers), then has every node read each once: the GETs measured are the cached lookups the
 * goal is about, not the first reads (at 3 nodes × 1,000 misses, more than a warm-up of PostgreSQL takes).
 */
async function filled(label: string, nodes: ServeProcess[], postgres?: number): Promise<Target> {
  const filler = LoadWorker.start(); // a worker of its own: its record of secureIds is this store's alone
  atExit(() => filler.close());
  const first = nodes[0] as ServeProcess;
  await filler.fill({ origin: first.url, token: TOKEN, body: PIX_CHARGE, to: CHARGES, clients: connections, payEvery: CHARGES + 1, progressMs: 60_000 });
  const secureIds = await filler.sample('first', CHARGES, true);
  for (const node of nodes) {
    const url = secureIds.map((id) => `${node.url}/api/v2/invoices/${id}`);
    await filler.load(`the first reads of ${label}`, { method: 'GET', headers: auth, url }, { connections, warmupMs: 0, requests: CHARGES });
  }
  filler.close();
  return { label, origins: nodes.map((node) => node.url), pids: nodes.map((node) => node.pid), postgres, secureIds };
}

function loadSpec(to: Target, load: Load): LoadSpec {
  const get: RequestSpec = { method: 'GET', headers: auth, url: to.secureIds.flatMap((id) => to.origins.map((origin) => `${origin}/api/v2/invoices/${id}`)) };
  const post: RequestSpec = { method: 'POST', headers: json, body: OTHER_PAYERS_CHARGE, url: to.origins.map((origin) => `${origin}/api/v2/invoices`) };
  if (load === 'GET') return get;
  if (load === 'POST' || load === 'alone') return post;
  return { mix: [{ spec: get, weight: MIX.gets }, { spec: post, weight: MIX.creates }] };
}

/** CPU µs a request, every serve node and every PostgreSQL process counted; and the two shares. */
function cpuPerRequest(result: LoadResult): { all: number; node: number; postgres?: number } {
  const per = (share: number) => (share * result.seconds * 1e6) / result.requests;
  const node = per(result.serverCpu ?? NaN);
  const postgres = result.postgresCpu === undefined ? undefined : per(result.postgresCpu);
  return { all: node + (postgres ?? 0), node, postgres };
}

/** The rate a mix of the pure runs' costs would make: each request takes its kind's time (harmonic mean). */
function expectedMix(get: LoadResult, post: LoadResult): number {
  const share = MIX.gets / (MIX.gets + MIX.creates);
  return 1 / (share / get.rps + (1 - share) / post.rps);
}

/** Every run of one target and load, a result a round. */
type Runs = Map<Target, Record<Load, LoadResult[]>>;

const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
const rps = (value: number) => `${int(value)} req/s`;
const micros = (value: number) => `${int(value)} µs`;

/** "0.45 (rounds 0.40–0.50)": the median of the rounds' ratios and their range. */
function ratioOf(values: number[]): { median: number; text: string } {
  const m = median(values);
  return { median: m, text: `${m.toFixed(2)} (rounds ${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})` };
}

type PerRequest = ReturnType<typeof cpuPerRequest>;

/** "main thread on a core 79%, waiting for one 19%" (summed over the nodes' main threads), or nothing where unmeasured. */
const mainLine = (main: LoadResult['serverMain'], nodes: number) =>
  main ? `; main thread${nodes > 1 ? 's' : ''} on a core ${cpu(main.onCore)}, waiting for one ${cpu(main.waiting)}` : '';

/** A run's line: rate, latency, CPU shares and CPU a request; a mix's kinds' own p99 beside; the main threads. */
function runLine(result: LoadResult, nodes: number, per: PerRequest = cpuPerRequest(result)): string {
  const split = per.postgres === undefined ? '' : ` (node ${int(per.node)} + postgres ${int(per.postgres)})`;
  const kinds = result.kinds?.map((kind, k) => `${k === 0 ? 'GET' : 'create'} p99 ${kind.p99.toFixed(2)} ms`).join(', ');
  return `${describe(result)}  ${micros(per.all)} a request${split}${kinds ? `; ${kinds}` : ''}${mainLine(result.serverMain, nodes)}`;
}

/** The medians over the rounds of one target and load: each figure its own median, and CPU a request's. */
function medianRun(results: LoadResult[]): { result: LoadResult; per: PerRequest } {
  const of = (pick: (r: LoadResult) => number | undefined) => {
    const values = results.map(pick);
    return values.some((v) => v === undefined) ? undefined : median(values as number[]);
  };
  const kinds = results[0]?.kinds?.map((_, k) => ({ requests: 0, p50: of((r) => r.kinds?.[k]?.p50) ?? NaN, p99: of((r) => r.kinds?.[k]?.p99) ?? NaN }));
  const result: LoadResult = {
    requests: of((r) => r.requests) ?? NaN, seconds: of((r) => r.seconds) ?? NaN, non2xx: 0, errors: 0, kinds,
    rps: of((r) => r.rps) ?? NaN, p50: of((r) => r.p50) ?? NaN, p99: of((r) => r.p99) ?? NaN,
    clientCpu: of((r) => r.clientCpu) ?? NaN, serverCpu: of((r) => r.serverCpu), postgresCpu: of((r) => r.postgresCpu),
  };
  const onCore = of((r) => r.serverMain?.onCore);
  const waiting = of((r) => r.serverMain?.waiting);
  if (onCore !== undefined && waiting !== undefined) result.serverMain = { onCore, waiting };
  const per = results.map(cpuPerRequest);
  const postgres = per.every((p) => p.postgres !== undefined) ? median(per.map((p) => p.postgres as number)) : undefined;
  return { result, per: { all: median(per.map((p) => p.all)), node: median(per.map((p) => p.node)), postgres } };
}

/** Every target × load once, in the given order, each result added to its runs; a line each. */
async function round(worker: LoadWorker, order: [Target, Load][], runs: Runs, r: number): Promise<void> {
  console.log(`  round ${r + 1}`);
  for (const [to, load] of order) {
    const result = await worker.load(`${load} ${to.label}, round ${r + 1}`, loadSpec(to, load), {
      connections: load === 'alone' ? 1 : connections, durationMs, warmupMs, watchPid: to.pids, watchPostgres: to.postgres,
    });
    (runs.get(to) as Record<Load, LoadResult[]>)[load].push(result);
    console.log(`    ${load.padEnd(5)} ${to.label.padEnd(24)} ${runLine(result, to.pids.length)}`);
  }
}

/** The medians, by load, each target a line. */
function reportMedians(targets: Target[], runs: Runs): void {
  const titles: Record<Load, string> = {
    GET: `GET /api/v2/invoices/{secureId}, the ${int(CHARGES)} charges in turn`,
    POST: 'POST /api/v2/invoices (a pix charge, no Idempotency-Key)',
    mix: `mix: ${MIX.gets} of those GETs to ${MIX.creates} create, on the same connections`,
    alone: 'POST on one connection (a create alone, as those of the mix come)',
  };
  console.log(`  medians of ${rounds} rounds`);
  for (const load of LOADS) {
    console.log(`    ${titles[load]}`);
    for (const to of targets) {
      const results = (runs.get(to) as Record<Load, LoadResult[]>)[load];
      if (results.length === 0) continue;
      const { result, per } = medianRun(results);
      console.log(`      ${to.label.padEnd(24)} ${runLine(result, to.pids.length, per)}`);
    }
  }
}

/** The goals: each ratio the median of the rounds' own, beside the median rates (or CPU) it divides. */
function reportGoals(bare: Target, bareThree: Target, sqlite: Target, one: Target, three: Target, runs: Runs): void {
  const of = (to: Target) => runs.get(to) as Record<Load, LoadResult[]>;
  const rate = (to: Target, load: Load) => median(of(to)[load].map((r) => r.rps));
  console.log('  goals (each ratio the median of the rounds\' ratios; the figures beside it, the medians above)');
  for (const [load, goal] of [['GET', GOALS.getToSqlite], ['POST', GOALS.postToSqlite]] as const) {
    const ratio = ratioOf(of(one)[load].map((r, i) => r.rps / (of(sqlite)[load][i] as LoadResult).rps));
    console.log(`    ${load}, PostgreSQL one node ÷ SQLite: ${ratio.text}, ${rps(rate(one, load))} ÷ ${rps(rate(sqlite, load))}; goal ≥ ${goal}: ${verdict(ratio.median >= goal)}`);
  }
  const mixLine = (to: Target, goal?: number) => {
    const ratio = ratioOf(of(to).mix.map((r, i) => r.rps / expectedMix(of(to).GET[i] as LoadResult, of(to).POST[i] as LoadResult)));
    const expected = median(of(to).mix.map((_, i) => expectedMix(of(to).GET[i] as LoadResult, of(to).POST[i] as LoadResult)));
    const judged = goal === undefined ? 'for information' : `goal ≥ ${goal}: ${verdict(ratio.median >= goal)}`;
    console.log(`    mix ÷ expected, ${to.label}: ${ratio.text}, ${rps(rate(to, 'mix'))} against ${rps(expected)} expected from GET ${rps(rate(to, 'GET'))} and POST ${rps(rate(to, 'POST'))}; ${judged}`);
  };
  mixLine(sqlite, GOALS.mixToExpected);
  mixLine(one, GOALS.mixToExpected);
  // what the mix is made of: its CPU a request against its parts' from the pure runs, a create's as alone
  const partsLine = (to: Target) => {
    const runsOf = of(to);
    const share = MIX.gets / (MIX.gets + MIX.creates);
    const parts = runsOf.mix.map((_, i) => share * cpuPerRequest(runsOf.GET[i] as LoadResult).all + (1 - share) * cpuPerRequest(runsOf.alone[i] as LoadResult).all);
    const ratio = ratioOf(runsOf.mix.map((r, i) => cpuPerRequest(r).all / (parts[i] as number)));
    const cpuOfLoad = (load: Load) => median(runsOf[load].map((r) => cpuPerRequest(r).all));
    console.log(`    mix ÷ its parts, CPU a request, ${to.label}: ${ratio.text}, ${micros(median(runsOf.mix.map((r) => cpuPerRequest(r).all)))} ÷ ${micros(median(parts))} ` +
      `(${MIX.gets} GETs of ${micros(cpuOfLoad('GET'))} and ${MIX.creates} create alone of ${micros(cpuOfLoad('alone'))}, against ${micros(cpuOfLoad('POST'))} a create ` +
      `of the POST run); for information`);
  };
  partsLine(sqlite);
  partsLine(one);
  const main = medianRun(of(one).POST).result.serverMain;
  if (main) console.log(`    POST, PostgreSQL one node: its main thread on a core ${cpu(main.onCore)} and waiting for one ${cpu(main.waiting)} of the run; for information`);
  const cpuOf = (to: Target) => of(to).mix.map((r) => cpuPerRequest(r).all);
  const cpuRatio = ratioOf(cpuOf(three).map((c, i) => c / (cpuOf(one)[i] as number)));
  console.log(`    CPU a request of the mix, PostgreSQL three nodes ÷ one node: ${cpuRatio.text}, ${micros(median(cpuOf(three)))} ÷ ${micros(median(cpuOf(one)))}; ` +
    `goal ≤ ${GOALS.threeToOneCpu}: ${verdict(cpuRatio.median <= GOALS.threeToOneCpu)}`);
  const bareRatio = ratioOf(cpuOf(bareThree).map((c, i) => c / (cpuOf(bare)[i] as number)));
  console.log(`    CPU a request of the mix, bare node:http three processes ÷ one: ${bareRatio.text}, ${micros(median(cpuOf(bareThree)))} ÷ ${micros(median(cpuOf(bare)))}; ` +
    'for information (the same spreading over processes, of a server that does nothing)');
  mixLine(three);
  mixLine(bare);
}

await main(async () => {
  const postgres = await benchPostgres();
  const { sqlite: sqliteNode, one: oneNode, three: threeNodes } = await startEngines(postgres, 'team');
  process.stderr.write(`  filling each store with ${int(CHARGES)} charges\n`);
  const sqlite = await filled('SQLite, one node', [sqliteNode]);
  const one = await filled('PostgreSQL, one node', [oneNode], postgres.pid);
  const three = await filled('PostgreSQL, three nodes', threeNodes, postgres.pid);

  // the baseline answers any GET and any POST with SQLite's bytes of one charge
  const got = await fetchBytes(`${sqliteNode.url}/api/v2/invoices/${sqlite.secureIds[0]}`, { headers: auth });
  const created = await fetchBytes(`${sqliteNode.url}/api/v2/invoices`, { method: 'POST', headers: json, body: OTHER_PAYERS_CHARGE });
  const bareServer = await startBare(got, created);
  const bare: Target = { label: 'bare node:http', origins: [bareServer.url], pids: [bareServer.pid], secureIds: sqlite.secureIds };
  const bareServers = [bareServer, await startBare(got, created), await startBare(got, created)];
  const bareThree: Target = { label: 'bare node:http, three', origins: bareServers.map((s) => s.url), pids: bareServers.map((s) => s.pid), secureIds: sqlite.secureIds };

  const targets = [bare, bareThree, sqlite, one, three];
  const worker = LoadWorker.start();
  atExit(() => worker.close());
  const [one1, one5, one15] = loadavg().map((value) => value.toFixed(2));
  console.log(`team: ${int(CHARGES)} pix charges per store; ${connections} connections, ${durationMs / 1000} s runs after ${warmupMs / 1000} s of warm-up, ` +
    `${rounds} rounds of every target × load, the order reversed every other round; ${postgres.description}; answers of ${got.length} bytes (GET) and ${created.length} (POST)`);
  console.log(`  ${availableParallelism()} cores, load average ${one1} ${one5} ${one15} at the start; cpu: server = the serve node(s), summed; postgres = the cluster, ` +
    'all its processes (not measured on PINVOICE_BENCH_PG_URL); CPU a request = (server + postgres) × seconds ÷ requests; the creates are another payer\'s than the 1,000 charges read');

  const runs: Runs = new Map(targets.map((to) => [to, { GET: [], POST: [], mix: [], alone: [] }]));
  // (a create alone on the two engines' one node: what the mix's creates are made of)
  const order = LOADS.flatMap((load) => (load === 'alone' ? [sqlite, one] : targets).map((to): [Target, Load] => [to, load]));
  for (let r = 0; r < rounds; r++) await round(worker, r % 2 === 0 ? order : [...order].reverse(), runs, r);
  reportMedians(targets, runs);
  reportGoals(bare, bareThree, sqlite, one, three, runs);
  const busiest = Math.max(...[...runs.values()].flatMap((byLoad) => LOADS.flatMap((load) => byLoad[load].map((r) => r.clientCpu))));
  console.log(`  the load generator's CPU: at most ${cpu(busiest)} of a core in any run (near 100%, it and not the server set the pace)`);

  for (const node of [sqliteNode, oneNode, ...threeNodes]) await node.stop();
});
