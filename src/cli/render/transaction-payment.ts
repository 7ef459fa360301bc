// The payment section: what a payer needs to pay (pix code, boleto line) or what the card charge was.
import type { BoletoView, CardView, TransactionView } from '../../client/read/transaction.js';
import { formatDigitableLine } from '../../domain/boleto.js';
import type { Palette } from './colour.js';
import { orDash, yesNo } from './format.js';
import { safeData } from './safe-text.js';
import { dueFromToday } from './time.js';
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

// The code is printed bare on its own line, outside any table and whatever the terminal's width (the
// terminal folds it, and copies it back whole), so a triple-click copies it whole: borders, padding or
// wrapping would corrupt what the payer pastes into the bank app.
function pixBody(code: string, qr: string | undefined, palette: Palette): string {
  const lines: string[] = [];
  if (qr !== undefined && qr !== '') lines.push(qr.replace(/\n+$/, ''));
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

export function renderPayment(record: TransactionView, qr: string | undefined, palette: Palette, width = terminalWidth()): string | null {
  const tx = safeData({ ...record, raw: undefined });
  if (tx.pix !== undefined) return section('Payment (pix)', pixBody(tx.pix.code, qr, palette), palette);
  if (tx.boleto !== undefined) return section('Payment (boleto)', keyValueTable(boletoRows(tx.boleto, tx.status === 'pending'), palette, width), palette);
  if (tx.card !== undefined) return section('Payment (credit card)', keyValueTable(cardRows(tx.card, palette), palette, width), palette);
  return null;
}
