// Throughput of the built `pinvoice serve` over real HTTP against a bare node:http server answering
// the very same bytes, in the same run, with the same load: Search Transaction (GET one charge by
// secureId) and Create Invoices (POST a pix charge), and the creates again with --durability power.
// Prints req/s, p50/p99 and the ratios with their goals (GET ≥ 0.6× bare, POST ≥ 0.3× bare);
// informational: exits 0 unless a request failed.
//   npm run bench   (builds first; or: npx tsx bench/server.ts [--connections 32] [--duration 5] [--warmup 1])
import { parseArgs } from 'node:util';
import { describe, forkTs, LoadWorker, type LoadOptions, type LoadResult, type RequestSpec } from './load.js';
import { atExit, killAtExit, main, PIX_CHARGE, startServe, tempDir, TOKEN } from './serve-process.js';

const { values: flags } = parseArgs({
  options: { connections: { type: 'string', default: '32' }, duration: { type: 'string', default: '5' }, warmup: { type: 'string', default: '1' } },
});
const connections = Number(flags.connections);
const durationMs = Number(flags.duration) * 1000;
const warmupMs = Number(flags.warmup) * 1000;
if (!(connections >= 1 && durationMs > 0 && warmupMs >= 0)) throw new Error('--connections ≥ 1, --duration > 0 and --warmup ≥ 0 (seconds)');

const GOALS = { get: 0.6, post: 0.3 };

async function fetchBytes(url: string, init: RequestInit): Promise<Buffer> {
  const response = await fetch(url, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${bytes.toString().slice(0, 600)}`);
  return bytes;
}

/** The baseline in its own process; resolves with its URL. */
function startBare(get: Buffer, post: Buffer): Promise<{ url: string; pid: number }> {
  const child = forkTs('./bare-server.ts');
  killAtExit(child);
  return new Promise((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve({ url: message.url, pid: child.pid as number }));
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code}) before listening`)));
    child.send({ get: get.toString('base64'), post: post.toString('base64') });
  });
}

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
