// `pinvoice invoice get`: the support view of a charge; with --watch, polls until it reaches a final
// status and exits by how it ended (0 paid, 7 not paid, 8 still open at --timeout).
import { spokenSeconds } from '../../base/spoken-duration.js';
import { connect, whereOf } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import { displayWidth } from '../../cli/render/width.js';
import type { TransactionView } from '../../client/read/transaction.js';
import type { GetFlags } from './index.js';
import { findCharge } from './find.js';
import { pixQr, postbacksOf, show } from './show.js';

/** How long --watch watches when --timeout is not given. */
const WATCH_SECONDS = 300;

/**
 * While watching a pending pix charge the payer scans it: what it pays and its code come first, then its
 * QR, the last thing before the spinner, so that the QR stays whole on screen while the lines above it
 * may scroll away. With the spinner on the same terminal, the QR's last line (its bottom quiet zone,
 * nothing else) is left for the spinner to draw, with itself beside it: a 24-line QR and the spinner
 * then fit an 80×24 terminal together. Answers whether the QR was shown, and that line.
 */
async function showPixWhileWaiting(out: Output, tx: TransactionView, flags: GetFlags, spinner: boolean): Promise<{ shown: boolean; spinnerLine?: string }> {
  if (out.json || !tx.pix || tx.status !== 'pending') return { shown: false };
  const qr = await pixQr(out, tx, flags.qr);
  if (qr === undefined) return { shown: false };
  const { renderPayment } = await import('../../cli/render/transaction-payment.js');
  out.data(renderPayment(tx, out.palette, undefined, true) ?? tx.pix.code);
  // beside the QR, the spinner needs room for "⠋ pending (12 s)"; on a narrower terminal it goes below
  const besideSpinner = spinner && out.stdoutIsTTY && (process.stderr.columns ?? 80) >= displayWidth(qr[0] ?? '') + 20;
  out.drawing((besideSpinner ? qr.slice(0, -1) : qr).join('\n'));
  return besideSpinner ? { shown: true, spinnerLine: qr.at(-1) } : { shown: true };
}

export async function getInvoice(id: string, flags: GetFlags): Promise<void> {
  const out = createOutput(flags);
  // --timeout is the watch's when watching; each request then has the default budget
  const { client, connection } = await connect(flags.watch ? { ...flags, timeout: undefined } : flags);
  let tx = await findCharge(client, id, out, whereOf(connection));
  if (!flags.watch) return show(out, tx, { ...flags, baseUrl: connection.baseUrl }, await postbacksOf(client, tx, out));
  const { watchInvoice } = await import('./watch.js');
  const seconds = flags.timeout ?? WATCH_SECONDS;
  const spinner = process.stderr.isTTY === true;
  const { shown, spinnerLine } = await showPixWhileWaiting(out, tx, flags, spinner);
  const result = await watchInvoice(client, tx, { timeoutMs: seconds * 1000, intervalMs: flags.interval * 1000, spinner, prefix: spinnerLine });
  tx = result.tx;
  await show(out, tx, { ...flags, qr: shown ? false : (flags.qr ?? false), baseUrl: connection.baseUrl }, await postbacksOf(client, tx, out));
  const status = tx.status ?? 'without a status';
  if (result.timedOut) throw new CliError(`still ${status} after ${spokenSeconds(seconds)} (--timeout)`, EXIT.watchTimeout);
  if (tx.status !== 'paid') throw new CliError(`the charge ended ${status}${tx.refusedReason ? ` (${tx.refusedReason})` : ''}`, EXIT.notPaid);
}
