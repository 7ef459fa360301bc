// The list sections of a charge: items, refunds, financial movements and the status timeline. Only
// renderTransaction calls them, with a record it has already made safe (safeData, once per render).
import type { FinancialMovement, Refund, ResponseItem, TimelineEntry } from '../../api/schemas.js';
import type { Palette } from './colour.js';
import { dateTime, money, orDash, signedMoney, yesNo } from './format.js';
import { gridTable, keep, right, section } from './table.js';
import { terminalWidth } from './width.js';

const BALANCE_LABELS: Record<FinancialMovement['balance'], string> = {
  balance_pix: 'pix',
  balance_card: 'card',
  balance_bank_slip: 'boleto',
};

/** Items always get a section, so "no items" is said rather than left to be guessed from a gap. */
export function renderItems(items: readonly ResponseItem[], palette: Palette, width = terminalWidth()): string {
  if (items.length === 0) return section('Items', palette.dim('no items'), palette);
  const rows = items.map((item) => [
    item.title,
    right(String(item.quantity)),
    right(money(item.unitPrice)),
    right(money(item.unitPrice * item.quantity)),
    yesNo(item.tangible),
  ]);
  const quantity = items.reduce((sum, item) => sum + item.quantity, 0);
  const total = items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  rows.push([palette.bold('total'), right(String(quantity)), '', right(palette.bold(money(total))), '']);
  const head = ['title', keep('quantity'), keep('unit price'), keep('line total'), keep('tangible')];
  return section('Items', gridTable(head, rows, palette, width), palette);
}

export function renderRefunds(refunds: readonly Refund[], palette: Palette, width = terminalWidth()): string | null {
  if (refunds.length === 0) return null;
  const rows = refunds.map((refund) => [
    String(refund.id),
    right(money(refund.amount)),
    orDash(refund.reason),
    dateTime(refund.createdAt),
  ]);
  return section('Refunds', gridTable([keep('id'), keep('amount'), 'reason', keep('at')], rows, palette, width), palette);
}

export function renderMovements(movements: readonly FinancialMovement[], palette: Palette, width = terminalWidth()): string | null {
  if (movements.length === 0) return null;
  const rows = movements.map((movement) => {
    const amount = signedMoney(movement.amount);
    return [
      movement.type.replace('_', ' '),
      BALANCE_LABELS[movement.balance],
      right(movement.amount < 0 ? palette.bad(amount) : palette.ok(amount)),
      orDash(movement.description),
      dateTime(movement.createdAt),
    ];
  });
  const head = [keep('type'), keep('balance'), keep('amount'), 'description', keep('at')];
  return section('Financial movements', gridTable(head, rows, palette, width), palette);
}

/** With a `by` column when the server says who made the changes (pinvoice serve names each token). */
export function renderTimeline(timeline: readonly TimelineEntry[], palette: Palette, width = terminalWidth()): string | null {
  if (timeline.length === 0) return null;
  const named = timeline.some((entry) => entry.by !== undefined);
  const rows = timeline.map((entry) => [
    dateTime(entry.at), palette.status(entry.status), orDash(entry.note), ...(named ? [entry.by ?? 'server'] : []),
  ]);
  const head = [keep('at'), keep('status'), 'note', ...(named ? [keep('by')] : [])];
  return section('Timeline', gridTable(head, rows, palette, width), palette);
}
