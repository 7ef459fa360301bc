// The support view of one charge: titled sections a person reads top to bottom. It works from the
// tolerant view of the record (src/client/read/transaction.ts): what is missing shows as "—", a status
// it does not know as "(unknown status)", and whatever the record holds beyond what it knows in an
// "Other fields" section, so nothing the gateway said is hidden.
import type { OtherField } from '../../client/read/others.js';
import type { PayerView, TransactionView } from '../../client/read/transaction.js';
import { statusLabel, type Palette } from './colour.js';
import { amount, DASH, dateTime, document, orDash, percent, zipCode } from './format.js';
import { safeData, safeText } from './safe-text.js';
import { keyValueTable, section, type Row } from './table.js';
import { renderItems, renderMovements, renderRefunds, renderTimeline } from './transaction-lists.js';
import { renderPayment } from './transaction-payment.js';
import { fromNow } from './time.js';
import { terminalWidth } from './width.js';

/** "2026-11-25 20:38:17 -03:00 (in 42 min)", or the time alone when the distance is unknown. */
const withDistance = (shown: string, distance: string | undefined) => (distance === undefined ? shown : `${shown} (${distance})`);

export interface TransactionRenderOptions {
  palette: Palette;
  /** false: the payment section is left out, to be shown apart (last, above the pix QR: see show.ts) */
  payment?: boolean | undefined;
  /** the columns every table fits in; the terminal's by default */
  width?: number | undefined;
  /** the URL of the charge's checkout page, shown under the summary */
  checkoutUrl?: string | undefined;
}

export const METHOD_LABELS: Readonly<Record<string, string>> = {
  pix: 'pix',
  credit_card: 'credit card',
  boleto: 'boleto',
};

/** "credit card" for credit_card; a method this version does not know, as sent. */
export const methodLabel = (method: string | undefined) => (method === undefined ? DASH : Object.hasOwn(METHOD_LABELS, method) ? METHOD_LABELS[method]! : method);

function summaryRows(tx: TransactionView, palette: Palette): Row[] {
  // Only a charge still waiting for its payer has an expiry that matters; a paid one never expires.
  const expiresAt = tx.status === 'pending' ? tx.expiresAt : undefined;
  const refunded = tx.refundedAmount;
  const rows: Row[] = [
    ['id', orDash(tx.id)],
    ['secure id', orDash(tx.secureId)],
    ['status', statusLabel(tx.status, palette)],
    ['method', methodLabel(tx.method)],
    ['amount', amount(tx.amount)],
    ['paid', tx.paidAt === undefined ? DASH : amount(tx.amount)],
    ['refunded', amount(refunded)],
  ];
  if (typeof refunded === 'number' && refunded > 0 && typeof tx.amount === 'number') rows.push(['after refunds', amount(tx.amount - refunded)]);
  rows.push(['created', dateTime(tx.createdAt)], ['paid at', dateTime(tx.paidAt)], ['updated', dateTime(tx.updatedAt)]);
  if (expiresAt !== undefined) rows.push(['expires', withDistance(dateTime(expiresAt), fromNow(expiresAt))]);
  if (tx.refusedReason !== undefined) rows.push(['refused reason', palette.bad(tx.refusedReason)]);
  if (tx.externalRef !== undefined) rows.push(['external ref', tx.externalRef]);
  const metadata = tx.metadata.map(([key, value]) => `${key}=${value}`);
  if (metadata.length > 0) rows.push(['metadata', metadata.join(', ')]);
  if (tx.postbackUrl !== undefined) rows.push(['postback URL', tx.postbackUrl]);
  return rows;
}

type Address = Pick<PayerView, 'street' | 'number' | 'complement' | 'neighborhood' | 'city' | 'state' | 'zip'>;

/** "Avenida Paulista, 1000, apto 42 - Bela Vista - São Paulo/SP - CEP 01310-100", or null when nothing is known. */
export function addressLine(address: Address): string | null {
  const known = (...parts: (string | undefined)[]) => parts.filter((part): part is string => part !== undefined && part !== '');
  const street = known(address.street, address.number, address.complement).join(', ');
  const place = known(address.city, address.state).join('/');
  const zip = address.zip === undefined || address.zip === '' ? '' : `CEP ${zipCode(address.zip)}`;
  const parts = known(street, address.neighborhood, place, zip);
  return parts.length === 0 ? null : parts.join(' - ');
}

function payerRows(payer: PayerView | undefined): Row[] {
  const type = payer?.documentType?.toUpperCase();
  const rows: Row[] = [
    ['name', orDash(payer?.name)],
    ['document', payer?.document === undefined ? DASH : `${type === undefined ? '' : `${type} `}${document(payer.document)}`],
    ['e-mail', orDash(payer?.email)],
    ['phone', orDash(payer?.phone)],
  ];
  const address = payer === undefined ? null : addressLine(payer);
  if (address !== null) rows.push(['address', address]);
  return rows;
}

function feeRows(tx: TransactionView): Row[] {
  const fee = tx.fee;
  const spread = fee?.spreadPercentage === undefined ? undefined : percent(fee.spreadPercentage);
  const fixed = fee?.fixedAmount === undefined ? undefined : amount(fee.fixedAmount);
  return [
    ['amount', amount(tx.amount)],
    ['fee', spread === undefined && fixed === undefined ? DASH : `${spread ?? DASH} + ${fixed ?? DASH}`],
    ['estimated fee', amount(fee?.estimatedFee)],
    ['net amount', amount(fee?.netAmount)],
  ];
}

/** Whatever the record holds that the CLI does not know, as it came (`--json` shows it whole). */
export function renderOthers(others: readonly OtherField[], palette: Palette, width = terminalWidth()): string | null {
  if (others.length === 0) return null;
  return section('Other fields', keyValueTable(others, palette, width), palette);
}

/** The support view of a charge; every string of the record is made safe for a terminal first. */
export function renderTransaction(record: TransactionView, options: TransactionRenderOptions): string {
  const { palette, width = terminalWidth() } = options;
  const tx = safeData({ ...record, raw: undefined });
  const sections = [
    // the checkout page's URL under the summary, on one line of its own (a table cell would break it)
    section('Summary', keyValueTable(summaryRows(tx, palette), palette, width), palette)
      + (options.checkoutUrl === undefined ? '' : `\nCheckout page: ${safeText(options.checkoutUrl)}`),
    section('Payer', keyValueTable(payerRows(tx.payer), palette, width), palette),
    renderItems(tx.items, palette, width),
    section('Fee', keyValueTable(feeRows(tx), palette, width), palette),
    options.payment === false ? null : renderPayment(tx, palette, width),
    renderRefunds(tx.refunds, palette, width),
    renderMovements(tx.movements, palette, width),
    renderTimeline(tx.timeline, palette, width),
    renderOthers(tx.others, palette, width),
  ];
  return sections.filter((text): text is string => text !== null).join('\n\n');
}
