// `pinvoice whoami` (and `company`): the company behind the token, balances included.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import type { WhoamiFlags } from './index.js';

export async function whoami(flags: WhoamiFlags): Promise<void> {
  const out = createOutput(flags);
  const { client, connection } = await connect(flags);
  const company = await client.company();
  if (out.json) return out.jsonData(company.raw);
  const { renderCompany } = await import('../../cli/render/company.js');
  out.message(`profile ${connection.profile} · ${connection.baseUrl}`);
  out.data(renderCompany(company, { palette: out.palette }));
}
