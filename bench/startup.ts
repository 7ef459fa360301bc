// Start-up cost of the built CLI against bare Node in the same run: `pinvoice --version`, a
// subcommand's --help, `profile list` and `invoice get <secureId> --json` (against a real
// `pinvoice serve` on a free port, the profile stored by `pinvoice login`) against `node -e 0`.
// Prints each ratio with its goal where there is one.
//   npm run bench   (builds first; or: npx tsx bench/startup.ts [runs])
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.argv[2] ?? 15);
const BIN = new URL('../bin/pinvoice.js', import.meta.url).pathname;
const TOKEN = 'pinv_test_bench_token_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'pinvoice-bench-'));
const env = { PATH: process.env.PATH, HOME: dir, PINVOICE_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' };

/** `pinvoice serve` on a free port with a throwaway database; resolves with its URL once it listens. */
function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', ':memory:', '--token', TOKEN], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`pinvoice serve exited ${code}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /^listening on (http:\/\/\S+)$/m.exec(out)?.[1];
      if (url) resolve({ url, stop: () => child.kill() });
    });
  });
}

function run(args: string[], input?: string): void {
  const result = spawnSync(process.execPath, args, { env, input, stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.toString()}`);
}

function median(args: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run(args);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

const server = await startServer();
try {
  // One pix charge over plain HTTP, and a profile pointing at the server, as a user would store it.
  const created = await fetch(`${server.url}/api/v2/invoices`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      method: 'pix', total_price_cents: 1990,
      payer: { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25' },
      items: [{ name: 'Camiseta', quantity: 1, unit_price: 1990 }],
    }),
  });
  if (created.status !== 200 && created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const { secureId } = ((await created.json()) as { data: { secureId: string } }).data;
  run([BIN, 'login', '--profile', 'bench', '--base-url', server.url, '--token-stdin'], TOKEN);

  const cases: { args: string[]; goal?: number }[] = [
    { args: ['--version'], goal: 1.3 },
    { args: ['invoice', 'get', '--help'] },
    { args: ['profile', 'list'] },
    { args: ['invoice', 'get', secureId, '--json'], goal: 2.0 },
  ];
  const node = median(['-e', '0']);
  console.log(`startup (median of ${RUNS}): node -e 0 takes ${node.toFixed(0)} ms`);
  for (const { args, goal } of cases) {
    const ours = median([BIN, ...args]);
    const ratio = ours / node;
    const verdict = goal === undefined ? '' : ` (goal ≤ ${goal.toFixed(1)}×: ${ratio <= goal ? 'met' : 'NOT met'})`;
    console.log(`  pinvoice ${args.join(' ')}: ${ours.toFixed(0)} ms, ratio ${ratio.toFixed(2)}× node${verdict}`);
  }
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
