// One sandbox action on a charge; shows the record the server answers, like `invoice get`.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import type { SandboxAction } from '../../domain/status.js';
import { show, showReceipt, wantsReceipt } from '../invoice/show.js';
import { IRREVERSIBLE, type SandboxFlags } from './index.js';

const QUESTION: Partial<Record<SandboxAction, string>> = {
  cancel: 'Cancel charge %s? Its payer can no longer pay it; this cannot be undone.',
  chargeback: 'Charge back charge %s? The amount is taken back from the balance; this cannot be undone.',
};

export async function drive(action: SandboxAction, id: string, flags: SandboxFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  if (IRREVERSIBLE.has(action)) {
    const [{ confirmAction }, { safeText }] = await Promise.all([import('../../cli/prompts/confirm.js'), import('../../cli/render/safe-text.js')]);
    await confirmAction((QUESTION[action] ?? `${action} charge %s?`).replace('%s', safeText(id.trim())), flags);
  }
  const tx = await client.sandbox(id, action);
  if (!wantsReceipt(out, flags)) return show(out, tx, { qr: false });
  const { actionReceipt } = await import('../../cli/render/charge-receipt.js');
  await showReceipt(out, tx, actionReceipt(tx, action, { sandbox: true, connection: flags }), false);
}
