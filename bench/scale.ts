// How the built `pinvoice serve` holds up as its database grows, over real HTTP. Fills a new
// database with N pix charges (20 clients; every second charge paid through the sandbox), and prints
// ratios against its own figures at the start of the same run:
//   - create rate over the last window / over the first window once warm   (goal ≥ 0.8)
//   - GET p99 of random charges at N / at 1,000 charges                      (goal ≤ 1.2)
// and two absolute figures: bytes on disk per created+paid pix charge (goal ≤ 2048) and the serve
// process's RSS at N (goal ≤ 150 MB). Progress goes to stderr; informational: exits 0 unless a
// request failed.
// --engine sqlite (the default): a new file; bytes from the file and its -wal after a SIGTERM.
// --engine postgres: a new database of a throwaway cluster (tools/postgres-cluster.ts; or of the
// server at PINVOICE_BENCH_PG_URL, dropped at the end); bytes from pg_database_size(), as the
// difference before and after a fill; RSS is the serve process's only, PostgreSQL's not counted.
//   npm run bench:scale -- --invoices 1000000   (builds first; or: npx tsx bench/scale.ts [--invoices N] [--clients 20] [--memory fast|lean])
//   npm run bench:scale:postgres -- --invoices 100000   (or: npx tsx bench/scale.ts --engine postgres [--invoices N])
import { parseArgs } from 'node:util';
import { describe, int, LoadWorker, MARK_EVERY, ms, type FillProgress, type FillResult, type LoadResult } from './load.js';
import { atExit, benchPostgres, dbBytes, main, memory, PIX_CHARGE, startServe, tempDir, TOKEN, type ServeProcess } from './serve-process.js';

const { values: flags } = parseArgs({
  options: {
    invoices: { type: 'string', default: '100000' },
    clients: { type: 'string', default: '20' },
    gets: { type: 'string', default: '2000' },
    'get-clients': { type: 'string', default: '4' },
    'bytes-sample': { type: 'string', default: '5000' },
    engine: { type: 'string', default: 'sqlite' },
    memory: { type: 'string', default: 'fast' },
  },
});
const ENGINE = flags.engine;
if (ENGINE !== 'sqlite' && ENGINE !== 'postgres') throw new Error('--engine sqlite or --engine postgres');
const N = Number(flags.invoices);
const CLIENTS = Number(flags.clients);
const GETS = Number(flags.gets);
const GET_CLIENTS = Number(flags['get-clients']);
const K = Number(flags['bytes-sample']);
const EARLY = 1000; // the first GET measurement, and the cold start of the fill
if (!(Number.isInteger(N) && N >= 5000 && CLIENTS >= 1 && GETS >= 100 && GET_CLIENTS >= 1 && K >= 100)) {
  throw new Error('--invoices ≥ 5000, --clients ≥ 1, --gets ≥ 100, --get-clients ≥ 1, --bytes-sample ≥ 100');
}
// The create-rate windows: as many charges at the start (once warm, right after the first 1,000) as
// at the end; 2% of N, from 1,000 to 10,000, in whole marks.
const WINDOW = Math.min(10_000, Math.max(1000, Math.round((N * 0.02) / MARK_EVERY) * MARK_EVERY));
// No charge expires during a run (a 1M fill takes long): the expiry sweep is not what is measured.
// (--memory: serve's own flag, fast or lean; the RSS goal is judged for the one given)
const SERVE_ARGS = ['--pix-expiry', '86400', '--memory', String(flags.memory)];
const GOALS = { getP99: 1.2, createRate: 0.8, bytes: 2048, rssMb: 150, journalMb: 64 };
const MB = 1024 * 1024;

const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** Prints the fill's progress on stderr: count, recent rate, the server's memory. */
function progressPrinter(serve: ServeProcess, total: number): (p: FillProgress) => void {
  let last = { created: 0, ms: 0 };
  return (p) => {
    const rate = ((p.created - last.created) * 1000) / Math.max(p.ms - last.ms, 1);
    const eta = rate > 0 ? (total - p.created) / rate : Infinity;
    const mem = memory(serve.pid);
    last = { created: p.created, ms: p.ms };
    process.stderr.write(
      `  fill: ${int(p.created)} / ${int(total)} charges (${Math.floor((p.created * 100) / total)}%), ${int(rate)}/s lately, ` +
        `${int(p.ms / 1000)} s in, about ${Number.isFinite(eta) ? int(eta) : '?'} s to go, serve RSS ${mem ? int(mem.rss / MB) : '?'} MB\n`,
    );
  };
}

/** Charges per second between two marks of a fill (marks are every MARK_EVERY charges). */
function rate(fill: FillResult, from: number, to: number): number {
  const start = fill.marks[from / MARK_EVERY];
  const end = fill.marks[to / MARK_EVERY];
  if (start === undefined || end === undefined) throw new Error(`no mark for charges ${from}–${to} (the fill made ${fill.created})`);
  return ((to - from) * 1000) / (end - start);
}

/** Where the databases live: new ones made, and their bytes on disk read, the engine's way. */
interface Storage {
  /** e.g. "SQLite files" or "PostgreSQL 15.14, a throwaway cluster (fsync off)" */
  description: string;
  /** the postmaster, whose cluster's CPU is reported (PostgreSQL started here) */
  postgres?: number;
  /** a new, empty database: a file path or a postgres:// URL */
  newDb(label: string): Promise<string>;
  /** its bytes on disk (SQLite: file and -wal, once serve has stopped; PostgreSQL: pg_database_size) */
  bytes(db: string): Promise<number>;
}

async function openStorage(): Promise<Storage> {
  if (ENGINE === 'sqlite') {
    return { description: 'SQLite files', newDb: async (label) => `${tempDir()}/${label}.db`, bytes: async (db) => dbBytes(db) };
  }
  const postgres = await benchPostgres();
  return { description: postgres.description, postgres: postgres.pid, newDb: (label) => postgres.database(label), bytes: (db) => postgres.size(db) };
}

/** Charges read before the measured ones (each five times), so that the server's GET path runs warm; no measured charge is among them. */
const WARM_GETS = 200;

/**
 * GET /api/v2/invoices/{secureId} of random existing charges, each read once (`gets` of them, fewer
 * when fewer exist: 800 at 1,000 charges), by `get-clients` connections, after WARM_GETS of others.
 * Each charge once: serve keeps a charge's record in memory while nothing is committed
 * (src/server/invoices/record-cache.ts), and a charge read twice would be answered from there, more
 * often among 1,000 charges than among 100,000; the figure is about reads as the data grows.
 */
async function measureGets(worker: LoadWorker, serve: ServeProcess, from: 'first' | 'all', label: string, postgres?: number): Promise<LoadResult> {
  const ids = await worker.sample(from, GETS + WARM_GETS, true);
  const url = (some: string[]) => some.map((id) => `${serve.url}/api/v2/invoices/${id}`);
  const get = (some: string[]) => ({ method: 'GET', url: url(some), headers: { authorization: `Bearer ${TOKEN}` } });
  await worker.load(`${label} (warm-up)`, get(ids.slice(0, WARM_GETS)), { connections: GET_CLIENTS, requests: 5 * WARM_GETS, warmupMs: 0 });
  const measured = ids.slice(WARM_GETS);
  return worker.load(label, get(measured), { connections: GET_CLIENTS, requests: measured.length, warmupMs: 0, watchPid: serve.pid, watchPostgres: postgres });
}

/** Creates and pays `charges` charges in a new worker (so they do not join the main fill's sample). */
async function fillPaid(serve: ServeProcess, charges: number): Promise<void> {
  const worker = LoadWorker.start();
  atExit(() => worker.close());
  await worker.fill({ origin: serve.url, token: TOKEN, body: PIX_CHARGE, to: charges, clients: CLIENTS, payEvery: 1, progressMs: 5000 }, progressPrinter(serve, charges));
  worker.close();
}

/** Bytes on disk of a new SQLite database after a start, `charges` created and paid, and a SIGTERM (its WAL checkpointed). */
async function stoppedDbBytes(storage: Storage, charges: number): Promise<number> {
  const db = await storage.newDb('bytes');
  const serve = await startServe(db, SERVE_ARGS);
  if (charges > 0) await fillPaid(serve, charges);
  await serve.stop();
  return storage.bytes(db);
}

/**
 * Bytes per created and paid charge, and how they were measured. SQLite: a database stopped with none,
 * another stopped with K. PostgreSQL: one new database, its pg_database_size() once serve has
 * started on it (migrated, seeded) and again after K and a SIGTERM.
 */
async function bytesPerCharge(storage: Storage): Promise<{ perCharge: number; how: string }> {
  if (ENGINE === 'sqlite') {
    process.stderr.write(`  bytes per charge: a database with 0, then one with ${int(K)} created and paid charges\n`);
    const empty = await stoppedDbBytes(storage, 0);
    const withK = await stoppedDbBytes(storage, K);
    return { perCharge: (withK - empty) / K, how: `(${int(withK)} B with ${int(K)} − ${int(empty)} B with none) / ${int(K)}` };
  }
  process.stderr.write(`  bytes per charge: a new database, before and after ${int(K)} created and paid charges\n`);
  const db = await storage.newDb('bytes');
  const serve = await startServe(db, SERVE_ARGS);
  const before = await storage.bytes(db);
  await fillPaid(serve, K);
  await serve.stop();
  const after = await storage.bytes(db);
  return { perCharge: (after - before) / K, how: `pg_database_size(): (${int(after)} B after ${int(K)} − ${int(before)} B before) / ${int(K)}` };
}

await main(async () => {
  const storage = await openStorage();
  const db = await storage.newDb('scale');
  const serve = await startServe(db, SERVE_ARGS);
  const worker = LoadWorker.start();
  atExit(() => worker.close());
  const fillTo = (to: number) => worker.fill(
    { origin: serve.url, token: TOKEN, body: PIX_CHARGE, to, clients: CLIENTS, payEvery: 2, progressMs: 5000, watchPid: serve.pid, watchPostgres: storage.postgres },
    progressPrinter(serve, N),
  );
  console.log(`scale (${storage.description}): ${int(N)} pix charges by ${CLIENTS} clients, every second one paid (POST /api/v2/sandbox/invoices/{id}/pay); ` +
    `GET latency: up to ${int(GETS)} GETs of random charges, each read once (after ${WARM_GETS} of others), by ${GET_CLIENTS} clients at ${int(EARLY)} and at ${int(N)} charges`);

  process.stderr.write(`  filling to ${int(EARLY)} charges\n`);
  const cold = await fillTo(EARLY);
  const getEarly = await measureGets(worker, serve, 'first', `GET at ${EARLY}`, storage.postgres);

  process.stderr.write(`  filling to ${int(N)} charges\n`);
  const fill = await fillTo(N);
  const getLate = await measureGets(worker, serve, 'all', `GET at ${N}`, storage.postgres);
  const mem = memory(serve.pid);
  // (SQLite: the journal's file and its write-ahead log while serve runs, as serve --journal-max-bytes bounds them)
  const journalBytes = ENGINE === 'sqlite' ? dbBytes(`${db}-requests`) : undefined;
  const last = Math.floor(fill.created / MARK_EVERY) * MARK_EVERY;
  const startRate = rate(fill, 0, WINDOW);
  const endRate = rate(fill, last - WINDOW, last);
  await serve.stop();
  const bytesAtN = await storage.bytes(db);

  const { perCharge, how } = await bytesPerCharge(storage);

  const createRatio = endRate / startRate;
  const getRatio = getLate.p99 / getEarly.p99;
  const rssMb = mem ? mem.rss / MB : NaN;
  const postgresCpu = fill.postgresCpu === undefined ? '' : `, ${(fill.postgresCpu * 100).toFixed(0)}% PostgreSQL CPU`;
  console.log(`  create rate (charges/s; with every second one paid, ${(fill.clientCpu * 100).toFixed(0)}% client CPU, ${fill.serverCpu === undefined ? '?' : (fill.serverCpu * 100).toFixed(0)}% server CPU${postgresCpu} over the fill)`);
  console.log(`    first ${int(EARLY)} (cold): ${int((EARLY * 1000) / cold.ms)}/s; whole fill: ${int((fill.created * 1000) / fill.ms)}/s`);
  console.log(`    start, charges ${int(EARLY + 1)}–${int(EARLY + WINDOW)}: ${int(startRate)}/s; end, charges ${int(EARLY + last - WINDOW + 1)}–${int(EARLY + last)}: ${int(endRate)}/s`);
  console.log(`    ratio end / start ${createRatio.toFixed(2)} (goal ≥ ${GOALS.createRate}): ${verdict(createRatio >= GOALS.createRate)}`);
  console.log(`  GET /api/v2/invoices/{secureId}`);
  console.log(`    at ${int(EARLY).padStart(9)}  ${describe(getEarly)}`);
  console.log(`    at ${int(N).padStart(9)}  ${describe(getLate)}`);
  console.log(`    ratio p99 at ${int(N)} / at ${int(EARLY)}: ${getRatio.toFixed(2)} (goal ≤ ${GOALS.getP99}): ${verdict(getRatio <= GOALS.getP99)}` +
    `; for information, p50 ${(getLate.p50 / getEarly.p50).toFixed(2)}, req/s ${(getLate.rps / getEarly.rps).toFixed(2)}`);
  console.log(`  bytes on disk per created+paid pix charge: ${int(perCharge)} B (goal ≤ ${GOALS.bytes}): ${verdict(perCharge <= GOALS.bytes)}  [${how}]`);
  const whose = ENGINE === 'postgres' ? ' (the serve process only, not PostgreSQL\'s)' : '';
  console.log(`  serve RSS at ${int(N)} charges${whose}, serve --memory ${flags.memory}: ${mem ? `${ms(rssMb)} MB (VmHWM ${ms(mem.hwm / MB)} MB)` : '? (no /proc)'} (goal ≤ ${GOALS.rssMb} MB): ${verdict(rssMb <= GOALS.rssMb)}`);
  if (journalBytes !== undefined) {
    console.log(`  the journal's files at ${int(N)} charges (<db>-requests and its -wal, serve running; --journal-max-bytes default): ${ms(journalBytes / MB)} MB ` +
      `(goal ≤ ${GOALS.journalMb} MB): ${verdict(journalBytes / MB <= GOALS.journalMb)}`);
  }
  const sized = ENGINE === 'postgres' ? 'pg_database_size(), including the empty database\'s catalogue' : 'the file and its -wal';
  console.log(`  database at ${int(N)} charges (half of them paid), after SIGTERM (${sized}): ${ms(bytesAtN / MB)} MB, ${int(bytesAtN / N)} B per charge`);
});
