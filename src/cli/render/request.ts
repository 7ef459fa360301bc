// The summary a merchant confirms before a charge is created.
import Table from 'cli-table3';
import type { CreateInvoiceRequest } from '../../api/schemas.js';
import { formatDocument } from '../../domain/document.js';
import { formatBRL } from '../../domain/money.js';
import type { Palette } from './colour.js';
import { METHOD_LABELS } from './transaction.js';

export function renderRequestSummary(request: CreateInvoiceRequest, palette: Palette): string {
  const table = new Table({ style: { head: [], border: [] } });
  const { payer } = request;
  table.push(
    { method: METHOD_LABELS[request.method] },
    { amount: palette.bold(formatBRL(request.total_price_cents)) },
    { payer: `${payer.name} · ${formatDocument(payer.cpf_cnpj)} · ${payer.email}` },
  );
  for (const item of request.items ?? []) {
    table.push({ item: `${item.quantity} × ${item.name} @ ${formatBRL(item.unit_price)} = ${formatBRL(item.quantity * item.unit_price)}` });
  }
  if (request.card?.number) table.push({ card: `•••• ${request.card.number.replace(/\D/g, '').slice(-4)}` });
  if (request.card?.token) table.push({ card: 'tokenized card' });
  if (request.postback_url) table.push({ postback: request.postback_url });
  return table.toString();
}
