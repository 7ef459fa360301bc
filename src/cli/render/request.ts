// The summary a merchant confirms before a charge is created.
import type { CreateInvoiceRequest } from '../../api/schemas.js';
import { formatDocument } from '../../domain/document.js';
import { formatBRL } from '../../domain/money.js';
import type { Palette } from './colour.js';
import { safeData } from './safe-text.js';
import { keyValueTable, type Row } from './table.js';
import { methodLabel } from './transaction.js';
import { terminalWidth } from './width.js';

/** What was typed (or read from a file) is data like any other: made safe before it is shown. */
export function renderRequestSummary(typed: CreateInvoiceRequest, palette: Palette, width = terminalWidth(process.stderr)): string {
  const request = safeData(typed);
  const { payer } = request;
  const rows: Row[] = [
    ['method', methodLabel(request.method)],
    ['amount', palette.bold(formatBRL(request.total_price_cents))],
    ['payer', `${payer.name} · ${formatDocument(payer.cpf_cnpj)} · ${payer.email}`],
  ];
  for (const item of request.items ?? []) {
    rows.push(['item', `${item.quantity} × ${item.name} @ ${formatBRL(item.unit_price)} = ${formatBRL(item.quantity * item.unit_price)}`]);
  }
  if (request.card?.number) rows.push(['card', `•••• ${request.card.number.replace(/\D/g, '').slice(-4)}`]);
  if (request.card?.token) rows.push(['card', 'tokenized card']);
  if (request.postback_url) rows.push(['postback', request.postback_url]);
  return keyValueTable(rows, palette, width);
}
