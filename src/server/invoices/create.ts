// Create Invoices: turns a validated request into a stored charge and its record, in one transaction.
import type { CreateInvoiceRequest, ResponseItem, Transaction } from '../../api/schemas.js';
import { normalizeDocument } from '../../domain/document.js';
import { computeFee, type FeeSchedule } from '../../domain/fees.js';
import { makeCheckoutToken, makeSecureId, makeTxid } from '../../domain/ids.js';
import { buildPixCode } from '../../domain/pix.js';
import { ApiError } from '../errors.js';
import type { CompanyRow, FeeSchedules } from '../store/companies.js';
import type { ServerContext } from './context.js';
import { toTransaction } from './record.js';

const TANGIBLE = new Set(['true', '1', 'yes', 'sim', 's', 'y']);

export function isTangible(productFisical: string | boolean | undefined): boolean {
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

function feeSchedule(company: CompanyRow, method: CreateInvoiceRequest['method']): FeeSchedule {
  const schedules = JSON.parse(company.fees) as FeeSchedules;
  return schedules[method];
}

export function createInvoice(ctx: ServerContext, company: CompanyRow, request: CreateInvoiceRequest): Transaction {
  if (request.method !== 'pix') {
    throw new ApiError(422, 'validation_failed', 'This server does not issue this payment method yet.', [
      { path: 'method', message: `${request.method} is not supported by this server yet; use pix` },
    ]);
  }
  const now = ctx.clock();
  const at = now.toISOString();
  const fee = computeFee(request.total_price_cents, feeSchedule(company, request.method));
  const payer = { ...request.payer, cpf_cnpj: normalizeDocument(request.payer.cpf_cnpj) };
  const { store } = ctx;
  return store.transaction(() => {
    const id = store.invoices.nextId();
    const txid = makeTxid(ctx.random(64));
    const customer = store.invoices.upsertCustomer(company.id, payer.cpf_cnpj, at);
    const pixCode = buildPixCode({
      merchantName: company.fantasy_name,
      merchantCity: company.address_city,
      amountCents: request.total_price_cents,
      url: `${ctx.pixLocation}/${txid}`,
    });
    store.invoices.insert({
      id,
      company_id: company.id,
      secure_id: makeSecureId(id, now, ctx.random(2)),
      token_checkout: makeCheckoutToken(ctx.random(64)),
      customer_id: customer.id,
      method: request.method,
      status: 'pending',
      amount: request.total_price_cents,
      installments: 1,
      refunded_amount: 0,
      refused_reason: null,
      postback_url: request.postback_url ?? '',
      ip: request.ip_payer ?? null,
      payer: JSON.stringify(payer),
      items: JSON.stringify(mapItems(request)),
      fee: JSON.stringify(fee),
      pix_code: pixCode,
      pix_txid: txid,
      boleto: null,
      card: null,
      expires_at: new Date(now.getTime() + ctx.pixExpirySeconds * 1000).toISOString(),
      created_at: at,
      updated_at: at,
      paid_at: null,
    });
    store.invoices.addTimeline(id, 'pending', 'pix charge created; awaiting payment', at);
    const row = store.invoices.find(company.id, String(id));
    if (!row) throw new Error('the invoice just inserted cannot be read back');
    return toTransaction(store, company, row, now);
  });
}
