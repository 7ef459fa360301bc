// One sandbox action on a charge; shows the record the server answers, like `invoice get`.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import type { SandboxAction } from '../../domain/status.js';
import { show } from '../invoice/show.js';
import type { SandboxFlags } from './index.js';

export async function drive(action: SandboxAction, id: string, flags: SandboxFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  await show(out, await client.sandbox(id, action), { qr: false });
}
