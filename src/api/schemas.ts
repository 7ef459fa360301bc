// The API as data: one zod schema per object of the specification, with its exact field names.
// Types are inferred from these schemas and never written twice. Schemas hold no transforms, so the
// request and response shapes are the same in both directions (and in the OpenAPI document).
import { z } from 'zod';
import { MAX_CENTS, MIN_CENTS } from '../domain/money.js';
import { controlCharacterProblem, findControlCharacter } from '../domain/text.js';
import { METHODS, STATUSES } from '../domain/status.js';
import { FORMATTED_CNPJ } from '../domain/document.js';
import { inCents, specShows, writtenAs } from './spec-shape.js';

/** The longest string any request field may hold. */
export const MAX_TEXT = 255;
/** The most items one charge holds, and the most of one item. */
export const MAX_ITEMS = 100;
export const MAX_QUANTITY = 1_000_000;
/** A card charge is paid in 1 to this many installments. */
export const MAX_INSTALLMENTS = 12;

/** A string free of control characters; a refine, not a transform, so the OpenAPI shape is unchanged. */
const oneLine = <S extends z.ZodType<string>>(schema: S): S =>
  schema.refine((value) => findControlCharacter(value) === undefined, {
    error: (issue) => controlCharacterProblem(String(issue.input)),
  });
const text = () => oneLine(z.string().max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`));
/** A required string: blank (only spaces) counts as missing; surrounding spaces are dropped. */
const requiredText = () => text().trim().min(1, 'is required');
/** An optional request field: `null`, as production integrations send for "none", is the same as leaving it out. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
const timestamp = () => z.iso.datetime({ precision: 3 }).describe('ISO 8601 UTC, milliseconds, trailing Z');
const cents = () => z.int().describe('integer amount in cents').register(inCents, { unit: 'cents' });
/** A type's own message for a value of the wrong type; a field left out (or null) is named as missing, as without a message of its own. */
export const typeError = (message: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : issue.input === null ? 'is required (null is no value)' : message;
/** A whole number within bounds, with messages a person can act on. */
const wholeNumber = (min: number, max: number, range = `${min} to ${max}`) =>
  z.int({ error: typeError(`must be a whole number from ${range}`) }).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);

/** An amount in cents within the one cap every charge, item and refund shares. */
const amountCents = () => wholeNumber(MIN_CENTS, MAX_CENTS, `${MIN_CENTS} to ${MAX_CENTS} (cents)`).register(inCents, { unit: 'cents' });
/** The specification shows none of this object's members (its shape is "not shown"), or only these. */
const shows = <S extends z.ZodObject>(schema: S, members: readonly (keyof S['shape'] & string)[] = []): S => {
  specShows.add(schema, { members });
  return schema;
};

export const Method = z.enum(METHODS, { error: typeError(`must be one of ${METHODS.join(', ')}`) });
export const Status = z.enum(STATUSES);

// ---- Create request ----------------------------------------------------------------------------

export const Payer = z.object({
  name: requiredText(),
  cpf_cnpj: requiredText(),
  email: oneLine(z.email('must be an e-mail address').max(MAX_TEXT)),
  phone: optional(text()),
  address_zip: optional(text()),
  address_line: optional(text()),
  address_number: optional(text()),
  address_complement: optional(text()),
  address_neighborhood: optional(text()),
  address_city: optional(text()),
  address_state: optional(text()),
});

export const CardInput = z.object({
  token: optional(text()),
  installment: optional(wholeNumber(1, MAX_INSTALLMENTS)),
  number: optional(text()),
  first_name: optional(text()),
  last_name: optional(text()),
  month: optional(text()),
  year: optional(text()),
  security_code: optional(text()),
  cavv: optional(text()),
  xid: optional(text()),
  eci: optional(text()),
  version: optional(text()),
  referenceid: optional(text()),
});

export const RequestItem = z.object({
  name: requiredText(),
  description: optional(text()),
  quantity: wholeNumber(1, MAX_QUANTITY),
  unit_price: amountCents(),
});

export const METADATA_MAX_KEYS = 50;
/** The merchant's own key-value pairs, kept and answered back (`metadata` in the record). */
export const Metadata = z
  .record(
    z.string(),
    oneLine(z.string({ error: 'must be a string (metadata values are strings)' }).max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`)),
    { error: 'must be an object of strings' },
  )
  .refine((value) => Object.keys(value).length <= METADATA_MAX_KEYS, `must hold at most ${METADATA_MAX_KEYS} keys`)
  .refine((value) => Object.keys(value).every((key) => key.length >= 1 && key.length <= 64), 'keys must be 1 to 64 characters long')
  // Checked here, not by a key schema: a key's own path would carry the character to the terminal.
  .refine((value) => Object.keys(value).every((key) => findControlCharacter(key) === undefined), {
    error: (issue) => {
      const keys = Object.keys(issue.input as Record<string, unknown>);
      const index = keys.findIndex((key) => findControlCharacter(key) !== undefined);
      return `keys ${controlCharacterProblem(keys[index] ?? '', ` of key ${index + 1}`)}`;
    },
  });

export const CreateInvoiceRequest = z.object({
  method: Method,
  product_fisical: optional(z.union([text(), z.boolean()])),
  ip_payer: optional(z.union([z.ipv4(), z.ipv6()], 'must be an IPv4 or IPv6 address')),
  total_price_cents: amountCents(),
  postback_url: optional(z.union([z.literal(''), oneLine(z.url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' }).max(2048))]))
    .describe('where postbacks go; "" or null: none'),
  payer: Payer,
  card: optional(CardInput),
  items: optional(z.array(RequestItem).min(1, `must hold 1 to ${MAX_ITEMS} items`).max(MAX_ITEMS, `must hold 1 to ${MAX_ITEMS} items`)),
  external_id: optional(text()).describe("the merchant's own reference (order number), answered as `externalRef`"),
  metadata: optional(Metadata).describe('up to 50 string values, answered as `metadata`'),
  currency: optional(z.literal('BRL', { error: 'must be BRL (the only currency)' })),
  country: optional(z.literal('BR', { error: 'must be BR (the only country)' })),
});

export const RefundRequest = z.object({
  amount_cents: amountCents().optional(),
  reason: text().optional(),
});

export const ThreeDSRequest = z.object({
  cavv: requiredText(),
  xid: requiredText(),
  eci: requiredText(),
  version: requiredText(),
  referenceid: requiredText(),
});

// ---- Transaction record ------------------------------------------------------------------------

export const Client = z.object({
  id: z.int(),
  name: z.string(),
  cpf_cnpj: z.string().describe('digits (and letters, for an alphanumeric CNPJ) only'),
  email: z.string(),
  phone: z.string(),
  created_at: timestamp(),
  updated_at: timestamp(),
});

export const Customer = z.object({
  id: z.int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  birthdate: z.string().nullable(),
  externalRef: z.string().nullable(),
  createdAt: timestamp(),
  document: z.object({ number: z.string(), type: z.enum(['cpf', 'cnpj']) }),
  address: z.object({
    city: z.string(),
    complement: z.string().nullable(),
    country: z.string(),
    neighborhood: z.string(),
    state: z.string(),
    street: z.string(),
    streetNumber: z.string(),
    zipCode: z.string(),
  }),
});

export const Enterprise = z.object({
  id: z.int(),
  cnpj: z.string().describe('formatted NN.NNN.NNN/NNNN-NN').register(writtenAs, { pattern: FORMATTED_CNPJ, words: 'NN.NNN.NNN/NNNN-NN' }),
  company_type: z.string(),
  corporate_reason: z.string(),
  fantasy_name: z.string(),
  url_website: z.string(),
  address: z.string(),
  address_city: z.string(),
  address_number: z.string(),
  address_postal_code: z.string(),
  address_province: z.string(),
  address_state: z.string(),
  bank_account: z.string(),
  bank_agency: z.string(),
  bank_digit: z.string(),
  bank_name: z.string(),
  bank_type: z.string(),
  amount_invoice_total: cents(),
  amount_invoices_competicion: cents(),
  balance_bank_slip: cents(),
  balance_card: cents(),
  balance_pix: cents(),
  blocked_bank_slip: z.boolean(),
  blocked_card: z.boolean(),
  blocked_pix: z.boolean(),
  blocked_processing: z.boolean(),
  blocked_sake: z.boolean(),
  blocked_system: z.boolean(),
  is_custom: z.boolean(),
  create_at: timestamp(),
  update_at: timestamp(),
});

export const Fee = z.object({
  estimatedFee: cents(),
  fixedAmount: cents(),
  netAmount: cents(),
  spreadPercentage: z.number(),
});

export const Invoice = z.object({
  id: z.int(),
  invoice_id: z.string(),
  invoice_id_external: z.string().nullable(),
  invoice_id_external2: z.string().nullable(),
  invoice_id_external3: z.string().nullable(),
  status: Status,
  payment_method: Method,
  is_pix: z.boolean(),
  is_bank_slip: z.boolean(),
  is_credit_card: z.boolean(),
  is_anticipated: z.boolean(),
  anticipation_approved: z.boolean(),
  is_indication_tax: z.boolean(),
  postback_url: z.string(),
  qr_code_pix: z.string(),
  token_checkout: z.string(),
  retention_tax: cents(),
  value_adq: cents(),
  value_platform: cents(),
  value_indication: cents(),
  value_seller: cents(),
  value_total: cents(),
  created_at: timestamp(),
  updated_at: timestamp(),
});

export const ResponseItem = z.object({
  title: z.string(),
  quantity: z.int(),
  unitPrice: cents(),
  tangible: z.boolean(),
  externalRef: z.string().nullable(),
});

// serve adds expiresAt; the specification shows `pix` with `qrCode` only
export const Pix = shows(z.object({ qrCode: z.string(), expiresAt: timestamp() }), ['qrCode']);

export const Boleto = shows(z.object({
  barcode: z.string(),
  digitableLine: z.string(),
  dueDate: z.iso.date(),
  expiresAt: timestamp(),
}));

export const Card = shows(z.object({
  brand: z.string(),
  holderName: z.string(),
  firstDigits: z.string(),
  lastDigits: z.string(),
  expirationMonth: z.string(),
  expirationYear: z.string(),
  installments: z.int(),
  tokenized: z.boolean(),
  threeDSecure: z.enum(['not_required', 'required', 'authenticated', 'failed']),
}));

export const TimelineEntry = shows(z.object({
  status: Status,
  at: timestamp(),
  note: z.string(),
  // pinvoice serve: the name of the token that made the change (null: the server itself, as for expiry)
  by: z.string().nullable().optional().describe('pinvoice serve: the name of the token that made the change; null for what the server did by itself'),
}));

export const Refund = shows(z.object({
  id: z.int(),
  amount: cents(),
  reason: z.string().nullable(),
  createdAt: timestamp(),
}));

export const FinancialMovement = shows(z.object({
  id: z.int(),
  type: z.enum(['payment', 'fee', 'refund', 'refund_fee', 'chargeback']),
  amount: cents().describe('signed: credits to the company are positive, debits negative'),
  balance: z.enum(['balance_pix', 'balance_card', 'balance_bank_slip']),
  description: z.string(),
  createdAt: timestamp(),
}));

export const Transaction = z.object({
  id: z.int(),
  secureId: z.string(),
  companyId: z.int(),
  amount: cents(),
  installments: z.int(),
  status: Status,
  paymentMethod: Method,
  createdAt: timestamp(),
  updatedAt: timestamp(),
  paidAt: timestamp().nullable(),
  refundedAmount: cents(),
  refusedReason: z.string().nullable(),
  postbackUrl: z.string(),
  traceable: z.boolean(),
  externalRef: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
  delivery: z.record(z.string(), z.unknown()).nullable(),
  shipping: z.record(z.string(), z.unknown()).nullable(),
  boleto: Boleto.nullable(),
  card: Card.nullable(),
  card_associate: z.record(z.string(), z.unknown()).nullable(),
  pix: Pix.nullable(),
  client: Client,
  customer: Customer,
  enterprise: Enterprise,
  fee: Fee,
  invoice: Invoice,
  items: z.array(ResponseItem),
  financial_movements: z.array(FinancialMovement),
  refunds: z.array(Refund),
  splits: z.array(z.record(z.string(), z.unknown())),
  timeline: z.array(TimelineEntry),
});

/** A page of the company's charges: Search Transaction without `id`, a pinvoice serve extension. */
export const InvoiceList = z.object({
  data: z.array(Transaction).describe('transaction records, each exactly as Search Transaction answers it by id; newest first (createdAt, then id, descending)'),
  next_cursor: z.string().nullable().describe('opaque: pass it as `cursor` for the next page; null on the last page'),
}).describe(
  'pinvoice serve extension (the production gateway offers no listing): a page of the company\'s charges, newest first, '
  + 'narrowed by the filters given; or, for a search by pix code, checkout token or boleto line, the one charge found (or none) and a null next_cursor.',
);

/** Search Transaction answers one bare record when given `id`, a page of records without it. */
export const SearchTransactionAnswer = z.xor([Transaction, InvoiceList])
  .describe('With `id`: the bare transaction record, as production answers. Without it: a page of records (InvoiceList, a pinvoice serve extension).');

/** The payer's view (invoices public area): what a payer needs to pay, nothing more. */
export const PublicInvoice = z.object({
  secureId: z.string(),
  status: Status,
  method: Method,
  amount: cents(),
  paidAt: timestamp().nullable(),
  expiresAt: timestamp().nullable(),
  pix: z.object({ qrCode: z.string() }).nullable(),
  boleto: z.object({ barcode: z.string(), digitableLine: z.string(), dueDate: z.iso.date() }).nullable(),
  items: z.array(z.object({ title: z.string(), quantity: z.int(), unitPrice: cents() })),
  company: z.object({ fantasy_name: z.string() }),
});

/**
 * Create Invoices' answer, in the production gateway's shape, which merchants' integrations read:
 * the transaction record under `data`, with `invoice_id` and `qr_code_pix` at its top level.
 */
export const CreateInvoiceResponse = z.object({
  // production may answer these three and nothing else (contract, "tolerant reading")
  data: shows(Transaction.extend({
    invoice_id: z.string().describe('the secureId (INV-…): what integrations look the charge up by'),
    qr_code_pix: z.string().nullable().describe('the pix copy-and-paste code (= pix.qrCode); null for other methods'),
  }), ['invoice_id', 'qr_code_pix', 'status']),
});

// ---- Errors ------------------------------------------------------------------------------------

export const ERROR_CODES = [
  'unauthorized',
  'forbidden',
  'not_found',
  'validation_failed',
  'invalid_json',
  'bad_request',
  'invalid_state',
  'idempotency_conflict',
  'payload_too_large',
  'unsupported_media_type',
  'request_timeout',
  'rate_limited',
  'server_busy',
  'internal',
  'store_unavailable',
  'insufficient_storage',
  'store_checking',
  'store_damaged',
  'journal_off',
  'fixture_record_read_only',
] as const;

export const ErrorDetail = z.object({ path: z.string(), message: z.string() });
export const ErrorBody = z.object({
  error: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.array(ErrorDetail).optional(),
});

export const Health = z.object({
  status: z.enum(['ok', 'degraded']).describe('degraded: the database is unreachable, full, damaged or being checked (see reason); the server still answers'),
  version: z.string(),
  code: z.enum(['store_unavailable', 'insufficient_storage', 'store_checking', 'store_damaged']).optional().describe('while degraded: the error code requests get'),
  reason: z.string().optional().describe('while degraded: what is wrong, in words'),
  since: z.string().optional().describe('while degraded: since when (ISO 8601)'),
});

export type Method = z.infer<typeof Method>;
export type Status = z.infer<typeof Status>;
export type Payer = z.infer<typeof Payer>;
export type CardInput = z.infer<typeof CardInput>;
export type RequestItem = z.infer<typeof RequestItem>;
export type CreateInvoiceRequest = z.infer<typeof CreateInvoiceRequest>;
export type RefundRequest = z.infer<typeof RefundRequest>;
export type ThreeDSRequest = z.infer<typeof ThreeDSRequest>;
export type PublicInvoice = z.infer<typeof PublicInvoice>;
export type Client = z.infer<typeof Client>;
export type Customer = z.infer<typeof Customer>;
export type Enterprise = z.infer<typeof Enterprise>;
export type Fee = z.infer<typeof Fee>;
export type Invoice = z.infer<typeof Invoice>;
export type ResponseItem = z.infer<typeof ResponseItem>;
export type TimelineEntry = z.infer<typeof TimelineEntry>;
export type Card = z.infer<typeof Card>;
export type Boleto = z.infer<typeof Boleto>;
export type Refund = z.infer<typeof Refund>;
export type FinancialMovement = z.infer<typeof FinancialMovement>;
export type Transaction = z.infer<typeof Transaction>;
export type InvoiceList = z.infer<typeof InvoiceList>;
export type CreateInvoiceResponse = z.infer<typeof CreateInvoiceResponse>;
export type ErrorCode = (typeof ERROR_CODES)[number];
export type ErrorDetail = z.infer<typeof ErrorDetail>;
export type ErrorBody = z.infer<typeof ErrorBody>;
