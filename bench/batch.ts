// `invoice create --batch` throughput: the built binary, at its default concurrency, sending an NDJSON
// file of pix charges to `pinvoice serve`, against the server's own create rate under the load
// generator with as many connections, in the same run. Each runs on a new database of its own serve,
// warmed by the same second of creates first, so that both start alike. Prints both rates, the ratio,
// where the CPU went, and the goal line (≥ 1,000 invoices/s); informational: exits 0 unless a request
// or a line failed.
// The goal is for a cold 2,000-line file: the CLI's start-up and its code's warm-up are in the time,
// as they are for a user's file (20,000 lines amortise them: --lines 20000).
//   npm run bench   (builds first; or: npx tsx bench/batch.ts [--lines 2000] [--duration 5] [--warmup 1])
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { cpu, describe, int, LoadWorker, type RequestSpec } from './load.js';
import { cpuSeconds, endedChildrenCpuSeconds } from './proc.js';
import { atExit, BIN, main, PIX_CHARGE, startServe, tempDir, TOKEN } from './serve-process.js';
import { DEFAULT_CONCURRENCY } from '../src/commands/invoice/batch-flags.js';

const GOAL = 1000;
/** the batch's default --concurrency, and so the load generator's connections */
const CONCURRENCY = DEFAULT_CONCURRENCY;

const { values: flags } = parseArgs({ options: { lines: { type: 'string', default: '2000' }, duration: { type: 'string', default: '5' }, warmup: { type: 'string', default: '1' } } });
const LINES = Number(flags.lines);
const durationMs = Number(flags.duration) * 1000;
const warmupMs = Number(flags.warmup) * 1000;
if (!(Number.isInteger(LINES) && LINES >= 1000 && durationMs > 0 && warmupMs > 0)) throw new Error('--lines ≥ 1000, --duration > 0 and --warmup > 0 (seconds)');

/** Runs the batch to its end: wall time, the CPU it and the serve used, and its summary line. */
async function runBatch(file: string, out: string, serve: { url: string; pid: number }, dir: string) {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, PINVOICE_CONFIG_DIR: `${dir}/config`, PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: serve.url, NO_COLOR: '1' };
  const before = { batch: endedChildrenCpuSeconds(), serve: cpuSeconds(serve.pid) };
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, 'invoice', 'create', '--batch', file, '--out', out], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const seconds = (Date.now() - started) / 1000;
  if (code !== 0) throw new Error(`invoice create --batch exited ${code}:\n${stderr.slice(-2000)}`);
  const used = (now: number | undefined, then: number | undefined) => (now === undefined || then === undefined ? undefined : (now - then) / seconds);
  const summary = stderr.split('\n').find((line) => line.startsWith(`batch: ${int(LINES)} lines`)) ?? '(no summary line)';
  return { seconds, summary, batchCpu: used(endedChildrenCpuSeconds(), before.batch), serveCpu: used(cpuSeconds(serve.pid), before.serve) };
}

await main(async () => {
  const dir = tempDir();
  const charge = JSON.parse(PIX_CHARGE) as Record<string, unknown>;
  const file = `${dir}/charges.ndjson`;
  writeFileSync(file, Array.from({ length: LINES }, (_, i) => `${JSON.stringify({ ...charge, external_id: `bench-${i + 1}` })}\n`).join(''));
  const worker = LoadWorker.start();
  atExit(() => worker.close());
  const post = (url: string): RequestSpec => ({ method: 'POST', url: `${url}/api/v2/invoices`, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: PIX_CHARGE });
  const warm = (url: string) => worker.load('warm-up', post(url), { connections: CONCURRENCY, warmupMs: 0, durationMs: warmupMs });

  const own = await startServe(`${dir}/own.db`);
  await warm(own.url);
  const server = await worker.load('POST pinvoice serve', post(own.url), { connections: CONCURRENCY, warmupMs: 0, durationMs, watchPid: own.pid });
  await own.stop();

  const batched = await startServe(`${dir}/batch.db`);
  await warm(batched.url);
  const batch = await runBatch(file, `${dir}/results.ndjson`, batched, dir);
  await batched.stop();
  const created = readFileSync(`${dir}/results.ndjson`, 'utf8').split('\n').filter((line) => line.includes('"ok":true')).length;
  if (created !== LINES) throw new Error(`the batch answered ${created} lines ok of ${LINES}`);

  const rate = LINES / batch.seconds;
  console.log(`batch: a file of ${int(LINES)} pix charges, at the default --concurrency (${CONCURRENCY}); each side on a new database, its serve warmed by ${warmupMs / 1000} s of creates`);
  console.log(`  the server's own create rate (load generator, ${CONCURRENCY} connections, ${durationMs / 1000} s)`);
  console.log(`    pinvoice serve         ${describe(server)}`);
  console.log('  invoice create --batch (the built binary, start to exit)');
  console.log(`    ${int(rate).padStart(7)} invoices/s  ${batch.seconds.toFixed(1)} s  (cpu: server ${cpu(batch.serveCpu)}, batch ${cpu(batch.batchCpu)})`);
  console.log(`    its own summary: ${batch.summary}`);
  console.log(`  ratio ${(rate / server.rps).toFixed(2)}× the server's own rate`);
  console.log(`batch: ${int(rate)} invoices/s (goal ≥ ${int(GOAL)}/s: ${rate >= GOAL ? 'met' : 'NOT met'})`);
});
