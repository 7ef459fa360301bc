// The payment section: what a payer needs to pay (pix code, boleto line) or what the card charge was.
import type { BoletoView, CardView, TransactionView } from '../../client/read/transaction.js';
import { formatDigitableLine } from '../../domain/boleto.js';
import { statusGroup } from '../../domain/status.js';
import type { Palette } from './colour.js';
import { amount, dateTime, orDash, yesNo } from './format.js';
import { safeData } from './safe-text.js';
import { dueFromToday, fromNow } from './time.js';
import { keyValueTable, section, type Row } from './table.js';
import { terminalWidth } from './width.js';

const THREE_DS_LABELS: Readonly<Record<string, (palette: Palette) => string>> = {
  not_required: (palette) => palette.dim('not required'),
  required: (palette) => palette.warn('required (awaiting authentication)'),
  authenticated: (palette) => palette.ok('authenticated'),
  failed: (palette) => palette.bad('failed'),
};

/** Only the first six and last four digits exist in the record; the rest is masked in between. */
export function maskedCard(card: Pick<CardView, 'firstDigits' | 'lastDigits'>): string {
  if (card.firstDigits === undefined && card.lastDigits === undefined) return '—';
  return `${card.firstDigits ?? ''} •••• ${card.lastDigits ?? ''}`.trim();
}

function cardRows(card: CardView, palette: Palette): Row[] {
  const secure = card.threeDSecure;
  return [
    ['brand', orDash(card.brand)],
    ['card', maskedCard(card)],
    ['holder', orDash(card.holder)],
    ['valid thru', orDash(card.validThru)],
    ['installments', orDash(card.installments)],
    ['tokenized', yesNo(card.tokenized)],
    ['3-D Secure', secure === undefined ? '—' : Object.hasOwn(THREE_DS_LABELS, secure) ? THREE_DS_LABELS[secure]!(palette) : secure],
  ];
}

/**
 * Whether a pix code can still be paid: its charge is waiting for the payer, or in a status this version
 * does not know (a gateway's own), which it cannot rule out. Expired, canceled, paid or refunded: no.
 */
export function pixPayable(status: string | undefined): boolean {
  const group = status === undefined ? undefined : statusGroup(status);
  return group === undefined || group === 'waiting';
}

/** When the charge reached its status: its timeline's entry for it, else the payment or last update. */
function reachedAt(tx: TransactionView): string | undefined {
  const entry = [...tx.timeline].reverse().find((event) => event.status === tx.status && event.at !== undefined);
  return entry?.at ?? (tx.status === 'paid' ? tx.paidAt : undefined) ?? tx.updatedAt;
}

/**
 * "expired 2026-11-25 14:03:58 -03:00 — this code can no longer be paid" ("cannot be paid again" once it
 * was paid): why a pix code is shown but is not to be paid; undefined while it can be. Under 80 columns.
 */
export function unpayableNote(tx: TransactionView): string | undefined {
  if (tx.status === undefined || pixPayable(tx.status)) return undefined;
  const at = reachedAt(tx);
  const wasPaid = ['paid', 'refunded'].includes(statusGroup(tx.status) ?? '') || tx.paidAt !== undefined;
  return `${tx.status}${at === undefined ? '' : ` ${dateTime(at)}`} — ${wasPaid ? 'this code cannot be paid again' : 'this code can no longer be paid'}`;
}

/** "12 (INV-20261122-000012-4821)", or whichever of the two the record has. */
export const chargeName = (tx: TransactionView) => (tx.id !== undefined && tx.secureId !== undefined ? `${tx.id} (${tx.secureId})` : (tx.id ?? tx.secureId ?? ''));

/** "R$ 19,90 · expires 2026-11-25 20:38:17 -03:00 (in 59 min)": what the payer of a pending charge pays, and by when. */
function payableLine(tx: TransactionView): string {
  const until = tx.expiresAt === undefined ? '' : ` · expires ${dateTime(tx.expiresAt)}${fromNow(tx.expiresAt) === undefined ? '' : ` (${fromNow(tx.expiresAt)})`}`;
  return `${amount(tx.amount)}${until}`;
}

// The code is printed bare on its own line, outside any table and whatever the terminal's width (the
// terminal folds it, and copies it back whole), so a triple-click copies it whole: borders, padding or
// wrapping would corrupt what the payer pastes into the bank app. A code that can no longer be paid says
// so first, and is not labelled as one to copy.
function pixBody(tx: TransactionView, code: string, palette: Palette, apart: boolean): string {
  const note = unpayableNote(tx);
  if (note !== undefined) return [palette.bad(note), palette.dim(`pix copy-and-paste code (${tx.status ?? ''}, not payable):`), code].join('\n');
  const lines = apart ? [payableLine(tx)] : [];
  lines.push(palette.dim('pix copy-and-paste code:'), code);
  return lines.join('\n');
}

/** The due date, with how far it is while the boleto is still to be paid ("due in 3 days"). */
function dueDate(date: string | undefined, pending: boolean): string {
  if (date === undefined) return '—';
  const distance = pending ? dueFromToday(date) : undefined;
  return distance === undefined ? date : `${date} (${distance})`;
}

function boletoRows(boleto: BoletoView, pending: boolean): Row[] {
  const rows: Row[] = [
    ['typeable line', boleto.line === undefined ? '—' : formatDigitableLine(boleto.line)],
    ['barcode', orDash(boleto.barcode)],
    ['due date', dueDate(boleto.dueDate, pending)],
  ];
  if (boleto.url !== undefined) rows.push(['PDF', boleto.url]);
  return rows;
}

/**
 * What the payer needs to pay the charge, or what paid it. `apart`: shown on its own, away from the
 * record's summary (last, above the QR), so a pending pix code says again what it pays and until when.
 */
export function renderPayment(record: TransactionView, palette: Palette, width = terminalWidth(), apart = false): string | null {
  const tx = safeData({ ...record, raw: undefined });
  if (tx.pix !== undefined) return section(apart ? `Payment (pix) of charge ${chargeName(tx)}` : 'Payment (pix)', pixBody(tx, tx.pix.code, palette, apart), palette);
  if (tx.boleto !== undefined) return section('Payment (boleto)', keyValueTable(boletoRows(tx.boleto, tx.status === 'pending'), palette, width), palette);
  if (tx.card !== undefined) return section('Payment (credit card)', keyValueTable(cardRows(tx.card, palette), palette, width), palette);
  return null;
}
