// Throughput of the built `pinvoice serve` over real HTTP against a bare node:http server answering
// the very same bytes, in the same run, with the same load (tools/raw-client.ts: cheap enough per
// request to drive the bare server to its limit on a 2-core machine; each line prints both sides'
// CPU, so a run the client paced shows). Measured:
//   GET one charge by secureId (Search Transaction)                        goal ≥ 0.6× bare
//   POST a pix charge, no postback URL (Create Invoices)                    goal ≥ 0.3× bare
//   POST a pix charge whose postback goes to a receiver on this machine     goal ≥ 0.15× bare
//     (the receiver is a bare node:http server in its own process; the postbacks delivered during
//     the run are counted, and the time the outbox then takes to drain)
//   POST a pix charge whose postback host cannot be resolved               goal ≥ 0.8× the receiver run
//   POST with --durability power (an fsync at every commit)                 informational
//   fastify alone answering the same bytes, GET and POST                     informational (the framework's ceiling)
// Each POST figure on a fresh serve and database. Informational: exits 0 unless a request failed.
//   npm run bench   (builds first; or: npx tsx bench/server.ts [--connections 32] [--duration 5] [--warmup 1])
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, LoadWorker, type LoadOptions, type LoadResult, type RequestSpec } from './load.js';
import { fetchBytes, loadFlags, startBare } from './throughput.js';
import { atExit, main, PIX_CHARGE, startServe, tempDir, TOKEN } from './serve-process.js';

const { connections, durationMs, warmupMs } = loadFlags();

const GOALS = { get: 0.6, post: 0.3, postbacks: 0.15, unresolvable: 0.8 };
/** a host no resolver knows (RFC 6761 reserves .invalid) */
const UNRESOLVABLE = 'http://postbacks.invalid/hook';

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
  const line = (label: string, result: LoadResult) => console.log(`    ${label.padEnd(15)} ${describe(result)}`);
  const verdict = (ratio: number, goal: number, of: string) => `ratio ${ratio.toFixed(2)}× ${of} (goal ≥ ${goal}×): ${ratio >= goal ? 'met' : 'NOT met'}`;
  const compare = (title: string, goal: number, base: LoadResult, ours: LoadResult) => {
    console.log(`  ${title}`);
    line('bare node:http', base);
    line('pinvoice serve', ours);
    console.log(`    ${verdict(ours.rps / base.rps, goal, 'bare')}; p99 ${(ours.p99 / base.p99).toFixed(1)}× bare`);
  };

  // GETs first, while the database holds one charge; then creates, which add thousands.
  const get = { method: 'GET', headers: auth };
  const getBare = await run('GET bare', { ...get, url: `${bare.url}${path}` }, bare.pid);
  const getOurs = await run('GET pinvoice serve', { ...get, url: `${serve.url}${path}` }, serve.pid);
  compare(`GET ${path}`, GOALS.get, getBare, getOurs);

  const post = (url: string, body = PIX_CHARGE) => ({ method: 'POST', headers: json, body, url: `${url}/api/v2/invoices` });
  const postBare = await run('POST bare', post(bare.url), bare.pid);
  const postOurs = await run('POST pinvoice serve', post(serve.url), serve.pid);
  compare('POST /api/v2/invoices (a pix charge, no postback URL, no Idempotency-Key)', GOALS.post, postBare, postOurs);
  await serve.stop();

  // Informational: fastify alone answering the same bytes (a route each, the POST's body parsed), the
  // most a server on fastify can do here: what is left between it and serve is serve's own work.
  const fastify = await startBare(got, created, 'fastify');
  const getFloor = await run('GET fastify alone', { ...get, url: `${fastify.url}${path}` }, fastify.pid);
  const postFloor = await run('POST fastify alone', post(fastify.url), fastify.pid);
  console.log('  fastify alone, the same answers (a route each, the POST\'s JSON body parsed; informational: the framework\'s ceiling)');
  line('GET', getFloor);
  line('POST', postFloor);
  const share = (floor: LoadResult, base: LoadResult, ours: LoadResult) =>
    `${(floor.rps / base.rps).toFixed(2)}× bare; serve ${(ours.rps / floor.rps).toFixed(2)}× it (${Math.round(1e6 / ours.rps - 1e6 / floor.rps)} µs more a request)`;
  console.log(`    GET: ${share(getFloor, getBare, getOurs)}; POST: ${share(postFloor, postBare, postOurs)}`);

  // The same creates with a postback URL: the receiver (its own process) answers 200 to each.
  const receiver = await startBare(Buffer.from('{}'), Buffer.from('{}'));
  const withPostback = (url: string) => JSON.stringify({ ...JSON.parse(PIX_CHARGE), postback_url: url });
  const delivering = await startServe(`${dir}/postbacks.db`);
  const before = await receiver.posts();
  const startedAt = performance.now();
  const postDelivered = await run('POST with postbacks', post(delivering.url, withPostback(`${receiver.url}/hook`)), delivering.pid);
  const during = (await receiver.posts()) - before;
  const spanS = (performance.now() - startedAt) / 1000;
  // then the outbox drains: wait until the receiver has had nothing new for a second
  const drainFrom = performance.now();
  let count = await receiver.posts();
  for (;;) {
    await sleep(1000);
    const now = await receiver.posts();
    if (now === count) break;
    count = now;
  }
  const drainS = Math.max(0, (performance.now() - drainFrom) / 1000 - 1);
  await delivering.stop();
  console.log('  POST /api/v2/invoices with a postback URL on a receiver on this machine (a 200 to each)');
  line('pinvoice serve', postDelivered);
  console.log(`    ${verdict(postDelivered.rps / postBare.rps, GOALS.postbacks, 'bare')}; ${(postDelivered.rps / postOurs.rps).toFixed(2)}× the creates without a postback`);
  console.log(`    postbacks delivered during the run: ${Math.round(during / spanS).toLocaleString('en-US')}/s; the rest (${(count - before - during).toLocaleString('en-US')}) within ${drainS.toFixed(1)} s after it`);

  // And to a host that cannot be resolved: each delivery fails, and is retried later.
  const failing = await startServe(`${dir}/unresolvable.db`);
  const postUnresolvable = await run('POST unresolvable postbacks', post(failing.url, withPostback(UNRESOLVABLE)), failing.pid);
  await failing.stop();
  console.log(`  POST /api/v2/invoices with a postback URL whose host cannot be resolved (${UNRESOLVABLE})`);
  line('pinvoice serve', postUnresolvable);
  console.log(`    ${verdict(postUnresolvable.rps / postDelivered.rps, GOALS.unresolvable, 'the receiver run')}; ${(postUnresolvable.rps / postBare.rps).toFixed(2)}× bare`);

  // For the docs, no goal: the same creates with an fsync at every commit (serve --durability power).
  const power = await startServe(`${dir}/power.db`, ['--durability', 'power']);
  const postPower = await run('POST --durability power', post(power.url), power.pid);
  console.log('  POST /api/v2/invoices with --durability power (fsync at every commit; informational)');
  line('pinvoice serve', postPower);
  console.log(`    ${(postPower.rps / postBare.rps).toFixed(2)}× bare, ${(postPower.rps / postOurs.rps).toFixed(2)}× the default durability`);
  await power.stop();
});
