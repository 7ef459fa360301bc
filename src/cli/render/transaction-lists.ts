// The list sections of a charge: items, refunds, financial movements and the status timeline. Only
// renderTransaction calls them, with a record it has already made safe (safeData, once per render).
import type { ItemView, MovementView, RefundView, TimelineView } from '../../client/read/transaction.js';
import { statusLabel, type Palette } from './colour.js';
import { amount, dateTime, orDash, signedMoney, timesIn, yesNo } from './format.js';
import { gridTable, keep, right, section } from './table.js';
import { terminalWidth } from './width.js';

const BALANCE_LABELS: Readonly<Record<string, string>> = {
  balance_pix: 'pix',
  balance_card: 'card',
  balance_bank_slip: 'boleto',
};

/** An item's line total when both its quantity and unit price are whole numbers, else "—". */
const lineTotal = (item: ItemView) =>
  typeof item.unitPrice === 'number' && item.quantity !== undefined ? item.unitPrice * item.quantity : undefined;

/** Items always get a section, so "no items" is said rather than left to be guessed from a gap. */
export function renderItems(items: readonly ItemView[], palette: Palette, width = terminalWidth()): string {
  if (items.length === 0) return section('Items', palette.dim('no items'), palette);
  const rows = items.map((item) => [
    orDash(item.title),
    right(orDash(item.quantity)),
    right(amount(item.unitPrice)),
    right(amount(lineTotal(item))),
    yesNo(item.tangible),
  ]);
  // totals only over what can be added up: every quantity and line total known
  const totals = items.map(lineTotal);
  const quantities = items.map((item) => item.quantity);
  const sum = (values: (number | undefined)[]) => (values.every((v) => v !== undefined) ? values.reduce<number>((a, b) => a + (b ?? 0), 0) : undefined);
  const quantity = sum(quantities);
  const total = sum(totals);
  rows.push([palette.bold('total'), right(orDash(quantity)), '', right(palette.bold(amount(total))), '']);
  const head = ['title', keep('quantity'), keep('unit price'), keep('line total'), keep('tangible')];
  return section('Items', gridTable(head, rows, palette, width), palette);
}

export function renderRefunds(refunds: readonly RefundView[], palette: Palette, width = terminalWidth()): string | null {
  if (refunds.length === 0) return null;
  const rows = refunds.map((refund) => [
    orDash(refund.id),
    right(amount(refund.amount)),
    orDash(refund.reason),
    dateTime(refund.at),
  ]);
  return section('Refunds', gridTable([keep('id'), keep('amount'), 'reason', keep('at')], rows, palette, width), palette);
}

export function renderMovements(movements: readonly MovementView[], palette: Palette, width = terminalWidth()): string | null {
  if (movements.length === 0) return null;
  const rows = movements.map((movement) => {
    const value = movement.amount;
    const shown = typeof value === 'number' ? (value < 0 ? palette.bad(signedMoney(value)) : palette.ok(signedMoney(value))) : amount(value);
    const balance = movement.balance;
    return [
      orDash(movement.type?.replace('_', ' ')),
      balance === undefined ? '—' : Object.hasOwn(BALANCE_LABELS, balance) ? BALANCE_LABELS[balance]! : balance,
      right(shown),
      orDash(movement.description),
      dateTime(movement.at),
    ];
  });
  const head = [keep('type'), keep('balance'), keep('amount'), 'description', keep('at')];
  return section('Financial movements', gridTable(head, rows, palette, width), palette);
}

/** With a `by` column when the server says who made the changes (pinvoice serve names each token). */
export function renderTimeline(timeline: readonly TimelineView[], palette: Palette, width = terminalWidth()): string | null {
  if (timeline.length === 0) return null;
  const named = timeline.some((entry) => entry.by !== undefined);
  const rows = timeline.map((entry) => [
    dateTime(entry.at), statusLabel(entry.status, palette), entry.note === undefined ? '—' : timesIn(entry.note), ...(named ? [entry.by ?? 'server'] : []),
  ]);
  const head = [keep('at'), keep('status'), 'note', ...(named ? [keep('by')] : [])];
  return section('Timeline', gridTable(head, rows, palette, width), palette);
}
