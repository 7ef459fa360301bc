// The payment section: what a payer needs to pay (pix code, boleto line) or what the card charge was.
import type { Transaction } from '../../api/schemas.js';
import { formatDigitableLine } from '../../domain/boleto.js';
import type { Palette } from './colour.js';
import { orDash, yesNo } from './format.js';
import { safeData } from './safe-text.js';
import { keyValueTable, section, type Row } from './table.js';
import { terminalWidth } from './width.js';

type Card = NonNullable<Transaction['card']>;

const THREE_DS_LABELS: Record<Card['threeDSecure'], (palette: Palette) => string> = {
  not_required: (palette) => palette.dim('not required'),
  required: (palette) => palette.warn('required (awaiting authentication)'),
  authenticated: (palette) => palette.ok('authenticated'),
  failed: (palette) => palette.bad('failed'),
};

/** Only the first six and last four digits exist in the record; the rest is masked in between. */
export function maskedCard(card: Pick<Card, 'firstDigits' | 'lastDigits'>): string {
  return `${card.firstDigits} •••• ${card.lastDigits}`;
}

function cardRows(card: Card, palette: Palette): Row[] {
  return [
    ['brand', card.brand],
    ['card', maskedCard(card)],
    ['holder', orDash(card.holderName)],
    ['valid thru', `${card.expirationMonth.padStart(2, '0')}/${card.expirationYear}`],
    ['installments', String(card.installments)],
    ['tokenized', yesNo(card.tokenized)],
    ['3-D Secure', THREE_DS_LABELS[card.threeDSecure](palette)],
  ];
}

// The code is printed bare on its own line, outside any table and whatever the terminal's width (the
// terminal folds it, and copies it back whole), so a triple-click copies it whole: borders, padding or
// wrapping would corrupt what the payer pastes into the bank app.
function pixBody(pix: NonNullable<Transaction['pix']>, qr: string | undefined, palette: Palette): string {
  const lines: string[] = [];
  if (qr !== undefined && qr !== '') lines.push(qr.replace(/\n+$/, ''));
  lines.push(palette.dim('pix copy-and-paste code:'), pix.qrCode);
  return lines.join('\n');
}

function boletoRows(boleto: NonNullable<Transaction['boleto']>): Row[] {
  return [
    ['typeable line', formatDigitableLine(boleto.digitableLine)],
    ['barcode', boleto.barcode],
    ['due date', boleto.dueDate],
  ];
}

export function renderPayment(record: Transaction, qr: string | undefined, palette: Palette, width = terminalWidth()): string | null {
  const tx = safeData(record);
  if (tx.pix !== null) return section('Payment (pix)', pixBody(tx.pix, qr, palette), palette);
  if (tx.boleto !== null) return section('Payment (boleto)', keyValueTable(boletoRows(tx.boleto), palette, width), palette);
  if (tx.card !== null) return section('Payment (credit card)', keyValueTable(cardRows(tx.card, palette), palette, width), palette);
  return null;
}
