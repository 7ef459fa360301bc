// What /metrics' counting and `--log-format json` cost a cached GET: three `pinvoice serve` in the
// same run, /metrics on (the default), --metrics off, and --log-format json, each GET by secureId
// with the same load, in alternating rounds; prints each round's rates and the medians of the ratios
// (a ratio is only worth what the same run measured against its baseline: the machine is shared).
//   npx tsx bench/metrics-cost.ts [rounds]   (after npm run build)
import { LoadWorker, median, int, type LoadResult } from './load.js';
import { fetchBytes } from './throughput.js';
import { atExit, main, PIX_CHARGE, startServe, tempDir, TOKEN } from './serve-process.js';

const ROUNDS = Number(process.argv[2] ?? 6);
const auth = { authorization: `Bearer ${TOKEN}` };

await main(async () => {
  const dir = tempDir();
  const sides = [
    { name: '--metrics off', args: ['--metrics', 'off'] },
    { name: '--metrics off, again', args: ['--metrics', 'off'] },
    { name: 'metrics on', args: [] },
    { name: 'on, json logs', args: ['--log-format', 'json'] },
  ];
  const servers = await Promise.all(sides.map((side, i) => startServe(`${dir}/cost-${i}.db`, side.args)));
  const paths = await Promise.all(servers.map(async (serve) => {
    const created = await fetchBytes(`${serve.url}/api/v2/invoices`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: PIX_CHARGE });
    return `${serve.url}/api/v2/invoices/${(JSON.parse(created.toString()) as { data: { secureId: string } }).data.secureId}`;
  }));
  const worker = LoadWorker.start();
  atExit(() => worker.close());
  const results: LoadResult[][] = sides.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    const line: string[] = [];
    // each round in another order: what is measured first (or after which) weighs on none alone
    const order = sides.map((_, i) => (i + round) % sides.length);
    for (const i of order) {
      const result = await worker.load(sides[i]?.name ?? '', { method: 'GET', url: paths[i] ?? '', headers: auth }, { connections: 10, warmupMs: 500, durationMs: 3000, watchPid: servers[i]?.pid });
      results[i]?.push(result);
      line.push(`${sides[i]?.name} ${int(result.rps)} req/s, ${Math.round(((result.serverCpu ?? 0) * 1e6) / result.rps)} CPU-µs`);
    }
    console.log(`round ${round}: ${line.join('; ')}`);
  }
  const base = results[0] ?? [];
  for (let i = 1; i < sides.length; i++) {
    const rate = median((results[i] ?? []).map((r, k) => r.rps / (base[k]?.rps ?? 1)));
    const cpu = median((results[i] ?? []).map((r, k) => ((r.serverCpu ?? 0) / r.rps) / ((base[k]?.serverCpu ?? 0) / (base[k]?.rps ?? 1))));
    console.log(`${sides[i]?.name} ÷ ${sides[0]?.name}: rate ${rate.toFixed(3)}×, CPU per GET ${cpu.toFixed(3)}× (medians of ${ROUNDS} rounds)`);
  }
  worker.close();
  await Promise.all(servers.map((serve) => serve.stop()));
});
