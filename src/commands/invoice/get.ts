// `pinvoice invoice get`: the support view of a charge; with --watch, polls until it leaves
// pending/waiting_3ds and exits by how it ended (0 paid, 7 not paid, 8 still waiting at --timeout).
import type { Transaction } from '../../api/schemas.js';
import { connect } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import type { GetFlags } from './index.js';
import { postbacksOf, show } from './show.js';
import { watchInvoice } from './watch.js';

/**
 * While watching a pending pix charge, its QR and code come first, before the spinner: the payer
 * scans them during the wait. Answers whether they were shown, so the final record leaves them out.
 */
async function showPixWhileWaiting(out: Output, tx: Transaction, flags: GetFlags): Promise<boolean> {
  if (out.json || !tx.pix || tx.status !== 'pending' || !(flags.qr ?? out.stdoutIsTTY)) return false;
  const [{ renderQr }, { renderPayment }] = await Promise.all([import('../../cli/render/qr.js'), import('../../cli/render/transaction-payment.js')]);
  out.data(renderPayment(tx, renderQr(tx.pix.qrCode), out.palette) ?? tx.pix.qrCode);
  return true;
}

export async function getInvoice(id: string, flags: GetFlags): Promise<void> {
  const out = createOutput(flags);
  const { client, connection } = await connect(flags);
  let tx = await client.getInvoice(id.trim());
  if (!flags.watch) return show(out, tx, { ...flags, baseUrl: connection.baseUrl }, await postbacksOf(client, tx, out));
  const shown = await showPixWhileWaiting(out, tx, flags);
  const result = await watchInvoice(client, tx, { timeoutMs: flags.timeout * 1000, intervalMs: flags.interval * 1000, spinner: process.stderr.isTTY === true });
  tx = result.tx;
  await show(out, tx, { ...flags, qr: shown ? false : (flags.qr ?? false), baseUrl: connection.baseUrl }, await postbacksOf(client, tx, out));
  if (result.timedOut) throw new CliError(`still ${tx.status} after ${flags.timeout} s (--timeout)`, EXIT.watchTimeout);
  if (tx.status !== 'paid') throw new CliError(`the charge ended ${tx.status}${tx.refusedReason ? ` (${tx.refusedReason})` : ''}`, EXIT.notPaid);
}
