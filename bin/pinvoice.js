#!/usr/bin/env node
// `pinvoice --version`, which scripts and installers run most, is answered here: every further ES
// module costs about 2 ms against `node -e 0`'s 28 (bench/startup.ts), and this one is already loaded.
// Everything else is dist/main.js (src/main.ts).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // a reader that closes the pipe early (`| head -c1`) ends it quietly, exit 0, as src/main.ts does
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // `pinvoice serve --memory lean` keeps its heap lean from the first module on: what grows the young
  // generation while it starts is never given back (src/base/lean-heap.ts; serve's action calls it again)
  const memory = args.findLast((arg, i) => arg.startsWith('--memory=') || args[i - 1] === '--memory');
  if (args[0] === 'serve' && (memory === 'lean' || memory === '--memory=lean')) (await import('../dist/base/lean-heap.js')).keepHeapLean();
  await import('../dist/main.js');
}
