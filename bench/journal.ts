// What the inspector's journal costs the API: GET one charge and POST a pix charge on `pinvoice serve`
// with the journal on (the default, 10,000 entries a company) against `--journal 0`, in one run, with
// the same load (bench/load.ts's worker). Each side on its own fresh serve and database, three times,
// alternating (off, on, on, off, off, on), the medians compared: on a 2-core machine one run of the
// same server varies by a quarter, so that a machine warming or cooling does not favour one side.
//   GET with the journal ÷ without     goal ≥ 0.9×
//   POST with the journal ÷ without    goal ≥ 0.9×
// Informational: exits 0 unless a request failed.
//   npm run bench   (builds first; or: npx tsx bench/journal.ts [--connections 32] [--duration 5] [--warmup 1])
import { describe, LoadWorker, type LoadOptions, type LoadResult } from './load.js';
import { fetchBytes, loadFlags } from './throughput.js';
import { atExit, main, PIX_CHARGE, startServe, tempDir, TOKEN, type ServeProcess } from './serve-process.js';

const { connections, durationMs, warmupMs } = loadFlags();
const GOAL = 0.9;

await main(async () => {
  const dir = tempDir();
  const auth = { authorization: `Bearer ${TOKEN}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const worker = LoadWorker.start();
  atExit(() => worker.close());
  const options: LoadOptions = { connections, durationMs, warmupMs };
  let n = 0;
  const fresh = (journal: boolean): Promise<ServeProcess> => startServe(`${dir}/journal-${n++}.db`, journal ? [] : ['--journal', '0']);

  /** One side's GET of one charge, then its creates, on a fresh server. */
  async function side(journal: boolean): Promise<{ get: LoadResult; post: LoadResult; entries: number }> {
    const serve = await fresh(journal);
    const created = await fetchBytes(`${serve.url}/api/v2/invoices`, { method: 'POST', headers: json, body: PIX_CHARGE });
    const { secureId } = (JSON.parse(created.toString()) as { data: { secureId: string } }).data;
    const label = journal ? 'journal on' : 'journal off';
    const get = await worker.load(`GET ${label}`, { method: 'GET', headers: auth, url: `${serve.url}/api/v2/invoices/${secureId}` }, { ...options, watchPid: serve.pid });
    const post = await worker.load(`POST ${label}`, { method: 'POST', headers: json, body: PIX_CHARGE, url: `${serve.url}/api/v2/invoices` }, { ...options, watchPid: serve.pid });
    let entries = 0;
    if (journal) {
      // the window keeps the newest 10,000; what the run wrote beyond them was dropped, counted
      const page = JSON.parse((await fetchBytes(`${serve.url}/api/v2/sandbox/requests?limit=1`, { headers: auth })).toString()) as { dropped: number };
      entries = page.dropped;
    }
    await serve.stop();
    return { get, post, entries };
  }

  console.log(`journal: ${connections} connections, ${durationMs / 1000} s each after a ${warmupMs / 1000} s warm-up; GET one charge, POST a pix charge`);
  const order = [false, true, true, false, false, true];
  const runs: Awaited<ReturnType<typeof side>>[] = [];
  for (const journal of order) runs.push(await side(journal));
  const median = (pick: (r: (typeof runs)[number]) => LoadResult, journal: boolean) => {
    const rates = runs.filter((_, i) => order[i] === journal).map((r) => pick(r).rps).sort((a, b) => a - b);
    return rates[Math.floor(rates.length / 2)] as number;
  };
  const line = (label: string, result: LoadResult) => console.log(`    ${label.padEnd(18)} ${describe(result)}`);
  for (const [name, pick] of [['GET /api/v2/invoices/{secureId}', (r: (typeof runs)[number]) => r.get], ['POST /api/v2/invoices', (r: (typeof runs)[number]) => r.post]] as const) {
    console.log(`  ${name}`);
    runs.forEach((r, i) => line(order[i] ? 'journal on' : 'journal off', pick(r)));
    const ratio = median(pick, true) / median(pick, false);
    console.log(`    ratio ${ratio.toFixed(2)}× (journal on ÷ off, medians of three runs each; goal ≥ ${GOAL}×): ${ratio >= GOAL ? 'met' : 'NOT met'}`);
  }
  console.log(`  entries dropped from the window in the first on run (beyond the 10,000 kept): ${runs[1]?.entries.toLocaleString('en-US')}`);
});
