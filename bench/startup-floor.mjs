// The least any `invoice get <id> --json` built on commander can cost, for bench/startup.ts to set
// beside ours: Node loads commander, declares one command, parses the line, reads the stored profile
// and makes one GET over node:http (as src/client/get-text.ts does), printing the record. Nothing of
// pinvoice is loaded. Run as: node bench/startup-floor.mjs invoice get <id> --json, with
// PINVOICE_CONFIG_DIR holding the profile `pinvoice login` stored.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const { Command } = createRequire(import.meta.url)('commander');
const program = new Command('pinvoice');
program.command('invoice').command('get').argument('<ref>').option('--json').action((ref) => {
  const config = JSON.parse(readFileSync(join(process.env.PINVOICE_CONFIG_DIR ?? '', 'config.json'), 'utf8'));
  const profile = config.profiles[config.current];
  const url = new URL(`/api/v2/invoices/${encodeURIComponent(ref)}`, profile.baseUrl);
  http.get(url, { headers: { authorization: `Bearer ${profile.token}` } }, (answer) => {
    let body = '';
    answer.setEncoding('utf8').on('data', (chunk) => (body += chunk));
    answer.on('end', () => {
      if (answer.statusCode !== 200) throw new Error(`GET ${url} answered ${answer.statusCode}: ${body}`);
      process.stdout.write(`${JSON.stringify(JSON.parse(body), null, 2)}\n`);
      process.exit(0);
    });
  });
});
program.parse();
