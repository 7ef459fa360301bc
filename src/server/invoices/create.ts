// Create Invoices: turns a validated request into a stored charge and its record, in the caller's transaction.
import type { CreateInvoiceRequest, CreateInvoiceResponse, ResponseItem, Transaction } from '../../api/schemas.js';
import { normalizeDocument } from '../../domain/document.js';
import { computeFee } from '../../domain/fees.js';
import { makeCheckoutToken, makeSecureId } from '../../domain/ids.js';
import { monthOf, type Company, type Invoice, type Writes } from '../store/port.js';
import type { ServerContext } from './context.js';
import { boletoData, cardData, pixData, type MethodData } from './payment-data.js';
import { toTransaction } from './record.js';
import { enterStatus } from './transitions.js';

const TANGIBLE = new Set(['true', '1', 'yes', 'sim', 's', 'y']);

export function isTangible(productFisical: string | boolean | null | undefined): boolean {
  if (typeof productFisical === 'boolean') return productFisical;
  return TANGIBLE.has((productFisical ?? '').trim().toLowerCase());
}

export function mapItems(request: CreateInvoiceRequest): ResponseItem[] {
  const tangible = isTangible(request.product_fisical);
  return (request.items ?? []).map((item) => ({
    title: item.name,
    quantity: item.quantity,
    unitPrice: item.unit_price,
    tangible,
    externalRef: null,
  }));
}

function methodData(ctx: ServerContext, company: Company, request: CreateInvoiceRequest, id: number, now: Date): MethodData {
  if (request.method === 'pix') return pixData(ctx, company, request, now);
  if (request.method === 'boleto') return boletoData(ctx, company, request, id, now);
  // validateCreateRequest guarantees a card for credit_card
  return cardData(request.card ?? {});
}

/** Stores a new charge with its first status, in the caller's transaction; answers its record. */
export async function createInvoice(ctx: ServerContext, tx: Writes, company: Company, request: CreateInvoiceRequest): Promise<Transaction> {
  const now = ctx.clock();
  const at = now.toISOString();
  const fee = computeFee(request.total_price_cents, company.fees[request.method]);
  const payer = { ...request.payer, cpf_cnpj: normalizeDocument(request.payer.cpf_cnpj) };
  // asked together: on PostgreSQL one round trip, the create's only one before its COMMIT (the totals
  // for its event, which a charge that is not paid at once does not move)
  const [id, customer, totalsBefore] = await Promise.all([
    tx.invoices.allocateId(), tx.invoices.upsertCustomer(company.id, payer.cpf_cnpj, at), tx.companies.totals(company.id, monthOf(now)),
  ]);
  const data = methodData(ctx, company, request, id, now);
  const row: Invoice = {
    id,
    company_id: company.id,
    secure_id: makeSecureId(id, now, ctx.random(2)),
    token_checkout: makeCheckoutToken(ctx.random(64), now),
    customer_id: customer.id,
    method: request.method,
    status: data.status,
    amount: request.total_price_cents,
    refunded_amount: 0,
    refused_reason: data.refusedReason ?? null,
    postback_url: request.postback_url ?? '',
    ip: request.ip_payer ?? null,
    external_ref: request.external_id?.trim() || null,
    metadata: request.metadata ?? null,
    payer,
    items: mapItems(request),
    fee,
    ...data.fields,
    created_at: at,
    updated_at: at,
    paid_at: data.status === 'paid' ? at : null,
  };
  await tx.invoices.insert(row);
  const added = await enterStatus(tx, row, { status: data.status, note: data.note, at, created: true, by: ctx.actor, totalsBefore }, customer);
  // Everything the record shows was just written here; the company's totals were read for the event.
  const totals = added.totals ?? (await tx.companies.totals(company.id, monthOf(now)));
  return toTransaction(company, { invoice: row, customer, timeline: [added.timeline], refunds: [], movements: added.movements, totals });
}

/** Create's answer, in the production gateway's shape: the record under `data`, with the fields integrations read. */
export function createdAnswer(tx: Transaction): CreateInvoiceResponse {
  return { data: { ...tx, invoice_id: tx.secureId, qr_code_pix: tx.pix?.qrCode ?? null } };
}
