// Start-up cost of the built CLI against bare Node in the same run: `pinvoice --version`, a
// subcommand's --help, and `profile list` (conf loaded) against `node -e 0`. Prints ratios.
//   npm run bench   (builds first; or: npx tsx bench/startup.ts [runs])
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.argv[2] ?? 15);
const BIN = new URL('../bin/pinvoice.js', import.meta.url).pathname;
const env = { PATH: process.env.PATH, PINVOICE_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'pinvoice-bench-')), NO_COLOR: '1' };

function median(args: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

const node = median(['-e', '0']);
console.log(`startup (median of ${RUNS}): node -e 0 takes ${node.toFixed(0)} ms`);
for (const args of [['--version'], ['invoice', 'get', '--help'], ['profile', 'list']]) {
  const ours = median([BIN, ...args]);
  console.log(`  pinvoice ${args.join(' ')}: ${ours.toFixed(0)} ms, ratio ${(ours / node).toFixed(2)}× node`);
}
