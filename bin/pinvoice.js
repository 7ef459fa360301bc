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
  await import('../dist/main.js');
}
