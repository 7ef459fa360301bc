// Generated from the response schemas (src/api, as src/client/parse.ts names them) and the operation
// table by test/unit/client-shapes.test.ts, which fails when this file no longer matches them: run
// that test with -u to write it again. Do not edit by hand. The client checks answers with these
// shapes (read-shape.ts) and builds paths from these operations without loading zod.
import type { Shape } from './read-shape.js';
import type { SchemaName } from './parse.js';

const ISO_DATETIME = /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}(?:Z))$/;
const ISO_DATE = /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))$/;

const Boleto: Shape = { object: {
  barcode: 'string',
  digitableLine: 'string',
  dueDate: { pattern: ISO_DATE },
  expiresAt: { pattern: ISO_DATETIME },
} };

const Card: Shape = { object: {
  brand: 'string',
  holderName: 'string',
  firstDigits: 'string',
  lastDigits: 'string',
  expirationMonth: 'string',
  expirationYear: 'string',
  installments: 'int',
  tokenized: 'boolean',
  threeDSecure: { oneOf: ['not_required', 'required', 'authenticated', 'failed'] },
} };

const Pix: Shape = { object: {
  qrCode: 'string',
  expiresAt: { pattern: ISO_DATETIME },
} };

const Client: Shape = { object: {
  id: 'int',
  name: 'string',
  cpf_cnpj: 'string',
  email: 'string',
  phone: 'string',
  created_at: { pattern: ISO_DATETIME },
  updated_at: { pattern: ISO_DATETIME },
} };

const Customer: Shape = { object: {
  id: 'int',
  name: 'string',
  email: 'string',
  phone: 'string',
  birthdate: { nullable: 'string' },
  externalRef: { nullable: 'string' },
  createdAt: { pattern: ISO_DATETIME },
  document: { object: {
    number: 'string',
    type: { oneOf: ['cpf', 'cnpj'] },
  } },
  address: { object: {
    city: 'string',
    complement: { nullable: 'string' },
    country: 'string',
    neighborhood: 'string',
    state: 'string',
    street: 'string',
    streetNumber: 'string',
    zipCode: 'string',
  } },
} };

const Enterprise: Shape = { object: {
  id: 'int',
  cnpj: 'string',
  company_type: 'string',
  corporate_reason: 'string',
  fantasy_name: 'string',
  url_website: 'string',
  address: 'string',
  address_city: 'string',
  address_number: 'string',
  address_postal_code: 'string',
  address_province: 'string',
  address_state: 'string',
  bank_account: 'string',
  bank_agency: 'string',
  bank_digit: 'string',
  bank_name: 'string',
  bank_type: 'string',
  amount_invoice_total: 'int',
  amount_invoices_competicion: 'int',
  balance_bank_slip: 'int',
  balance_card: 'int',
  balance_pix: 'int',
  blocked_bank_slip: 'boolean',
  blocked_card: 'boolean',
  blocked_pix: 'boolean',
  blocked_processing: 'boolean',
  blocked_sake: 'boolean',
  blocked_system: 'boolean',
  is_custom: 'boolean',
  create_at: { pattern: ISO_DATETIME },
  update_at: { pattern: ISO_DATETIME },
} };

const Fee: Shape = { object: {
  estimatedFee: 'int',
  fixedAmount: 'int',
  netAmount: 'int',
  spreadPercentage: 'number',
} };

const Invoice: Shape = { object: {
  id: 'int',
  invoice_id: 'string',
  invoice_id_external: { nullable: 'string' },
  invoice_id_external2: { nullable: 'string' },
  invoice_id_external3: { nullable: 'string' },
  status: { oneOf: ['pending', 'waiting_3ds', 'paid', 'refused', 'expired', 'canceled', 'refunded', 'chargedback'] },
  payment_method: { oneOf: ['pix', 'credit_card', 'boleto'] },
  is_pix: 'boolean',
  is_bank_slip: 'boolean',
  is_credit_card: 'boolean',
  is_anticipated: 'boolean',
  anticipation_approved: 'boolean',
  is_indication_tax: 'boolean',
  postback_url: 'string',
  qr_code_pix: 'string',
  token_checkout: 'string',
  retention_tax: 'int',
  value_adq: 'int',
  value_platform: 'int',
  value_indication: 'int',
  value_seller: 'int',
  value_total: 'int',
  created_at: { pattern: ISO_DATETIME },
  updated_at: { pattern: ISO_DATETIME },
} };

const ResponseItem: Shape = { object: {
  title: 'string',
  quantity: 'int',
  unitPrice: 'int',
  tangible: 'boolean',
  externalRef: { nullable: 'string' },
} };

const FinancialMovement: Shape = { object: {
  id: 'int',
  type: { oneOf: ['payment', 'fee', 'refund', 'refund_fee', 'chargeback'] },
  amount: 'int',
  balance: { oneOf: ['balance_pix', 'balance_card', 'balance_bank_slip'] },
  description: 'string',
  createdAt: { pattern: ISO_DATETIME },
} };

const Refund: Shape = { object: {
  id: 'int',
  amount: 'int',
  reason: { nullable: 'string' },
  createdAt: { pattern: ISO_DATETIME },
} };

const TimelineEntry: Shape = { object: {
  status: { oneOf: ['pending', 'waiting_3ds', 'paid', 'refused', 'expired', 'canceled', 'refunded', 'chargedback'] },
  at: { pattern: ISO_DATETIME },
  note: 'string',
  by: { optional: { nullable: 'string' } },
} };

const Transaction: Shape = { object: {
  id: 'int',
  secureId: 'string',
  companyId: 'int',
  amount: 'int',
  installments: 'int',
  status: { oneOf: ['pending', 'waiting_3ds', 'paid', 'refused', 'expired', 'canceled', 'refunded', 'chargedback'] },
  paymentMethod: { oneOf: ['pix', 'credit_card', 'boleto'] },
  createdAt: { pattern: ISO_DATETIME },
  updatedAt: { pattern: ISO_DATETIME },
  paidAt: { nullable: { pattern: ISO_DATETIME } },
  refundedAmount: 'int',
  refusedReason: { nullable: 'string' },
  postbackUrl: 'string',
  traceable: 'boolean',
  externalRef: { nullable: 'string' },
  metadata: { nullable: 'record' },
  ip: { nullable: 'string' },
  delivery: { nullable: 'record' },
  shipping: { nullable: 'record' },
  boleto: { nullable: Boleto },
  card: { nullable: Card },
  card_associate: { nullable: 'record' },
  pix: { nullable: Pix },
  client: Client,
  customer: Customer,
  enterprise: Enterprise,
  fee: Fee,
  invoice: Invoice,
  items: { array: ResponseItem },
  financial_movements: { array: FinancialMovement },
  refunds: { array: Refund },
  splits: { array: 'record' },
  timeline: { array: TimelineEntry },
} };

const DeliveryAttempt: Shape = { object: {
  at: { pattern: ISO_DATETIME },
  url: 'string',
  duration_ms: 'int',
  status_code: { nullable: 'int' },
  error: { nullable: 'string' },
  response_excerpt: { nullable: 'string' },
  delivered: 'boolean',
  injected: { array: 'string' },
} };

const PostbackBody: Shape = { object: {
  id: 'string',
  invoice_id: 'string',
  event: { oneOf: ['invoice.created', 'invoice.paid', 'invoice.failed', 'invoice.expired', 'invoice.canceled', 'invoice.partially_refunded', 'invoice.refunded', 'invoice.chargedback'] },
  status: { oneOf: ['pending', 'waiting_3ds', 'paid', 'refused', 'expired', 'canceled', 'refunded', 'chargedback'] },
  total: 'int',
  method: { oneOf: ['pix', 'credit_card', 'boleto'] },
  event_id: 'string',
  created_at: { pattern: ISO_DATETIME },
  paid_at: { nullable: { pattern: ISO_DATETIME } },
  transaction: Transaction,
} };

const WebhookEvent: Shape = { object: {
  id: 'string',
  event: { oneOf: ['invoice.created', 'invoice.paid', 'invoice.failed', 'invoice.expired', 'invoice.canceled', 'invoice.partially_refunded', 'invoice.refunded', 'invoice.chargedback'] },
  created_at: { pattern: ISO_DATETIME },
  invoice_id: 'string',
  status: { oneOf: ['pending', 'waiting_3ds', 'paid', 'refused', 'expired', 'canceled', 'refunded', 'chargedback'] },
  url: 'string',
  state: { oneOf: ['pending', 'delivered', 'failed', 'no_url'] },
  next_attempt_at: { nullable: { pattern: ISO_DATETIME } },
  delivered_at: { nullable: { pattern: ISO_DATETIME } },
  attempts: { array: DeliveryAttempt },
  payload: PostbackBody,
} };

const EventList: Shape = { object: {
  data: { array: WebhookEvent },
} };

const PublicInvoice: Shape = { object: {
  secureId: 'string',
  status: { oneOf: ['pending', 'waiting_3ds', 'paid', 'refused', 'expired', 'canceled', 'refunded', 'chargedback'] },
  method: { oneOf: ['pix', 'credit_card', 'boleto'] },
  amount: 'int',
  paidAt: { nullable: { pattern: ISO_DATETIME } },
  expiresAt: { nullable: { pattern: ISO_DATETIME } },
  pix: { nullable: { object: {
    qrCode: 'string',
  } } },
  boleto: { nullable: { object: {
    barcode: 'string',
    digitableLine: 'string',
    dueDate: { pattern: ISO_DATE },
  } } },
  items: { array: { object: {
    title: 'string',
    quantity: 'int',
    unitPrice: 'int',
  } } },
  company: { object: {
    fantasy_name: 'string',
  } },
} };

const WebhookSecret: Shape = { object: {
  webhook_secret: 'string',
  signature_header: { oneOf: ['Pinvoice-Signature'] },
  body_signature_header: { oneOf: ['X-Webhook-Signature'] },
} };

export const SHAPES: Partial<Record<SchemaName, Shape>> = {
  Transaction,
  Enterprise,
  EventList,
  WebhookEvent,
  PublicInvoice,
  WebhookSecret,
  SandboxClock: { object: {
    now: { pattern: ISO_DATETIME },
    offset_seconds: 'number',
  } },
  ChaosRule: { object: {
    duplicate: 'boolean',
    delay_ms: 'int',
    reorder: 'boolean',
    drop_first: 'int',
    bad_signature: 'boolean',
    invoice_id: { nullable: 'string' },
    active: 'boolean',
  } },
  ScenarioList: { object: {
    data: { array: { object: {
      kind: { oneOf: ['card', 'card_token', '3ds', 'pix', 'boleto'] },
      value: 'string',
      outcome: 'string',
    } } },
  } },
};

/** Each operation's name (for messages) and path, as in src/api/operations.ts. */
export const OPERATIONS = {
  createInvoice: { name: 'Create Invoices', path: '/api/v2/invoices' },
  searchTransaction: { name: 'Search Transaction', path: '/api/v2/invoices' },
  getTransaction: { name: 'Search Transaction (by path)', path: '/api/v2/invoices/{id}' },
  createRefund: { name: 'Create Refunded', path: '/api/v2/invoices/{id}/refund' },
  activate3ds: { name: 'Active 3ds', path: '/api/v2/invoices/{id}/3ds' },
  publicInvoice: { name: 'invoices public', path: '/api/v2/public/invoices/{token_checkout}' },
  sandbox_pay: { name: 'Sandbox: pay', path: '/api/v2/sandbox/invoices/{id}/pay' },
  sandbox_expire: { name: 'Sandbox: expire', path: '/api/v2/sandbox/invoices/{id}/expire' },
  sandbox_cancel: { name: 'Sandbox: cancel', path: '/api/v2/sandbox/invoices/{id}/cancel' },
  sandbox_chargeback: { name: 'Sandbox: chargeback', path: '/api/v2/sandbox/invoices/{id}/chargeback' },
  sandboxClock: { name: 'Sandbox: clock', path: '/api/v2/sandbox/clock' },
  sandboxClockAdvance: { name: 'Sandbox: advance the clock', path: '/api/v2/sandbox/clock/advance' },
  sandboxClockSet: { name: 'Sandbox: set the clock', path: '/api/v2/sandbox/clock' },
  sandboxClockReset: { name: 'Sandbox: reset the clock', path: '/api/v2/sandbox/clock' },
  sandboxChaos: { name: 'Sandbox: postback chaos', path: '/api/v2/sandbox/chaos' },
  sandboxChaosSet: { name: 'Sandbox: set postback chaos', path: '/api/v2/sandbox/chaos' },
  sandboxChaosClear: { name: 'Sandbox: clear postback chaos', path: '/api/v2/sandbox/chaos' },
  sandboxScenarios: { name: 'Sandbox: scenarios', path: '/api/v2/sandbox/scenarios' },
  companyInfos: { name: 'Company Infos', path: '/api/v2/company' },
  webhookSecret: { name: 'Webhook secret', path: '/api/v2/webhooks/secret' },
  listEvents: { name: 'Postback events of a charge', path: '/api/v2/invoices/{id}/events' },
  getEvent: { name: 'Postback event', path: '/api/v2/events/{event_id}' },
  resendEvent: { name: 'Resend a postback event', path: '/api/v2/events/{event_id}/resend' },
  openapi: { name: 'OpenAPI document', path: '/openapi.json' },
  health: { name: 'Health', path: '/health' },
} as const;
