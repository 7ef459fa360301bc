// `pinvoice sandbox scenarios`: the magic values that decide outcomes, as the server lists them.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import { orDash } from '../../cli/render/format.js';
import { gridTable, keep, section } from '../../cli/render/table.js';
import { safeData } from '../../cli/render/safe-text.js';
import type { ScenariosFlags } from './index.js';

export async function scenarios(flags: ScenariosFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const { raw, list } = await client.scenarios();
  if (out.json) return out.jsonData(raw);
  const rows = safeData(list).map((s) => [orDash(s.kind), orDash(s.value), orDash(s.outcome)]);
  out.data(section('Sandbox scenarios', gridTable([keep('kind'), 'send', 'outcome'], rows, out.palette), out.palette));
}
