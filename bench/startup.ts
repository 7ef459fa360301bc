// Start-up cost of the built CLI against bare Node in the same run: `pinvoice --version`, a
// subcommand's --help, `profile list` and `invoice get <secureId> --json` (against a real
// `pinvoice serve` on a free port, the profile stored by `pinvoice login`) against `node -e 0`, each
// run in turn in every round so that a busy machine weighs on all alike. Prints each median and ratio,
// with its goal where there is one. Twice: in a clean environment (no NODE_OPTIONS,
// NODE_EXTRA_CA_CERTS…), where anything Node does at start-up for every process cannot raise the
// baseline and flatter the ratios; and in the environment the bench was started in, as a user's shell
// runs the CLI (on this machine NODE_EXTRA_CA_CERTS adds ~45 ms to every Node start, node -e 0 included).
//   npm run bench   (builds first; or: npx tsx bench/startup.ts [rounds])
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROUNDS = Number(process.argv[2] ?? 21);
const BIN = new URL('../bin/pinvoice.js', import.meta.url).pathname;
const FLOOR = new URL('./startup-floor.mjs', import.meta.url).pathname;
const TOKEN = 'pinv_test_bench_token_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'pinvoice-bench-'));
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, PINVOICE_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' };
const inherited: NodeJS.ProcessEnv = { ...process.env, ...env };
for (const name of Object.keys(inherited)) if (name.startsWith('PINVOICE_') && !(name in env)) delete inherited[name];

/** `pinvoice serve` on a free port with a throwaway database; resolves with its URL once it listens. */
function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', ':memory:', '--token', TOKEN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`pinvoice serve exited ${code}: ${err}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /^listening on (http:\/\/\S+)$/m.exec(out)?.[1];
      if (url) resolve({ url, stop: () => child.kill() });
    });
  });
}

function run(args: string[], input?: string, environment: NodeJS.ProcessEnv = env): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { env: environment, input, stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.toString()}`);
  return performance.now() - started;
}

const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;

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
  if (!created.ok) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const { secureId } = ((await created.json()) as { data: { secureId: string } }).data;
  run([BIN, 'login', '--profile', 'bench', '--base-url', server.url, '--token-stdin'], TOKEN);

  const cases: { label: string; args: string[]; goal?: number }[] = [
    { label: 'node -e 0', args: ['-e', '0'] },
    { label: 'pinvoice --version', args: [BIN, '--version'], goal: 1.3 },
    { label: 'pinvoice invoice get --help', args: [BIN, 'invoice', 'get', '--help'] },
    { label: 'pinvoice profile list', args: [BIN, 'profile', 'list'] },
    { label: `pinvoice invoice get ${secureId} --json`, args: [BIN, 'invoice', 'get', secureId, '--json'], goal: 1.6 },
    // the least a commander CLI pays for the same lookup (see its header): what is above it is ours
    { label: 'floor: commander, one command, the profile, one GET over node:http', args: [FLOOR, 'invoice', 'get', secureId, '--json'] },
  ];
  const measure = (title: string, environment: NodeJS.ProcessEnv) => {
    const times = cases.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) cases.forEach(({ args }, i) => times[i]?.push(run(args, undefined, environment)));
    const node = median(times[0] ?? []);
    console.log(`startup, ${title} (median of ${ROUNDS} rounds): node -e 0 takes ${node.toFixed(0)} ms`);
    cases.slice(1).forEach(({ label, goal }, i) => {
      const ours = median(times[i + 1] ?? []);
      const ratio = ours / node;
      const verdict = goal === undefined ? '' : ` (goal ≤ ${goal.toFixed(1)}×: ${ratio <= goal ? 'met' : 'NOT met'})`;
      console.log(`  ${label}: ${ours.toFixed(0)} ms, ratio ${ratio.toFixed(2)}× node${verdict}`);
    });
  };
  measure('clean environment', env);
  const extra = ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS'].filter((name) => inherited[name]);
  measure(`this shell's environment${extra.length > 0 ? ` (with ${extra.join(', ')})` : ''}`, inherited);
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
