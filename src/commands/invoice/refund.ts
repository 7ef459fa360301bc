// `pinvoice invoice refund`: a paid charge refunded wholly or in part; shows the record it answers.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import { amountFlag } from './amount-flag.js';
import type { RefundFlags } from './index.js';
import { show } from './show.js';

export async function refundInvoice(id: string, flags: RefundFlags): Promise<void> {
  const amount = flags.amount === undefined ? undefined : amountFlag(flags.amount, '--amount');
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const tx = await client.refund(id, { ...(amount !== undefined && { amount_cents: amount }), ...(flags.reason && { reason: flags.reason }) }, flags.idempotencyKey);
  await show(out, tx, { qr: false });
}
