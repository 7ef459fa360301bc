// Throughput of the built `pinvoice serve` over real HTTP against a bare node:http server answering
// the very same bytes, in the same run, with the same load: Search Transaction (GET one charge by
// secureId) and Create Invoices (POST a pix charge), and the creates again with --durability power.
// Prints req/s, p50/p99 and the ratios with their goals (GET ≥ 0.6× bare, POST ≥ 0.3× bare);
// informational: exits 0 unless a request failed.
//   npm run bench   (builds first; or: npx tsx bench/server.ts [--connections 32] [--duration 5] [--warmup 1])
import { describe, LoadWorker, type LoadOptions, type LoadResult, type RequestSpec } from './load.js';
import { fetchBytes, loadFlags, startBare } from './throughput.js';
import { atExit, main, PIX_CHARGE, startServe, tempDir, TOKEN } from './serve-process.js';

const { connections, durationMs, warmupMs } = loadFlags();

const GOALS = { get: 0.6, post: 0.3 };

await main(async () => {
  const dir = tempDir();
  const serve = await startServe(`${dir}/bench.db`);
  const auth = { authorization: `Bearer ${TOKEN}` };
  const json = { ...auth, 'content-type': 'application/json' };

  // One charge, and the exact bytes of both answers for the baseline to send.
  const created = await fetchBytes(`${serve.url}/api/v2/invoices`, { method: 'POST', headers: json, body: PIX_CHARGE });
  const { secureId } = (JSON.parse(created.toString()) as { data: { secureId: string } }).data;
  const path = `/api/v2/invoices/${secureId}`;
  const got = await fetchBytes(`${serve.url}${path}`, { headers: auth });
  const bare = await startBare(got, created);

  const worker = LoadWorker.start();
  atExit(() => worker.close());
  const options: LoadOptions = { connections, durationMs, warmupMs };
  const run = (label: string, spec: RequestSpec, pid: number) => worker.load(label, spec, { ...options, watchPid: pid });

  console.log(`server: ${connections} connections, ${durationMs / 1000} s each after a ${warmupMs / 1000} s warm-up; answers of ${got.length} bytes (GET) and ${created.length} bytes (POST)`);
  const compare = (title: string, goal: number, base: LoadResult, ours: LoadResult) => {
    const ratio = ours.rps / base.rps;
    console.log(`  ${title}`);
    console.log(`    bare node:http  ${describe(base)}`);
    console.log(`    pinvoice serve  ${describe(ours)}`);
    console.log(`    ratio ${ratio.toFixed(2)}× bare (goal ≥ ${goal}×): ${ratio >= goal ? 'met' : 'NOT met'}; p99 ${(ours.p99 / base.p99).toFixed(1)}× bare`);
  };

  // GETs first, while the database holds one charge; then creates, which add thousands.
  const get = { method: 'GET', headers: auth };
  const getBare = await run('GET bare', { ...get, url: `${bare.url}${path}` }, bare.pid);
  const getOurs = await run('GET pinvoice serve', { ...get, url: `${serve.url}${path}` }, serve.pid);
  compare(`GET ${path}`, GOALS.get, getBare, getOurs);

  const post = { method: 'POST', headers: json, body: PIX_CHARGE };
  const postBare = await run('POST bare', { ...post, url: `${bare.url}/api/v2/invoices` }, bare.pid);
  const postOurs = await run('POST pinvoice serve', { ...post, url: `${serve.url}/api/v2/invoices` }, serve.pid);
  compare('POST /api/v2/invoices (a pix charge, no Idempotency-Key)', GOALS.post, postBare, postOurs);
  await serve.stop();

  // For the docs, no goal: the same creates with an fsync at every commit (serve --durability power).
  const power = await startServe(`${dir}/power.db`, ['--durability', 'power']);
  const postPower = await run('POST --durability power', { ...post, url: `${power.url}/api/v2/invoices` }, power.pid);
  console.log('  POST /api/v2/invoices with --durability power (fsync at every commit; informational)');
  console.log(`    pinvoice serve  ${describe(postPower)}`);
  console.log(`    ${(postPower.rps / postBare.rps).toFixed(2)}× bare, ${(postPower.rps / postOurs.rps).toFixed(2)}× the default durability`);
  await power.stop();
});
