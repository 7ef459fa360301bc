// Whether a deep page of the charge listing (GET /api/v2/invoices without id: keyset pagination)
// costs what the first page costs, over real HTTP to the built `pinvoice serve`. Fills a new database
// with N pix charges of one company (20 clients, every second one paid, as bench/scale.ts), walks to
// page P's cursor (limit 500 then the rest, not measured), then measures the request for page 1 and
// the request for page P (limit 50 each), K rounds alternated, R sequential requests each after a
// warm-up: p50 and p99 per round, and the ratio page P ÷ page 1 of the p50s (median over the rounds;
// goal ≤ 1.2), the p99s' for information. SQLite, then PostgreSQL when it is installed (a throwaway
// cluster) or PINVOICE_BENCH_PG_URL is set. Progress goes to stderr; exits 0 unless a request failed.
//   npm run bench   (builds first; or: npx tsx bench/list.ts [--invoices 100000] [--page 2000] [--requests 1000] [--rounds 3] [--engine both|sqlite|postgres])
import { parseArgs } from 'node:util';
import { postgresBin } from '../tools/postgres-cluster.js';
import { int, LoadWorker, ms, type LoadResult } from './load.js';
import { atExit, benchPostgres, main, PIX_CHARGE, startServe, tempDir, TOKEN, type ServeProcess } from './serve-process.js';

const { values: flags } = parseArgs({
  options: {
    invoices: { type: 'string', default: '100000' },
    page: { type: 'string', default: '2000' },
    limit: { type: 'string', default: '50' },
    requests: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    clients: { type: 'string', default: '20' },
    engine: { type: 'string', default: 'both' },
  },
});
const N = Number(flags.invoices);
const PAGE = Number(flags.page);
const LIMIT = Number(flags.limit);
const REQUESTS = Number(flags.requests);
const ROUNDS = Number(flags.rounds);
const CLIENTS = Number(flags.clients);
if (!(PAGE >= 2 && LIMIT >= 1 && LIMIT <= 500 && N >= PAGE * LIMIT && REQUESTS >= 100 && ROUNDS >= 1 && CLIENTS >= 1)) {
  throw new Error('--page ≥ 2, --limit 1 to 500, --invoices ≥ page × limit, --requests ≥ 100, --rounds ≥ 1, --clients ≥ 1');
}
if (!['both', 'sqlite', 'postgres'].includes(flags.engine)) throw new Error('--engine both, sqlite or postgres');
const GOAL = 1.2;
const WALK_LIMIT = 500;
const auth = { authorization: `Bearer ${TOKEN}` };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] as number;
const verdict = (ratio: number) => (ratio <= GOAL ? 'met' : 'NOT met');

async function getPage(serve: ServeProcess, query: string): Promise<{ data: unknown[]; next_cursor: string | null; bytes: number }> {
  const response = await fetch(`${serve.url}/api/v2/invoices?${query}`, { headers: auth });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /api/v2/invoices?${query} answered ${response.status}: ${text.slice(0, 300)}`);
  return { ...(JSON.parse(text) as { data: unknown[]; next_cursor: string | null }), bytes: Buffer.byteLength(text) };
}

/** The cursor page P starts at: the charges before it walked in pages of 500 (and one of the rest). */
async function cursorOfPage(serve: ServeProcess): Promise<string> {
  let before = (PAGE - 1) * LIMIT;
  let cursor: string | null = null;
  while (before > 0) {
    const size = Math.min(WALK_LIMIT, before);
    const page = await getPage(serve, `limit=${size}${cursor ? `&cursor=${cursor}` : ''}`);
    if (page.data.length !== size || !page.next_cursor) throw new Error(`the walk ended early, ${before} charges before page ${PAGE}`);
    cursor = page.next_cursor;
    before -= size;
  }
  if (!cursor) throw new Error('no cursor');
  return cursor;
}

interface Round { first: LoadResult; deep: LoadResult }

async function measure(label: string, db: string, postgres?: number): Promise<void> {
  const serve = await startServe(db, ['--pix-expiry', '86400']);
  const worker = LoadWorker.start();
  atExit(() => worker.close());
  process.stderr.write(`  ${label}: filling to ${int(N)} charges\n`);
  let lastReport = 0;
  await worker.fill({ origin: serve.url, token: TOKEN, body: PIX_CHARGE, to: N, clients: CLIENTS, payEvery: 2, progressMs: 5000 }, (p) => {
    if (p.ms - lastReport < 10_000) return;
    lastReport = p.ms;
    process.stderr.write(`    ${int(p.created)} / ${int(N)} in ${int(p.ms / 1000)} s\n`);
  });
  process.stderr.write(`  ${label}: walking to page ${int(PAGE)}\n`);
  const cursor = await cursorOfPage(serve);
  const firstUrl = `${serve.url}/api/v2/invoices?limit=${LIMIT}`;
  const deepUrl = `${firstUrl}&cursor=${cursor}`;
  const [firstPage, deepPage] = [await getPage(serve, `limit=${LIMIT}`), await getPage(serve, `limit=${LIMIT}&cursor=${cursor}`)];
  if (firstPage.data.length !== LIMIT || deepPage.data.length !== LIMIT) throw new Error(`page 1 held ${firstPage.data.length} charges, page ${PAGE} ${deepPage.data.length}`);

  const rounds: Round[] = [];
  const load = (url: string, what: string) =>
    worker.load(what, { method: 'GET', url, headers: auth }, { connections: 1, requests: REQUESTS, warmupMs: 500, watchPid: serve.pid, watchPostgres: postgres });
  for (let round = 1; round <= ROUNDS; round++) {
    process.stderr.write(`  ${label}: round ${round} of ${ROUNDS}\n`);
    rounds.push({ first: await load(firstUrl, 'page 1'), deep: await load(deepUrl, `page ${PAGE}`) });
  }
  await serve.stop();
  worker.close();

  const line = (result: LoadResult) => `p50 ${ms(result.p50).padStart(6)} ms  p99 ${ms(result.p99).padStart(6)} ms  (${int(result.rps)} req/s)`;
  console.log(`${label}: ${int(N)} pix charges of one company (every second one paid), limit ${LIMIT}, ${int(REQUESTS)} sequential requests per page per round`);
  console.log(`  page 1: ${int(firstPage.bytes)} B; page ${int(PAGE)} (charges ${int((PAGE - 1) * LIMIT + 1)}–${int(PAGE * LIMIT)}): ${int(deepPage.bytes)} B`);
  rounds.forEach(({ first, deep }, i) => {
    console.log(`  round ${i + 1}  page 1:  ${line(first)}`);
    console.log(`           page ${int(PAGE)}: ${line(deep)}   ratio p50 ${(deep.p50 / first.p50).toFixed(2)}, p99 ${(deep.p99 / first.p99).toFixed(2)}`);
  });
  const p50 = median(rounds.map((r) => r.deep.p50 / r.first.p50));
  const p99 = median(rounds.map((r) => r.deep.p99 / r.first.p99));
  console.log(`  page ${int(PAGE)} ÷ page 1, median over ${ROUNDS} rounds: p50 ${p50.toFixed(2)}× (goal ≤ ${GOAL}×): ${verdict(p50)}; p99 ${p99.toFixed(2)}× (for information: ${verdict(p99)})`);
}

await main(async () => {
  if (flags.engine !== 'postgres') await measure('SQLite', `${tempDir()}/list.db`);
  if (flags.engine === 'sqlite') return;
  if (!postgresBin() && !process.env.PINVOICE_BENCH_PG_URL) {
    console.log('PostgreSQL: skipped (not installed, and PINVOICE_BENCH_PG_URL is not set)');
    return;
  }
  const postgres = await benchPostgres();
  await measure(postgres.description, await postgres.database('list'), postgres.pid);
});
