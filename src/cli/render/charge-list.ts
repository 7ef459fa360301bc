// Many charges at once: as a table that fits the terminal (invoice list), or as CSV rows for a
// spreadsheet. Both work from the tolerant view of each record.
import type { TransactionView } from '../../client/read/transaction.js';
import { centsToDecimal } from '../../domain/money.js';
import { statusLabel, type Palette } from './colour.js';
import { amount, DASH, document, orDash } from './format.js';
import { safeData } from './safe-text.js';
import { gridTable, keep, right } from './table.js';
import { shortLocalTime, timeZone } from './time.js';
import { methodLabel } from './transaction.js';
import { terminalWidth } from './width.js';

/** The payer's name and document, and the merchant's reference under them. */
const whoOf = (view: TransactionView) => {
  const { name, document: number } = view.payer ?? {};
  const ref = view.externalRef === undefined ? undefined : `ref ${view.externalRef}`;
  return [name, number === undefined ? undefined : document(number), ref].filter((part) => part !== undefined).join('\n') || DASH;
};

/**
 * One row a charge, stacked so that 80 columns hold it: the secure id over its creation time (in the
 * reader's zone, which the caller names once), the status over the method, the amount, and who paid
 * with the merchant's reference.
 */
export function renderChargeTable(views: readonly TransactionView[], palette: Palette, width = terminalWidth()): string {
  if (views.length === 0) return palette.dim('no charges');
  const rows = views.map((record) => {
    const view = safeData({ ...record, raw: undefined });
    const created = view.createdAt === undefined ? DASH : (shortLocalTime(view.createdAt) ?? view.createdAt);
    return [
      `${orDash(view.secureId ?? view.id)}\n${palette.dim(created)}`,
      `${statusLabel(view.status, palette)}\n${methodLabel(view.method)}`,
      right(amount(view.amount)),
      whoOf(view),
    ];
  });
  return gridTable([keep('charge, created'), keep('status'), keep('amount'), 'payer'], rows, palette, width);
}

/** "times in America/Sao_Paulo", for the line under a table of charges. */
export const zoneNote = () => `times in ${timeZone()}`;

export const CSV_HEADER = ['id', 'secure_id', 'created_at', 'status', 'method', 'amount_brl', 'refunded_brl', 'paid_at', 'payer_name', 'payer_document', 'payer_email', 'external_id'];

/**
 * A CSV field: quoted when it holds a comma, quote or line break; and, as OWASP advises against formula
 * injection, one starting with = + - @ (or a tab or carriage return) is prefixed with a quote so that a
 * spreadsheet shows it as text instead of running it.
 */
export function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Reais with a dot and two decimals ("19.90"), which every spreadsheet reads; an amount not in whole cents as sent. */
const reais = (value: TransactionView['amount']) =>
  value === undefined ? '' : typeof value !== 'number' ? value.asSent : value < 0 ? `-${centsToDecimal(-value)}` : centsToDecimal(value);

export function csvRow(view: TransactionView): string {
  const fields = [
    view.id, view.secureId, view.createdAt, view.status, view.method, reais(view.amount), reais(view.refundedAmount), view.paidAt,
    view.payer?.name, view.payer?.document, view.payer?.email, view.externalRef,
  ];
  return fields.map((field) => csvField(field ?? '')).join(',');
}
