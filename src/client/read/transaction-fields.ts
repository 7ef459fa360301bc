// Every field of a transaction record that src/client/read/transaction.ts takes, under each name it
// takes it by (the specification's, ours, and the aliases PHP back ends use). Whatever a record holds
// beyond these is shown in the "Other fields" section.
import type { Known } from './others.js';

/** Every field the reader takes, under each name it takes it by; the rest of a record is "others". */
export const KNOWN: Known = {
  id: true, secureId: true, secure_id: true, invoice_id: true, companyId: true, company_id: true,
  amount: true, total_price_cents: true, total: true, installments: true, status: true,
  paymentMethod: true, payment_method: true, method: true, createdAt: true, created_at: true,
  updatedAt: true, updated_at: true, paidAt: true, paid_at: true, refundedAmount: true, refunded_amount: true,
  refusedReason: true, postbackUrl: true, postback_url: true, traceable: true, externalRef: true,
  external_id: true, ip: true, qr_code_pix: true, expiresAt: true, expires_at: true, token_checkout: true,
  metadata: {}, delivery: {}, shipping: {}, card_associate: {}, splits: [{}],
  pix: { qrCode: true, qr_code: true, qrcode: true, copy_paste: true, emv: true, expiresAt: true, expires_at: true },
  boleto: { digitableLine: true, digitable_line: true, typeable_line: true, line: true, barcode: true, bar_code: true, dueDate: true, due_date: true, expiration_date: true, url: true, pdf: true, pdf_url: true, expiresAt: true, expires_at: true },
  card: {
    brand: true, firstDigits: true, first_digits: true, first_six: true, bin: true, lastDigits: true, last_digits: true, last_four: true, last4: true,
    holderName: true, holder_name: true, holder: true, expirationMonth: true, expiration_month: true, exp_month: true, month: true,
    expirationYear: true, expiration_year: true, exp_year: true, year: true, exp: true, expiration: true, expiry: true,
    installments: true, installment: true, tokenized: true, threeDSecure: true, three_d_secure: true, '3ds': true,
  },
  client: { id: true, name: true, cpf_cnpj: true, document: true, email: true, phone: true, created_at: true, updated_at: true },
  customer: {
    id: true, name: true, email: true, phone: true, birthdate: true, externalRef: true, createdAt: true, cpf_cnpj: true,
    document: { number: true, type: true },
    address: { city: true, complement: true, country: true, neighborhood: true, district: true, state: true, street: true, line: true, address: true, streetNumber: true, street_number: true, number: true, zipCode: true, zip_code: true, zipcode: true, zip: true },
  },
  enterprise: Object.fromEntries([
    'id', 'cnpj', 'company_type', 'corporate_reason', 'fantasy_name', 'name', 'url_website', 'address', 'address_city', 'address_number',
    'address_postal_code', 'address_province', 'address_state', 'bank_account', 'bank_agency', 'bank_digit', 'bank_name', 'bank_type',
    'amount_invoice_total', 'amount_invoices_competicion', 'balance_bank_slip', 'balance_card', 'balance_pix', 'blocked_bank_slip',
    'blocked_card', 'blocked_pix', 'blocked_processing', 'blocked_sake', 'blocked_system', 'is_custom', 'create_at', 'update_at',
  ].map((key) => [key, true])),
  fee: { estimatedFee: true, estimated_fee: true, amount: true, fixedAmount: true, fixed_amount: true, fixed: true, netAmount: true, net_amount: true, spreadPercentage: true, spread_percentage: true, percentage: true },
  invoice: Object.fromEntries([
    'id', 'invoice_id', 'invoice_id_external', 'invoice_id_external2', 'invoice_id_external3', 'status', 'payment_method', 'is_pix',
    'is_bank_slip', 'is_credit_card', 'is_anticipated', 'anticipation_approved', 'is_indication_tax', 'postback_url', 'qr_code_pix',
    'token_checkout', 'retention_tax', 'value_adq', 'value_platform', 'value_indication', 'value_seller', 'value_total', 'created_at', 'updated_at',
  ].map((key) => [key, true])),
  items: [{ title: true, name: true, description: true, quantity: true, unitPrice: true, unit_price: true, price: true, tangible: true, product_fisical: true, externalRef: true }],
  timeline: [{ status: true, at: true, createdAt: true, created_at: true, date: true, note: true, description: true, message: true, by: true }],
  refunds: [{ id: true, amount: true, amount_cents: true, reason: true, at: true, createdAt: true, created_at: true, date: true }],
  financial_movements: [{ id: true, type: true, balance: true, amount: true, description: true, at: true, createdAt: true, created_at: true, date: true }],
};
