// A charge as the CLI shows it, read tolerantly from a transaction record of any gateway: our twin's
// (src/api/schemas.ts), production's (the specification's field list, six-digit fractions, statuses
// and shapes nobody listed), or a create answer holding only the charge's id and pix code. Each value
// is taken from wherever it plausibly is (the specification's place first, then the aliases PHP back
// ends use); what is not there is undefined (shown as "—"); what is not known is kept in `others`.
import { otherFields, type OtherField } from './others.js';
import { KNOWN } from './transaction-fields.js';
import { at, bool, cents, decimal, first, int, isRecord, list, text, type Cents } from './values.js';

export interface PayerView {
  name?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  document?: string | undefined;
  /** cpf or cnpj, as sent, else by the document's length */
  documentType?: string | undefined;
  street?: string | undefined;
  number?: string | undefined;
  complement?: string | undefined;
  neighborhood?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  zip?: string | undefined;
}

export interface ItemView { title?: string | undefined; quantity?: number | undefined; unitPrice?: Cents | undefined; tangible?: boolean | undefined }
export interface CardView {
  brand?: string | undefined; firstDigits?: string | undefined; lastDigits?: string | undefined; holder?: string | undefined;
  /** "12/2030", from the month and year or the one field a gateway sends */
  validThru?: string | undefined; installments?: number | undefined; tokenized?: boolean | undefined; threeDSecure?: string | undefined;
}
export interface BoletoView { line?: string | undefined; barcode?: string | undefined; dueDate?: string | undefined; url?: string | undefined }
export interface FeeView { spreadPercentage?: number | undefined; fixedAmount?: Cents | undefined; estimatedFee?: Cents | undefined; netAmount?: Cents | undefined }
export interface TimelineView {
  at?: string | undefined; status?: string | undefined; note?: string | undefined;
  /** who made the change (pinvoice serve names each token); null: the server itself; undefined: not said */
  by?: string | null | undefined;
}
export interface RefundView { id?: string | undefined; amount?: Cents | undefined; reason?: string | undefined; at?: string | undefined }
export interface MovementView { type?: string | undefined; balance?: string | undefined; amount?: Cents | undefined; description?: string | undefined; at?: string | undefined }

export interface TransactionView {
  /** the record exactly as the gateway sent it (what --json prints) */
  raw: unknown;
  id?: string | undefined;
  secureId?: string | undefined;
  /** what the charge is looked up by again: the integer id, else the secure id */
  ref?: string | undefined;
  status?: string | undefined;
  method?: string | undefined;
  amount?: Cents | undefined;
  refundedAmount?: Cents | undefined;
  installments?: number | undefined;
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
  paidAt?: string | undefined;
  /** when a charge still waiting for its payer stops being payable (pix expiry, boleto), if the gateway says */
  expiresAt?: string | undefined;
  refusedReason?: string | undefined;
  externalRef?: string | undefined;
  postbackUrl?: string | undefined;
  metadata: readonly (readonly [string, string])[];
  checkoutToken?: string | undefined;
  payer?: PayerView | undefined;
  items: readonly ItemView[];
  fee?: FeeView | undefined;
  pix?: { code: string } | undefined;
  boleto?: BoletoView | undefined;
  card?: CardView | undefined;
  company?: { id?: string | undefined; name?: string | undefined; cnpj?: string | undefined } | undefined;
  timeline: readonly TimelineView[];
  refunds: readonly RefundView[];
  movements: readonly MovementView[];
  /** what the record holds that the CLI does not know */
  others: readonly OtherField[];
}

/** Text at the first path that has some. */
const textAt = (value: unknown, ...paths: string[]) => text(first(value, paths));

/** A value the gateway sent as text or as an object with a message (refusedReason: {code, message}). */
function reason(value: unknown): string | undefined {
  return text(value) ?? textAt(value, 'message', 'reason', 'description', 'code');
}

function readPayer(raw: unknown): PayerView | undefined {
  const customer = at(raw, 'customer');
  const client = at(raw, 'client');
  const address = at(customer, 'address');
  const document = textAt(customer, 'document.number', 'cpf_cnpj', 'document') ?? textAt(client, 'cpf_cnpj', 'document');
  const digits = document?.replace(/\W/g, '') ?? '';
  const payer: PayerView = {
    name: textAt(customer, 'name') ?? textAt(client, 'name'),
    email: textAt(customer, 'email') ?? textAt(client, 'email'),
    phone: textAt(customer, 'phone') ?? textAt(client, 'phone'),
    document,
    documentType: textAt(customer, 'document.type') ?? (digits.length === 11 ? 'cpf' : digits.length === 14 ? 'cnpj' : undefined),
    street: textAt(address, 'street', 'line', 'address'),
    number: textAt(address, 'streetNumber', 'street_number', 'number'),
    complement: textAt(address, 'complement'),
    neighborhood: textAt(address, 'neighborhood', 'district'),
    city: textAt(address, 'city'),
    state: textAt(address, 'state'),
    zip: textAt(address, 'zipCode', 'zip_code', 'zipcode', 'zip'),
  };
  return Object.values(payer).some((value) => value !== undefined) ? payer : undefined;
}

function readCard(card: unknown): CardView | undefined {
  if (!isRecord(card)) return undefined;
  const month = textAt(card, 'expirationMonth', 'expiration_month', 'exp_month', 'month');
  const year = textAt(card, 'expirationYear', 'expiration_year', 'exp_year', 'year');
  return {
    brand: textAt(card, 'brand'),
    firstDigits: textAt(card, 'firstDigits', 'first_digits', 'first_six', 'bin'),
    lastDigits: textAt(card, 'lastDigits', 'last_digits', 'last_four', 'last4'),
    holder: textAt(card, 'holderName', 'holder_name', 'holder'),
    validThru: month && year ? `${month.padStart(2, '0')}/${year}` : textAt(card, 'exp', 'expiration', 'expiry'),
    installments: int(first(card, ['installments', 'installment'])),
    tokenized: bool(at(card, 'tokenized')),
    threeDSecure: textAt(card, 'threeDSecure', 'three_d_secure', '3ds'),
  };
}

function readBoleto(boleto: unknown): BoletoView | undefined {
  const view: BoletoView = {
    line: textAt(boleto, 'digitableLine', 'digitable_line', 'typeable_line', 'line'),
    barcode: textAt(boleto, 'barcode', 'bar_code'),
    dueDate: textAt(boleto, 'dueDate', 'due_date', 'expiration_date'),
    url: textAt(boleto, 'url', 'pdf', 'pdf_url'),
  };
  return Object.values(view).some((value) => value !== undefined) ? view : undefined;
}

function readFee(raw: unknown): FeeView | undefined {
  const fee = at(raw, 'fee');
  const view: FeeView = {
    spreadPercentage: decimal(first(fee, ['spreadPercentage', 'spread_percentage', 'percentage'])),
    fixedAmount: cents(first(fee, ['fixedAmount', 'fixed_amount', 'fixed'])),
    estimatedFee: cents(first(raw, ['fee.estimatedFee', 'fee.estimated_fee', 'fee.amount', 'invoice.value_platform'])),
    netAmount: cents(first(raw, ['fee.netAmount', 'fee.net_amount', 'invoice.value_seller'])),
  };
  return Object.values(view).some((value) => value !== undefined) ? view : undefined;
}

/** Entries of a list: an object's fields by their names, anything else (a bare string) as `fallback`. */
const entries = <T extends object>(value: unknown, read: (entry: unknown) => T, fallback: (text: string) => Partial<T>): T[] =>
  list(value).map((entry) => (isRecord(entry) ? read(entry) : (fallback(typeof entry === 'string' ? entry : JSON.stringify(entry)) as T)));

const TIME_PATHS = ['at', 'createdAt', 'created_at', 'date'];

/** Which charge a record is, and its status: what a batch's result line needs, without the whole view. */
export function readIdentity(raw: unknown): Pick<TransactionView, 'id' | 'secureId' | 'status'> {
  return {
    id: textAt(raw, 'id', 'invoice.id'),
    secureId: textAt(raw, 'secureId', 'secure_id', 'invoice_id', 'invoice.invoice_id'),
    status: textAt(raw, 'status', 'invoice.status'),
  };
}

/** The view of a transaction record (or of what a create answered); never throws, whatever `raw` is. */
export function readTransaction(raw: unknown): TransactionView {
  const { id, secureId, status } = readIdentity(raw);
  const metadata = at(raw, 'metadata');
  const pixCode = textAt(raw, 'pix.qrCode', 'pix.qr_code', 'pix.qrcode', 'pix.copy_paste', 'pix.emv', 'invoice.qr_code_pix', 'qr_code_pix');
  return {
    raw,
    id,
    secureId,
    ref: id ?? secureId,
    status,
    method: textAt(raw, 'paymentMethod', 'payment_method', 'method', 'invoice.payment_method'),
    amount: cents(first(raw, ['amount', 'total_price_cents', 'total', 'invoice.value_total'])),
    refundedAmount: cents(first(raw, ['refundedAmount', 'refunded_amount'])),
    installments: int(first(raw, ['installments', 'card.installments'])),
    createdAt: textAt(raw, 'createdAt', 'created_at', 'invoice.created_at'),
    updatedAt: textAt(raw, 'updatedAt', 'updated_at', 'invoice.updated_at'),
    paidAt: textAt(raw, 'paidAt', 'paid_at'),
    expiresAt: textAt(raw, 'pix.expiresAt', 'pix.expires_at', 'boleto.expiresAt', 'boleto.expires_at', 'expiresAt', 'expires_at'),
    refusedReason: reason(at(raw, 'refusedReason')),
    externalRef: textAt(raw, 'externalRef', 'external_id', 'invoice.invoice_id_external'),
    postbackUrl: textAt(raw, 'postbackUrl', 'postback_url', 'invoice.postback_url'),
    metadata: isRecord(metadata) ? Object.entries(metadata).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)] as const) : [],
    checkoutToken: textAt(raw, 'invoice.token_checkout', 'token_checkout'),
    payer: readPayer(raw),
    items: entries(at(raw, 'items'), (item) => ({
      title: textAt(item, 'title', 'name', 'description'),
      quantity: int(at(item, 'quantity')),
      unitPrice: cents(first(item, ['unitPrice', 'unit_price', 'price'])),
      tangible: bool(first(item, ['tangible', 'product_fisical'])),
    }), (title) => ({ title })),
    fee: readFee(raw),
    pix: pixCode === undefined ? undefined : { code: pixCode },
    boleto: readBoleto(at(raw, 'boleto')),
    card: readCard(at(raw, 'card')),
    company: isRecord(at(raw, 'enterprise')) ? { id: textAt(raw, 'enterprise.id'), name: textAt(raw, 'enterprise.fantasy_name', 'enterprise.name'), cnpj: textAt(raw, 'enterprise.cnpj') } : undefined,
    timeline: entries(at(raw, 'timeline'), (entry) => ({
      at: textAt(entry, ...TIME_PATHS), status: textAt(entry, 'status'), note: textAt(entry, 'note', 'description', 'message'), by: at(entry, 'by') === null ? null : textAt(entry, 'by'),
    }), (note) => ({ note })),
    refunds: entries(at(raw, 'refunds'), (refund) => ({
      id: textAt(refund, 'id'), amount: cents(first(refund, ['amount', 'amount_cents'])), reason: textAt(refund, 'reason'), at: textAt(refund, ...TIME_PATHS),
    }), (reasonText) => ({ reason: reasonText })),
    movements: entries(at(raw, 'financial_movements'), (movement) => ({
      type: textAt(movement, 'type'), balance: textAt(movement, 'balance'), amount: cents(at(movement, 'amount')), description: textAt(movement, 'description'), at: textAt(movement, ...TIME_PATHS),
    }), (description) => ({ description })),
    others: otherFields(raw, KNOWN),
  };
}

/**
 * Whether an answer is a charge's record rather than a note naming one: production's create answers
 * `{invoice_id, qr_code_pix, status}` and nothing else, which is looked up for the whole record.
 */
export function isWholeRecord(value: unknown): boolean {
  return isRecord(value) && ['secureId', 'amount', 'customer', 'paymentMethod', 'items', 'invoice'].some((key) => Object.hasOwn(value, key));
}
