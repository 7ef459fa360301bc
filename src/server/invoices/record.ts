// Builds the transaction record (the Search shape) from the stored rows.
import type { Enterprise, Fee, FinancialMovement, Method, Payer, ResponseItem, Status, Transaction } from '../../api/schemas.js';
import { documentType, formatCnpj } from '../../domain/document.js';
import type { CompanyRow } from '../store/companies.js';
import type { Store } from '../store/index.js';
import { BLOCK_FLAGS } from '../store/companies.js';
import type { InvoiceRow } from '../store/invoices.js';

const parse = <T>(json: string | null): T | null => (json === null ? null : (JSON.parse(json) as T));

function monthStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

export function toEnterprise(store: Store, company: CompanyRow, now: Date): Enterprise {
  const balances = store.companies.balances(company.id);
  const totals = store.companies.paidTotals(company.id, monthStart(now));
  const blocked = JSON.parse(company.blocked) as Partial<Record<(typeof BLOCK_FLAGS)[number], boolean>>;
  const flag = (name: (typeof BLOCK_FLAGS)[number]) => blocked[name] === true;
  const { fees: _fees, blocked: _blocked, webhook_secret: _secret, created_at, updated_at, is_custom, ...profile } = company;
  return {
    ...profile,
    cnpj: formatCnpj(company.cnpj),
    amount_invoice_total: totals.total,
    amount_invoices_competicion: totals.month,
    balance_bank_slip: balances.balance_bank_slip ?? 0,
    balance_card: balances.balance_card ?? 0,
    balance_pix: balances.balance_pix ?? 0,
    blocked_bank_slip: flag('bank_slip'),
    blocked_card: flag('card'),
    blocked_pix: flag('pix'),
    blocked_processing: flag('processing'),
    blocked_sake: flag('sake'),
    blocked_system: flag('system'),
    is_custom: is_custom === 1,
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

export function toTransaction(store: Store, company: CompanyRow, row: InvoiceRow, now: Date): Transaction {
  const payer = JSON.parse(row.payer) as Payer;
  const customerRow = store.invoices.customer(row.customer_id);
  if (!customerRow) throw new Error(`invoice ${row.id} has no customer row`);
  const fee = JSON.parse(row.fee) as Fee;
  const method = row.method as Method;
  const status = row.status as Status;
  const movements = store.invoices.movements(row.id).map(({ created_at, ...m }) => ({ ...m, createdAt: created_at }) as FinancialMovement);
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
    metadata: parse(row.metadata),
    ip: row.ip,
    delivery: null,
    shipping: null,
    boleto: parse(row.boleto),
    card: parse(row.card),
    card_associate: null,
    pix: row.pix_code === null ? null : { qrCode: row.pix_code, expiresAt: row.expires_at ?? row.created_at },
    ...people(payer, customerRow),
    enterprise: toEnterprise(store, company, now),
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
    items: JSON.parse(row.items) as ResponseItem[],
    financial_movements: movements,
    refunds: store.invoices.refunds(row.id).map((r) => ({ id: r.id, amount: r.amount, reason: r.reason, createdAt: r.created_at })),
    splits: [],
    timeline: store.invoices.timeline(row.id).map((t) => ({ status: t.status as Status, note: t.note, at: t.at })),
  };
}
