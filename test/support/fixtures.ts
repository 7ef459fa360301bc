// Realistic Transaction and Enterprise records for render tests: a pending pix charge, a paid card charge
// with a partial refund, and a boleto. Each call returns a fresh object, so tests may change it freely.
import type { Enterprise, Invoice, Transaction } from '../../src/api/schemas.js';
import { buildPixCode } from '../../src/domain/pix.js';

export const PIX_CODE = buildPixCode({
  merchantName: 'Pinvoice Sandbox',
  merchantCity: 'Sao Paulo',
  amountCents: 1990,
  url: 'pix.pinvoice.local/qr/v2/ABCDEFGHIJKLMNOPQRSTUVWXYZ123456',
});

/** Check digits computed by the FEBRABAN rules: Banco do Brasil, R$ 49,90, due 2026-11-25. */
export const BOLETO_LINE = '00190000090281234567200000123174216410000004990';
export const BOLETO_BARCODE = '00192164100000049900000002812345670000012317';

const CREATED = '2026-11-22T15:03:58.123Z';

export function enterprise(): Enterprise {
  return {
    id: 1,
    cnpj: '11.222.333/0001-81',
    company_type: 'LTDA',
    corporate_reason: 'Pinvoice Sandbox Ltda',
    fantasy_name: 'Pinvoice Sandbox',
    url_website: 'https://sandbox.example.com',
    address: 'Avenida Paulista',
    address_city: 'São Paulo',
    address_number: '1000',
    address_postal_code: '01310-100',
    address_province: 'Bela Vista',
    address_state: 'SP',
    bank_account: '123456',
    bank_agency: '0001',
    bank_digit: '7',
    bank_name: '001 - Banco do Brasil S.A.',
    bank_type: 'corrente',
    amount_invoice_total: 1_234_567,
    amount_invoices_competicion: 45_678,
    balance_bank_slip: 4641,
    balance_card: 9362,
    balance_pix: 1970,
    blocked_bank_slip: false,
    blocked_card: false,
    blocked_pix: false,
    blocked_processing: false,
    blocked_sake: false,
    blocked_system: false,
    is_custom: false,
    create_at: '2026-01-05T12:00:00.000Z',
    update_at: '2026-11-01T08:30:00.000Z',
  };
}

function invoice(tx: Pick<Transaction, 'id' | 'secureId' | 'status' | 'paymentMethod' | 'amount' | 'fee'>): Invoice {
  return {
    id: tx.id,
    invoice_id: tx.secureId,
    invoice_id_external: null,
    invoice_id_external2: null,
    invoice_id_external3: null,
    status: tx.status,
    payment_method: tx.paymentMethod,
    is_pix: tx.paymentMethod === 'pix',
    is_bank_slip: tx.paymentMethod === 'boleto',
    is_credit_card: tx.paymentMethod === 'credit_card',
    is_anticipated: false,
    anticipation_approved: false,
    is_indication_tax: false,
    postback_url: '',
    qr_code_pix: tx.paymentMethod === 'pix' ? PIX_CODE : '',
    token_checkout: 'Qm9uZGlhUGl4Q2hlY2tvdXRUb2tlbjEy',
    retention_tax: 0,
    value_adq: 0,
    value_platform: tx.fee.estimatedFee,
    value_indication: 0,
    value_seller: tx.fee.netAmount,
    value_total: tx.amount,
    created_at: CREATED,
    updated_at: CREATED,
  };
}

function people(document: { number: string; type: 'cpf' | 'cnpj' }, name: string) {
  const email = 'maria.silva@example.com';
  const client = { id: 7, name, cpf_cnpj: document.number, email, phone: '+5511987654321', created_at: CREATED, updated_at: CREATED };
  const address = {
    city: 'São Paulo',
    complement: 'apto 42',
    country: 'br',
    neighborhood: 'Bela Vista',
    state: 'SP',
    street: 'Rua Augusta',
    streetNumber: '1500',
    zipCode: '01304001',
  };
  const customer = { id: 7, name, email, phone: '+5511987654321', birthdate: null, externalRef: null, createdAt: CREATED, document, address };
  return { client, customer };
}

/** A pending pix charge of R$ 19,90: two items, the 0,99 % pix fee, created and awaiting payment. */
export function pixTransaction(): Transaction {
  const base = {
    id: 42,
    secureId: 'INV-20261122-000042-8391',
    status: 'pending',
    paymentMethod: 'pix',
    amount: 1990,
    fee: { estimatedFee: 20, fixedAmount: 0, netAmount: 1970, spreadPercentage: 0.99 },
  } as const;
  return {
    ...base,
    companyId: 1,
    installments: 1,
    createdAt: CREATED,
    updatedAt: CREATED,
    paidAt: null,
    refundedAmount: 0,
    refusedReason: null,
    postbackUrl: 'https://shop.example.com/webhooks/pinvoice',
    traceable: false,
    externalRef: null,
    metadata: null,
    ip: '203.0.113.7',
    delivery: null,
    shipping: null,
    boleto: null,
    card: null,
    card_associate: null,
    pix: { qrCode: PIX_CODE, expiresAt: '2026-11-22T16:03:58.123Z' },
    ...people({ number: '52998224725', type: 'cpf' }, 'Maria da Silva'),
    enterprise: enterprise(),
    fee: { ...base.fee },
    invoice: invoice(base),
    items: [
      { title: 'Café especial 250 g', quantity: 1, unitPrice: 1290, tangible: true, externalRef: null },
      { title: 'Caneca esmaltada', quantity: 2, unitPrice: 350, tangible: true, externalRef: 'SKU-CAN-01' },
    ],
    financial_movements: [],
    refunds: [],
    splits: [],
    timeline: [{ status: 'pending', at: CREATED, note: 'pix charge created; awaiting payment' }],
  };
}

/** A card charge of R$ 150,00 in 3 installments, authenticated by 3-D Secure, paid, then R$ 50,00 refunded. */
export function cardTransaction(): Transaction {
  const pix = pixTransaction();
  const fee = { estimatedFee: 638, fixedAmount: 39, netAmount: 14362, spreadPercentage: 3.99 };
  const base = { id: 43, secureId: 'INV-20261122-000043-0457', status: 'paid', paymentMethod: 'credit_card', amount: 15000, fee } as const;
  const paidAt = '2026-11-22T15:05:12.480Z';
  const refundedAt = '2026-11-23T10:00:00.000Z';
  return {
    ...pix,
    ...base,
    installments: 3,
    paidAt,
    updatedAt: refundedAt,
    refundedAmount: 5000,
    postbackUrl: '',
    pix: null,
    card: {
      brand: 'visa',
      holderName: 'MARIA DA SILVA',
      firstDigits: '411111',
      lastDigits: '1111',
      expirationMonth: '12',
      expirationYear: '2030',
      installments: 3,
      tokenized: false,
      threeDSecure: 'authenticated',
    },
    invoice: invoice(base),
    items: [{ title: 'Fone de ouvido sem fio', quantity: 1, unitPrice: 15000, tangible: true, externalRef: null }],
    refunds: [{ id: 1, amount: 5000, reason: 'customer returned one unit', createdAt: refundedAt }],
    financial_movements: [
      { id: 1, type: 'payment', amount: 15000, balance: 'balance_card', description: 'card payment', createdAt: paidAt },
      { id: 2, type: 'fee', amount: -638, balance: 'balance_card', description: 'card fee 3,99 % + R$ 0,39', createdAt: paidAt },
      { id: 3, type: 'refund', amount: -5000, balance: 'balance_card', description: 'partial refund', createdAt: refundedAt },
    ],
    timeline: [
      { status: 'waiting_3ds', at: CREATED, note: '3-D Secure authentication requested' },
      { status: 'paid', at: paidAt, note: 'authorized after 3-D Secure' },
    ],
  };
}

/** A pending boleto of R$ 49,90 for a company payer (CNPJ), with no items. */
export function boletoTransaction(): Transaction {
  const pix = pixTransaction();
  const fee = { estimatedFee: 349, fixedAmount: 349, netAmount: 4641, spreadPercentage: 0 };
  const base = { id: 44, secureId: 'INV-20261122-000044-7210', status: 'pending', paymentMethod: 'boleto', amount: 4990, fee } as const;
  return {
    ...pix,
    ...base,
    pix: null,
    boleto: {
      barcode: BOLETO_BARCODE,
      digitableLine: BOLETO_LINE,
      dueDate: '2026-11-25',
      expiresAt: '2026-11-28T02:59:59.000Z',
    },
    ...people({ number: '45372343000115', type: 'cnpj' }, 'Comércio Exemplo Ltda'),
    invoice: invoice(base),
    items: [],
    timeline: [{ status: 'pending', at: CREATED, note: 'boleto issued; awaiting payment' }],
  };
}
