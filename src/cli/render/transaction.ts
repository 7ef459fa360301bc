// The support view of one charge: titled sections a person reads top to bottom.
import type { Customer, Transaction } from '../../api/schemas.js';
import type { Palette } from './colour.js';
import { DASH, dateTime, document, money, orDash, percent, zipCode } from './format.js';
import { safeData, safeText } from './safe-text.js';
import { keyValueTable, section, type Row } from './table.js';
import { renderItems, renderMovements, renderRefunds, renderTimeline } from './transaction-lists.js';
import { renderPayment } from './transaction-payment.js';
import { terminalWidth } from './width.js';

export interface TransactionRenderOptions {
  palette: Palette;
  /** a QR block (from renderQr) drawn above the pix code; the caller leaves it out when it would not fit */
  qr?: string | undefined;
  /** the columns every table fits in; the terminal's by default */
  width?: number | undefined;
  /** the URL of the charge's checkout page, shown under the summary */
  checkoutUrl?: string | undefined;
}

export const METHOD_LABELS: Record<Transaction['paymentMethod'], string> = {
  pix: 'pix',
  credit_card: 'credit card',
  boleto: 'boleto',
};

function summaryRows(tx: Transaction, palette: Palette): Row[] {
  // Only a charge still waiting for its payer has an expiry that matters; a paid one never expires.
  const expiresAt = tx.status === 'pending' ? (tx.pix?.expiresAt ?? tx.boleto?.expiresAt ?? null) : null;
  const rows: Row[] = [
    ['id', String(tx.id)],
    ['secure id', tx.secureId],
    ['status', palette.status(tx.status)],
    ['method', METHOD_LABELS[tx.paymentMethod]],
    ['amount', money(tx.amount)],
    ['paid', tx.paidAt === null ? DASH : money(tx.amount)],
    ['refunded', money(tx.refundedAmount)],
  ];
  if (tx.refundedAmount > 0) rows.push(['after refunds', money(tx.amount - tx.refundedAmount)]);
  rows.push(['created', dateTime(tx.createdAt)], ['paid at', dateTime(tx.paidAt)], ['updated', dateTime(tx.updatedAt)]);
  if (expiresAt !== null) rows.push(['expires', dateTime(expiresAt)]);
  if (tx.refusedReason !== null && tx.refusedReason !== '') rows.push(['refused reason', palette.bad(tx.refusedReason)]);
  if (tx.externalRef !== null && tx.externalRef !== '') rows.push(['external ref', tx.externalRef]);
  const metadata = Object.entries(tx.metadata ?? {}).map(([key, value]) => `${key}=${String(value)}`);
  if (metadata.length > 0) rows.push(['metadata', metadata.join(', ')]);
  if (tx.postbackUrl !== '') rows.push(['postback URL', tx.postbackUrl]);
  return rows;
}

/** "Avenida Paulista, 1000, apto 42 - Bela Vista - São Paulo/SP - CEP 01310-100", or null when nothing is known. */
export function addressLine(address: Customer['address']): string | null {
  const street = [address.street, address.streetNumber, address.complement ?? ''].filter((part) => part !== '').join(', ');
  const place = [address.city, address.state].filter((part) => part !== '').join('/');
  const zip = address.zipCode === '' ? '' : `CEP ${zipCode(address.zipCode)}`;
  const parts = [street, address.neighborhood, place, zip].filter((part) => part !== '');
  return parts.length === 0 ? null : parts.join(' - ');
}

function payerRows(customer: Customer): Row[] {
  const { number, type } = customer.document;
  const rows: Row[] = [
    ['name', orDash(customer.name)],
    ['document', `${type.toUpperCase()} ${document(number)}`],
    ['e-mail', orDash(customer.email)],
    ['phone', orDash(customer.phone)],
  ];
  const address = addressLine(customer.address);
  if (address !== null) rows.push(['address', address]);
  return rows;
}

function feeRows(tx: Transaction): Row[] {
  const { fee } = tx;
  return [
    ['amount', money(tx.amount)],
    ['fee', `${percent(fee.spreadPercentage)} + ${money(fee.fixedAmount)}`],
    ['estimated fee', money(fee.estimatedFee)],
    ['net amount', money(fee.netAmount)],
  ];
}

/** The support view of a charge; every string of the record is made safe for a terminal first. */
export function renderTransaction(record: Transaction, options: TransactionRenderOptions): string {
  const { palette, width = terminalWidth() } = options;
  const tx = safeData(record);
  const sections = [
    // the checkout page's URL under the summary, on one line of its own (a table cell would break it)
    section('Summary', keyValueTable(summaryRows(tx, palette), palette, width), palette)
      + (options.checkoutUrl === undefined ? '' : `\nCheckout page: ${safeText(options.checkoutUrl)}`),
    section('Payer', keyValueTable(payerRows(tx.customer), palette, width), palette),
    renderItems(tx.items, palette, width),
    section('Fee', keyValueTable(feeRows(tx), palette, width), palette),
    renderPayment(tx, options.qr, palette, width),
    renderRefunds(tx.refunds, palette, width),
    renderMovements(tx.financial_movements, palette, width),
    renderTimeline(tx.timeline, palette, width),
  ];
  return sections.filter((text): text is string => text !== null).join('\n\n');
}
