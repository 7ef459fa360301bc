// `pinvoice profile list`: every profile, the current one marked, tokens masked.
import { readConfig } from '../../cli/config.js';
import { createOutput } from '../../cli/output.js';
import { maskToken } from '../../domain/secrets.js';
import type { ProfileListFlags } from './index.js';

export async function profileList(flags: ProfileListFlags): Promise<void> {
  const out = createOutput(flags);
  const config = await readConfig();
  const current = config.current();
  const rows = Object.entries(config.all()).map(([name, p]) => ({
    name,
    current: name === current,
    baseUrl: p.baseUrl,
    token: p.token ? maskToken(p.token) : null,
    company: p.company ?? null,
  }));
  if (out.json) return out.jsonData(rows);
  if (rows.length === 0) return out.message('No profiles yet: run `pinvoice login`.');
  const { renderProfiles } = await import('../../cli/render/profiles.js');
  out.data(renderProfiles(rows, out.palette));
}
