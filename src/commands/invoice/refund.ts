// `pinvoice invoice refund`: a paid charge refunded wholly or in part; shows the record it answers.
// On a terminal it first says what will be refunded, to whom, and asks (--yes skips). Where nothing can
// ask (a script, a pipe, cron) it refunds only with --yes: against the production gateway a refund is
// real money, and a script should say that it means it (gh's convention for destructive commands).
import { connect } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { inUserTerms } from '../../cli/field-errors.js';
import { createOutput } from '../../cli/output.js';
import type { Client } from '../../client/index.js';
import { amountFlag } from './amount-flag.js';
import type { RefundFlags } from './index.js';
import { show, showReceipt, wantsReceipt } from './show.js';

/** "Refund R$ 100,00 (all that is left) of charge 12 (INV-…, Fulano de Tal)? This cannot be undone." */
async function question(client: Client, id: string, amount: number | undefined): Promise<string> {
  const [{ money }, { safeText }] = await Promise.all([import('../../cli/render/format.js'), import('../../cli/render/safe-text.js')]);
  const tx = await client.getInvoice(id);
  const left = typeof tx.amount === 'number' ? tx.amount - (typeof tx.refundedAmount === 'number' ? tx.refundedAmount : 0) : undefined;
  const what = amount !== undefined ? money(amount) : left !== undefined ? `${money(left)} (all that is left)` : 'all that is left';
  const whose = [tx.secureId, tx.payer?.name].filter((part): part is string => Boolean(part)).map((part) => safeText(part));
  return `Refund ${what} of charge ${safeText(id.trim())}${whose.length ? ` (${whose.join(', ')})` : ''}? This cannot be undone.`;
}

export async function refundInvoice(id: string, flags: RefundFlags): Promise<void> {
  const amount = flags.amount === undefined ? undefined : amountFlag(flags.amount, '--amount');
  const out = createOutput(flags);
  const { canAsk, confirmAction } = await import('../../cli/prompts/confirm.js');
  if (!flags.yes && !canAsk()) throw usageError('a refund without a terminal to confirm it on needs --yes (a script, a pipe, cron): nothing was sent');
  const { client } = await connect(flags);
  if (!flags.yes) await confirmAction(await question(client, id, amount), flags);
  const body = { ...(amount !== undefined && { amount_cents: amount }), ...(flags.reason && { reason: flags.reason }) };
  // the server's 422 names amount_cents in cents: said back as --amount, in reais
  const terms = { flagOf: (path: string) => ({ amount_cents: '--amount', reason: '--reason' })[path], sent: body };
  const tx = await client.refund(id, body, flags.idempotencyKey).catch((error: unknown) => Promise.reject(inUserTerms(error, terms)));
  if (!wantsReceipt(out, flags)) return show(out, tx, { qr: false });
  const { refundReceipt } = await import('../../cli/render/charge-receipt.js');
  await showReceipt(out, tx, refundReceipt(tx, { sandbox: false, connection: flags }), false);
}
