// What the inspector's journal costs the API: GET one charge, GET over 1,000 charges in turn (each
// read once before: cached lookups too, but each entry names another kept record) and POST a pix
// charge on `pinvoice serve`
// with the journal on (the default, 10,000 entries a company) against `--journal 0`, in one run, with
// the same load (bench/load.ts's worker). Both servers run side by side for the whole run, each on its
// own database, and are loaded in turn, never together: sixteen adjacent pairs of short runs, the order
// within a pair alternating (off, on | on, off | …), and the median of the pairs' ratios reported. On
// a 2-core machine one server's rate drifts by a quarter over a minute and jumps between runs; a pair
// of runs seconds apart sees the same machine, and the median sets aside the pairs a jump split.
// With eight pairs the median itself moved by ±0.1 between runs of one build; sixteen halve that
// spread's share, and the middle half of the pairs' ratios is printed beside it.
//   GET with the journal ÷ without                      goal ≥ 0.9×
//   GET over 1,000 charges with the journal ÷ without   goal ≥ 0.9× (the same goal: cached lookups)
//   POST with the journal ÷ without                     goal ≥ 0.9×
// The journal's window is full (entries dropped, counted) after the first runs, so the figures are
// those of a journal that trims as it goes. Informational: exits 0 unless a request failed.
//   npm run bench   (builds first; or: npx tsx bench/journal.ts [--connections 32] [--duration 2] [--warmup 0.5] [--pairs 16])
import { parseArgs } from 'node:util';
import { describe, LoadWorker, median, type LoadOptions, type LoadResult, type RequestSpec } from './load.js';
import { fetchBytes } from './throughput.js';
import { atExit, main, PIX_CHARGE, startServe, tempDir, TOKEN, type ServeProcess } from './serve-process.js';

const { values: flags } = parseArgs({
  options: {
    connections: { type: 'string', default: '32' },
    duration: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '0.5' },
    pairs: { type: 'string', default: '16' },
  },
});
const connections = Number(flags.connections);
const durationMs = Number(flags.duration) * 1000;
const warmupMs = Number(flags.warmup) * 1000;
const pairs = Number(flags.pairs);
if (!(connections >= 1 && durationMs > 0 && warmupMs >= 0 && Number.isInteger(pairs) && pairs >= 1)) {
  throw new Error('--connections ≥ 1, --duration > 0, --warmup ≥ 0 (seconds) and --pairs a whole number ≥ 1');
}
const GOAL = 0.9;
/** the charges the spread GETs take in turn */
const SPREAD = 1000;

await main(async () => {
  const dir = tempDir();
  const auth = { authorization: `Bearer ${TOKEN}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const worker = LoadWorker.start();
  atExit(() => worker.close());
  const options: LoadOptions = { connections, durationMs, warmupMs };

  interface Side {
    label: string;
    serve: ServeProcess;
    get: RequestSpec;
    spread: RequestSpec;
    post: RequestSpec;
  }
  async function side(journal: boolean): Promise<Side> {
    const serve = await startServe(`${dir}/journal-${journal ? 'on' : 'off'}.db`, journal ? [] : ['--journal', '0']);
    atExit(() => void serve.stop().catch(() => undefined));
    const created = await fetchBytes(`${serve.url}/api/v2/invoices`, { method: 'POST', headers: json, body: PIX_CHARGE });
    const { secureId } = (JSON.parse(created.toString()) as { data: { secureId: string } }).data;
    // SPREAD more, read once each (a worker of its own: its record of secureIds is this store's alone)
    const filler = LoadWorker.start();
    atExit(() => filler.close());
    await filler.fill({ origin: serve.url, token: TOKEN, body: PIX_CHARGE, to: SPREAD, clients: connections, payEvery: SPREAD + 1, progressMs: 60_000 });
    const spread = (await filler.sample('first', SPREAD, true)).map((id) => `${serve.url}/api/v2/invoices/${id}`);
    await filler.load('the first reads', { method: 'GET', headers: auth, url: spread }, { connections, warmupMs: 0, requests: SPREAD });
    filler.close();
    return {
      label: journal ? 'journal on' : 'journal off',
      serve,
      get: { method: 'GET', headers: auth, url: `${serve.url}/api/v2/invoices/${secureId}` },
      spread: { method: 'GET', headers: auth, url: spread },
      post: { method: 'POST', headers: json, body: PIX_CHARGE, url: `${serve.url}/api/v2/invoices` },
    };
  }
  const off = await side(false);
  const on = await side(true);

  console.log(`journal: ${pairs} pairs of ${durationMs / 1000} s runs (after ${warmupMs / 1000} s warm-up each), ${connections} connections; ` +
    `GET one charge, GET over ${SPREAD.toLocaleString('en-US')} charges in turn, POST a pix charge`);
  const loads = [
    ['GET /api/v2/invoices/{secureId}', (s: Side) => s.get],
    [`GET /api/v2/invoices/{secureId}, ${SPREAD.toLocaleString('en-US')} charges in turn`, (s: Side) => s.spread],
    ['POST /api/v2/invoices', (s: Side) => s.post],
  ] as const;
  for (const [name, pick] of loads) {
    console.log(`  ${name}`);
    const ratios: number[] = [];
    const rates = { on: [] as number[], off: [] as number[] };
    for (let i = 0; i < pairs; i++) {
      const results = new Map<Side, LoadResult>();
      for (const s of i % 2 === 0 ? [off, on] : [on, off]) results.set(s, await worker.load(`${name} ${s.label}`, pick(s), { ...options, watchPid: s.serve.pid }));
      const [a, b] = [results.get(on) as LoadResult, results.get(off) as LoadResult];
      ratios.push(a.rps / b.rps);
      rates.on.push(a.rps);
      rates.off.push(b.rps);
      console.log(`    pair ${i + 1}: ${(a.rps / b.rps).toFixed(2)}×   on ${describe(a)}\n                    off ${describe(b)}`);
    }
    const ratio = median(ratios);
    const sorted = [...ratios].sort((x, y) => x - y);
    const quartile = (q: number) => sorted[Math.round(q * (sorted.length - 1))] as number;
    console.log(`    ratio ${ratio.toFixed(2)}× (journal on ÷ off, the median of ${pairs} pairs; the middle half of the pairs ${quartile(0.25).toFixed(2)}–${quartile(0.75).toFixed(2)}×, all ${sorted[0]?.toFixed(2)}–${sorted.at(-1)?.toFixed(2)}×; medians ${Math.round(median(rates.on)).toLocaleString('en-US')} ÷ ${Math.round(median(rates.off)).toLocaleString('en-US')} req/s; goal ≥ ${GOAL}×): ${ratio >= GOAL ? 'met' : 'NOT met'}`);
  }
  const page = JSON.parse((await fetchBytes(`${on.serve.url}/api/v2/sandbox/requests?limit=1`, { headers: auth })).toString()) as { dropped: number };
  console.log(`  entries dropped from the journal's window during the run (beyond the 10,000 kept): ${page.dropped.toLocaleString('en-US')}`);
  await Promise.all([on.serve.stop(), off.serve.stop()]);
});
