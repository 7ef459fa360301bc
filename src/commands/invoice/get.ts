// `pinvoice invoice get`: the support view of a charge; with --watch, polls until it reaches a final
// status and exits by how it ended (0 paid, 7 not paid, 8 still open at --timeout).
import { connect, whereOf } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import type { TransactionView } from '../../client/read/transaction.js';
import type { GetFlags } from './index.js';
import { findCharge } from './find.js';
import { postbacksOf, show } from './show.js';
import { watchInvoice } from './watch.js';

/** How long --watch watches when --timeout is not given. */
const WATCH_SECONDS = 300;

/**
 * While watching a pending pix charge, its QR and code come first, before the spinner: the payer
 * scans them during the wait. Answers whether they were shown, so the final record leaves them out.
 */
async function showPixWhileWaiting(out: Output, tx: TransactionView, flags: GetFlags): Promise<boolean> {
  if (out.json || !tx.pix || tx.status !== 'pending' || !(flags.qr ?? out.stdoutIsTTY)) return false;
  const [{ renderQr }, { renderPayment }] = await Promise.all([import('../../cli/render/qr.js'), import('../../cli/render/transaction-payment.js')]);
  out.data(renderPayment(tx, renderQr(tx.pix.code), out.palette) ?? tx.pix.code);
  return true;
}

export async function getInvoice(id: string, flags: GetFlags): Promise<void> {
  const out = createOutput(flags);
  // --timeout is the watch's when watching; each request then has the default budget
  const { client, connection } = await connect(flags.watch ? { ...flags, timeout: undefined } : flags);
  let tx = await findCharge(client, id, out, whereOf(connection));
  if (!flags.watch) return show(out, tx, { ...flags, baseUrl: connection.baseUrl }, await postbacksOf(client, tx, out));
  const seconds = flags.timeout ?? WATCH_SECONDS;
  const shown = await showPixWhileWaiting(out, tx, flags);
  const result = await watchInvoice(client, tx, { timeoutMs: seconds * 1000, intervalMs: flags.interval * 1000, spinner: process.stderr.isTTY === true });
  tx = result.tx;
  await show(out, tx, { ...flags, qr: shown ? false : (flags.qr ?? false), baseUrl: connection.baseUrl }, await postbacksOf(client, tx, out));
  const status = tx.status ?? 'without a status';
  if (result.timedOut) throw new CliError(`still ${status} after ${seconds} s (--timeout)`, EXIT.watchTimeout);
  if (tx.status !== 'paid') throw new CliError(`the charge ended ${status}${tx.refusedReason ? ` (${tx.refusedReason})` : ''}`, EXIT.notPaid);
}
