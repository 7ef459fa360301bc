// The receipts of the commands that change a charge (create, refund, a sandbox action): what was done,
// on one line, the little that matters next to it, and the command to run next. `--full` and piped
// output show the whole record instead (show.ts).
import { invocation } from '../invocation.js';
import type { TransactionView } from '../../client/read/transaction.js';
import { formatDigitableLine } from '../../domain/boleto.js';
import { amount, dateTime, money } from './format.js';
import { commandFor, createdLine, nextSteps, shellWord, type NextStepContext, type Step } from './next-step.js';
import type { Receipt, ReceiptPayment } from './receipt.js';
import { safeData, safeText } from './safe-text.js';
import { fromNow } from './time.js';
import { chargeName, maskedCard, pixPayable } from './transaction-payment.js';

const wholeRecord = (tx: TransactionView, context: NextStepContext): Step[] =>
  tx.ref === undefined ? [] : [{ command: commandFor('get', tx.ref, context), note: 'the whole record' }];

/** "expires 2026-11-25 20:38:17 -03:00 (in 59 min)", "fee R$ 0,99 · net R$ 24,01", "card 411111 •••• 1111": what matters next. */
function details(tx: TransactionView): string[] {
  const lines: string[] = [];
  if (tx.expiresAt !== undefined && pixPayable(tx.status) && tx.status !== undefined) {
    const distance = fromNow(tx.expiresAt);
    lines.push(`expires ${dateTime(tx.expiresAt)}${distance === undefined ? '' : ` (${distance})`}`);
  }
  if (tx.status === 'waiting_3ds') lines.push("3-D Secure: waiting for the payer's authentication");
  if (tx.card !== undefined && tx.status !== 'waiting_3ds') lines.push(`card ${maskedCard(tx.card)}${tx.card.brand === undefined ? '' : ` (${tx.card.brand})`}`);
  const fee = tx.fee;
  if (tx.status === 'paid' && fee?.estimatedFee !== undefined) lines.push(`fee ${amount(fee.estimatedFee)}${fee.netAmount === undefined ? '' : ` · net ${amount(fee.netAmount)}`}`);
  return lines;
}

function payment(tx: TransactionView): ReceiptPayment | undefined {
  if (tx.pix !== undefined && pixPayable(tx.status)) {
    const whole = tx.ref === undefined ? undefined : `(folded here; whole, on one line: ${invocation()} invoice get ${shellWord(tx.ref)})`;
    return { label: 'pix copy-and-paste code:', value: tx.pix.code, whole };
  }
  const line = tx.boleto?.line;
  if (line === undefined || tx.status !== 'pending') return undefined;
  const due = tx.boleto?.dueDate === undefined ? '' : ` (due ${tx.boleto.dueDate})`;
  return { label: `boleto line${due}:`, value: formatDigitableLine(line) };
}

/** `invoice create`: "Created pix charge 12 (INV-…) R$ 25,00 — pending", the code or line to pay, and the next step. */
export function createdReceipt(record: TransactionView, context: NextStepContext): Receipt {
  const tx = safeData({ ...record, raw: undefined });
  const next = nextSteps(tx, context);
  return { summary: [createdLine(tx), ...details(tx)], payment: payment(tx), next: next.length === 0 ? wholeRecord(tx, context) : next };
}

const DONE: Readonly<Record<string, string>> = { pay: 'Paid', expire: 'Expired', cancel: 'Canceled', chargeback: 'Charged back' };

/** `sandbox pay|expire|cancel|chargeback`: "Paid charge 12 (INV-…) R$ 25,00 — paid", its fee, and where the whole record is. */
export function actionReceipt(record: TransactionView, action: string, context: NextStepContext): Receipt {
  const tx = safeData({ ...record, raw: undefined });
  const verb = Object.hasOwn(DONE, action) ? DONE[action] : safeText(action);
  const price = tx.amount === undefined ? '' : ` ${amount(tx.amount)}`;
  return { summary: [`${verb} charge ${chargeName(tx)}${price} — ${tx.status ?? 'status not given'}`, ...details(tx)], next: wholeRecord(tx, context) };
}

/** `invoice refund`: "Refunded R$ 5,00 of charge 12 (INV-…) — partially_refunded", and what is left. */
export function refundReceipt(record: TransactionView, context: NextStepContext): Receipt {
  const tx = safeData({ ...record, raw: undefined });
  const latest = tx.refunds.at(-1);
  const what = latest?.amount === undefined ? 'Refunded' : `Refunded ${amount(latest.amount)} of`;
  const summary = [`${what} charge ${chargeName(tx)} — ${tx.status ?? 'status not given'}`];
  if (typeof tx.amount === 'number' && typeof tx.refundedAmount === 'number') {
    summary.push(`refunded ${money(tx.refundedAmount)} of ${money(tx.amount)} in all; ${money(tx.amount - tx.refundedAmount)} left`);
  }
  if (latest?.reason !== undefined) summary.push(`reason: ${latest.reason}`);
  return { summary, next: wholeRecord(tx, context) };
}
