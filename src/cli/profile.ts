// `pinvoice profile list|use`: tokens are shown masked, never whole.
import { maskToken } from '../domain/secrets.js';
import { openConfig } from './config.js';
import type { CommonFlags } from './context.js';
import { CliError, EXIT } from './errors.js';
import { createOutput } from './output.js';

export async function profileList(flags: CommonFlags): Promise<void> {
  const out = createOutput(flags);
  const config = await openConfig();
  const current = config.current();
  const rows = Object.entries(config.all()).map(([name, p]) => ({
    name,
    current: name === current,
    baseUrl: p.baseUrl,
    token: p.token ? maskToken(p.token) : null,
  }));
  if (out.json) return out.jsonData(rows);
  if (rows.length === 0) return out.message('No profiles yet: run `pinvoice login`.');
  const { default: Table } = await import('cli-table3');
  const table = new Table({ head: ['', 'profile', 'base URL', 'token'], style: { head: [], border: [] } });
  for (const row of rows) table.push([row.current ? '*' : '', row.name, row.baseUrl, row.token ?? '(none)']);
  out.data(table.toString());
}

export async function profileUse(name: string, flags: CommonFlags): Promise<void> {
  const config = await openConfig();
  if (!config.get(name)) throw new CliError(`no profile "${name}" (see pinvoice profile list)`, EXIT.notFound);
  config.setCurrent(name);
  createOutput(flags).message(`Now using profile "${name}" (${config.get(name)?.baseUrl}).`);
}
