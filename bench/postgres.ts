// Throughput of the built `pinvoice serve` on PostgreSQL, over real HTTP, in one run with the same
// load as bench/server.ts (32 connections, 5 s after a 1 s warm-up): Search Transaction (GET one
// charge by secureId) and Create Invoices (POST a pix charge, no Idempotency-Key) against
//   - the bare node:http baseline (bench/bare-server.ts, answering SQLite's bytes),
//   - SQLite, one node (a temp file),
//   - PostgreSQL, one node (a new database),
//   - PostgreSQL, three nodes on one new database, the requests taken in turn by the three URLs.
// Prints req/s, p50/p99, each against bare (for information), and two ratios with their goals:
// PostgreSQL one node ÷ SQLite one node (≥ 0.5, "within 2×") and PostgreSQL three nodes ÷ one node
// (> 1.0). PostgreSQL is a throwaway cluster (tools/postgres-cluster.ts: Debian's binaries, run as
// nobody when root, fsync off), or the server of PINVOICE_BENCH_PG_URL, in which it makes new
// databases and drops them at the end. Informational: exits 0 unless a request failed.
//   npm run bench   (builds first; or: npx tsx bench/postgres.ts [--connections 32] [--duration 5] [--warmup 1])
import { availableParallelism } from 'node:os';
import { describe, LoadWorker, type LoadOptions, type LoadResult, type RequestSpec } from './load.js';
import { fetchBytes, loadFlags, startBare } from './throughput.js';
import { atExit, benchPostgres, main, PIX_CHARGE, startEngines, TOKEN, type ServeProcess } from './serve-process.js';

const { connections, durationMs, warmupMs } = loadFlags();

const GOALS = { postgresToSqlite: 0.5, threeToOne: 1.0 };
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** What the load is sent to: one server, or several nodes of one database taking the requests in turn. */
interface Target {
  label: string;
  origins: string[];
  pids: number[];
  /** the postmaster, when the target stands on the throwaway cluster */
  postgres?: number;
  /** GET /api/v2/invoices/{secureId} of the one charge created in its database */
  path: string;
  /** the bytes of that charge's create and GET answers */
  created: Buffer;
  got: Buffer;
}

const auth = { authorization: `Bearer ${TOKEN}` };
const json = { ...auth, 'content-type': 'application/json' };

/** Creates one charge through the first node and reads it back through every node. */
async function target(label: string, nodes: ServeProcess[], postgres?: number): Promise<Target> {
  const origins = nodes.map((node) => node.url);
  const created = await fetchBytes(`${origins[0]}/api/v2/invoices`, { method: 'POST', headers: json, body: PIX_CHARGE });
  const { secureId } = (JSON.parse(created.toString()) as { data: { secureId: string } }).data;
  const path = `/api/v2/invoices/${secureId}`;
  const answers = await Promise.all(origins.map((origin) => fetchBytes(`${origin}${path}`, { headers: auth })));
  return { label, origins, pids: nodes.map((node) => node.pid), postgres, path, created, got: answers[0] as Buffer };
}

await main(async () => {
  const cores = availableParallelism();
  const postgres = await benchPostgres();
  const { sqlite, one, three } = await startEngines(postgres, 'bench');

  const targets = {
    sqlite: await target('SQLite, one node', [sqlite]),
    one: await target('PostgreSQL, one node', [one], postgres.pid),
    three: await target('PostgreSQL, three nodes', three, postgres.pid),
  };
  const bare = await startBare(targets.sqlite.got, targets.sqlite.created);
  const all = [{ label: 'bare node:http', origins: [bare.url], pids: [bare.pid], postgres: undefined, path: targets.sqlite.path }, targets.sqlite, targets.one, targets.three];

  const worker = LoadWorker.start();
  atExit(() => worker.close());
  const options: LoadOptions = { connections, durationMs, warmupMs };
  const run = (kind: string, spec: Omit<RequestSpec, 'url'>, to: Pick<Target, 'label' | 'origins' | 'pids' | 'postgres'>, path: string) => {
    const url = to.origins.map((origin) => `${origin}${path}`);
    process.stderr.write(`  ${kind} ${to.label}\n`);
    return worker.load(`${kind} ${to.label}`, { ...spec, url: url.length === 1 ? (url[0] as string) : url }, { ...options, watchPid: to.pids, watchPostgres: to.postgres });
  };

  console.log(`postgres: ${connections} connections, ${durationMs / 1000} s each after a ${warmupMs / 1000} s warm-up, on ${postgres.description}; ` +
    `answers of ${targets.sqlite.got.length} / ${targets.one.got.length} bytes (GET, SQLite / PostgreSQL) and ${targets.sqlite.created.length} / ${targets.one.created.length} bytes (POST)`);
  console.log(`  this machine has ${cores} cores (os.availableParallelism()), shared by the load generator, PostgreSQL and the serve nodes; ` +
    'cpu: server = the serve node(s), summed; postgres = the cluster, all its processes (not shown on PINVOICE_BENCH_PG_URL)');
  console.log('  three nodes: one database, the requests taken in turn by the three nodes (the same connections in all)');

  const report = (title: string, results: LoadResult[]) => {
    const [base, onSqlite, onOne, onThree] = results as [LoadResult, LoadResult, LoadResult, LoadResult];
    console.log(`  ${title}`);
    all.forEach((to, i) => console.log(`    ${to.label.padEnd(24)} ${describe(results[i] as LoadResult)}`));
    const toBare = (ours: LoadResult) => `${(ours.rps / base.rps).toFixed(2)}× (p99 ${(ours.p99 / base.p99).toFixed(1)}×)`;
    console.log(`    ÷ bare (for information): SQLite one node ${toBare(onSqlite)}, PostgreSQL one node ${toBare(onOne)}, three nodes ${toBare(onThree)}`);
    const pgToSqlite = onOne.rps / onSqlite.rps;
    const threeToOne = onThree.rps / onOne.rps;
    console.log(`    ratio PostgreSQL one node ÷ SQLite one node ${pgToSqlite.toFixed(2)} (goal ≥ ${GOALS.postgresToSqlite}, within 2×): ${verdict(pgToSqlite >= GOALS.postgresToSqlite)}` +
      `; p99 ${(onOne.p99 / onSqlite.p99).toFixed(1)}×`);
    console.log(`    ratio PostgreSQL three nodes ÷ one node ${threeToOne.toFixed(2)} (goal > ${GOALS.threeToOne.toFixed(1)}): ${verdict(threeToOne > GOALS.threeToOne)}` +
      `; p99 ${(onThree.p99 / onOne.p99).toFixed(1)}×`);
  };

  // GETs first, while each database holds one charge; then creates, which add thousands.
  const getResults: LoadResult[] = [];
  for (const to of all) getResults.push(await run('GET', { method: 'GET', headers: auth }, to, to.path));
  report('GET /api/v2/invoices/{secureId}', getResults);

  const postResults: LoadResult[] = [];
  for (const to of all) postResults.push(await run('POST', { method: 'POST', headers: json, body: PIX_CHARGE }, to, '/api/v2/invoices'));
  report('POST /api/v2/invoices (a pix charge, no Idempotency-Key)', postResults);

  for (const node of [sqlite, one, ...three]) await node.stop();
});
