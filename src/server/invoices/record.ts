// Builds the transaction record (the Search shape) from a charge's aggregate, as it is or as an event saw it.
import type { Enterprise, FinancialMovement, Payer, Transaction } from '../../api/schemas.js';
import { documentType, formatCnpj } from '../../domain/document.js';
import type { BlockFlag, Company, CompanyTotals, EventSnapshot, InvoiceAggregate } from '../store/port.js';

export function toEnterprise(company: Company, totals: CompanyTotals): Enterprise {
  const flag = (name: BlockFlag) => company.blocked[name] === true;
  const { fees: _fees, blocked: _blocked, webhook_secret: _secret, clock_offset_ms: _clock, chaos: _chaos, signing_token_id: _signing, created_at, updated_at, is_custom, id, ...profile } = company;
  return {
    id,
    ...profile,
    cnpj: formatCnpj(company.cnpj),
    amount_invoice_total: totals.paid_total,
    amount_invoices_competicion: totals.paid_month,
    balance_bank_slip: totals.balance_bank_slip,
    balance_card: totals.balance_card,
    balance_pix: totals.balance_pix,
    blocked_bank_slip: flag('bank_slip'),
    blocked_card: flag('card'),
    blocked_pix: flag('pix'),
    blocked_processing: flag('processing'),
    blocked_sake: flag('sake'),
    blocked_system: flag('system'),
    is_custom,
    create_at: created_at,
    update_at: updated_at,
  };
}

function people(payer: Payer, customer: { id: number; created_at: string; updated_at: string }) {
  const document = payer.cpf_cnpj;
  const client = {
    id: customer.id,
    name: payer.name,
    cpf_cnpj: document,
    email: payer.email,
    phone: payer.phone ?? '',
    created_at: customer.created_at,
    updated_at: customer.updated_at,
  };
  const address = {
    city: payer.address_city ?? '',
    complement: payer.address_complement?.trim() || null,
    country: 'BR',
    neighborhood: payer.address_neighborhood ?? '',
    state: (payer.address_state ?? '').toUpperCase(),
    street: payer.address_line ?? '',
    streetNumber: payer.address_number ?? '',
    zipCode: (payer.address_zip ?? '').replace(/\D/g, ''),
  };
  const customerView = {
    id: customer.id,
    name: payer.name,
    email: payer.email,
    phone: payer.phone ?? '',
    birthdate: null,
    externalRef: null,
    createdAt: customer.created_at,
    document: { number: document, type: documentType(document) ?? (document.length === 14 ? 'cnpj' : 'cpf') },
    address,
  } as const;
  return { client, customer: customerView };
}

/**
 * The transaction record (the Search shape) of a charge, from its aggregate: no lookups of its own. A
 * production record loaded by --fixtures is answered as production sent it (the one record serve does
 * not write strictly: unknown members and statuses kept).
 */
export function toTransaction(company: Company, aggregate: InvoiceAggregate): Transaction {
  const { invoice: row, customer: customerRow, totals } = aggregate;
  if (row.production_record) return JSON.parse(row.production_record) as Transaction;
  const { payer, fee, method, status } = row;
  const movements = aggregate.movements.map(({ created_at, ...m }): FinancialMovement => ({ ...m, createdAt: created_at }));
  return {
    id: row.id,
    secureId: row.secure_id,
    companyId: row.company_id,
    amount: row.amount,
    installments: row.installments,
    status,
    paymentMethod: method,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    paidAt: row.paid_at,
    refundedAmount: row.refunded_amount,
    refusedReason: row.refused_reason,
    postbackUrl: row.postback_url,
    traceable: false,
    externalRef: row.external_ref,
    metadata: row.metadata,
    ip: row.ip,
    delivery: null,
    shipping: null,
    boleto: row.boleto,
    card: row.card,
    card_associate: null,
    pix: row.pix_code === null ? null : { qrCode: row.pix_code, expiresAt: row.expires_at ?? row.created_at },
    ...people(payer, customerRow),
    enterprise: toEnterprise(company, totals),
    fee,
    invoice: {
      id: row.id,
      invoice_id: row.secure_id,
      invoice_id_external: null,
      invoice_id_external2: null,
      invoice_id_external3: null,
      status,
      payment_method: method,
      is_pix: method === 'pix',
      is_bank_slip: method === 'boleto',
      is_credit_card: method === 'credit_card',
      is_anticipated: false,
      anticipation_approved: false,
      is_indication_tax: false,
      postback_url: row.postback_url,
      qr_code_pix: row.pix_code ?? '',
      token_checkout: row.token_checkout,
      retention_tax: 0,
      value_adq: 0,
      value_platform: fee.estimatedFee,
      value_indication: 0,
      value_seller: fee.netAmount,
      value_total: row.amount,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
    items: row.items,
    financial_movements: movements,
    refunds: aggregate.refunds.map((r) => ({ id: r.id, amount: r.amount, reason: r.reason, createdAt: r.created_at })),
    splits: [],
    timeline: aggregate.timeline.map((t) => ({ status: t.status, note: t.note, at: t.at, by: t.by })),
  };
}

/** The charge as it was when an event was recorded: its changing fields and lists cut back to the snapshot. */
export function aggregateAt(aggregate: InvoiceAggregate, snapshot: EventSnapshot): InvoiceAggregate {
  const { upto, totals, card, customer_updated_at, ...fields } = snapshot;
  return {
    ...aggregate,
    customer: { ...aggregate.customer, updated_at: customer_updated_at },
    invoice: { ...aggregate.invoice, ...fields, ...(card !== undefined && { card }) },
    timeline: aggregate.timeline.filter((t) => t.id <= upto.timeline),
    refunds: aggregate.refunds.filter((r) => r.id <= upto.refunds),
    movements: aggregate.movements.filter((m) => m.id <= upto.movements),
    totals,
  };
}
