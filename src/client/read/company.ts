// The company behind a token (Company Infos), read tolerantly: production wraps it in `data`, writes
// PHP timestamps and booleans as 0/1, and may add fields or leave some out.
import { otherFields, type Known, type OtherField } from './others.js';
import { at, bool, cents, first, text, unwrapData, type Cents } from './values.js';

export const BLOCK_FLAGS = [
  ['blocked_pix', 'pix'],
  ['blocked_card', 'card'],
  ['blocked_bank_slip', 'bank slip'],
  ['blocked_processing', 'processing'],
  ['blocked_sake', 'sake (withdrawals)'],
  ['blocked_system', 'system'],
] as const;

export interface CompanyView {
  /** the answer exactly as the gateway sent it */
  raw: unknown;
  id?: string | undefined;
  /** the fantasy name, else the corporate reason */
  name?: string | undefined;
  fantasyName?: string | undefined;
  corporateReason?: string | undefined;
  cnpj?: string | undefined;
  type?: string | undefined;
  website?: string | undefined;
  street?: string | undefined;
  number?: string | undefined;
  province?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  zip?: string | undefined;
  bankName?: string | undefined;
  bankAgency?: string | undefined;
  bankAccount?: string | undefined;
  bankDigit?: string | undefined;
  bankType?: string | undefined;
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
  balances: { pix?: Cents | undefined; card?: Cents | undefined; boleto?: Cents | undefined };
  invoicedTotal?: Cents | undefined;
  invoicedThisMonth?: Cents | undefined;
  /** the labels of the flags that are set; undefined when the answer holds none of them */
  blocked?: string[] | undefined;
  others: readonly OtherField[];
}

const FIELDS = [
  'id', 'cnpj', 'company_type', 'corporate_reason', 'fantasy_name', 'name', 'url_website', 'address', 'address_city', 'address_number',
  'address_postal_code', 'address_province', 'address_state', 'bank_account', 'bank_agency', 'bank_digit', 'bank_name', 'bank_type',
  'amount_invoice_total', 'amount_invoices_competicion', 'balance_bank_slip', 'balance_card', 'balance_pix', 'is_custom',
  'create_at', 'update_at', 'created_at', 'updated_at', ...BLOCK_FLAGS.map(([field]) => field),
];
const KNOWN: Known = Object.fromEntries(FIELDS.map((key) => [key, true]));

export function readCompany(answer: unknown): CompanyView {
  const raw = unwrapData(answer);
  const get = (...paths: string[]) => text(first(raw, paths));
  const flags = BLOCK_FLAGS.filter(([field]) => bool(at(raw, field)) !== undefined);
  return {
    raw: answer,
    id: get('id'),
    name: get('fantasy_name', 'name', 'corporate_reason'),
    fantasyName: get('fantasy_name', 'name'),
    corporateReason: get('corporate_reason'),
    cnpj: get('cnpj'),
    type: get('company_type'),
    website: get('url_website'),
    street: get('address'),
    number: get('address_number'),
    province: get('address_province'),
    city: get('address_city'),
    state: get('address_state'),
    zip: get('address_postal_code'),
    bankName: get('bank_name'),
    bankAgency: get('bank_agency'),
    bankAccount: get('bank_account'),
    bankDigit: get('bank_digit'),
    bankType: get('bank_type'),
    createdAt: get('create_at', 'created_at'),
    updatedAt: get('update_at', 'updated_at'),
    balances: { pix: cents(at(raw, 'balance_pix')), card: cents(at(raw, 'balance_card')), boleto: cents(at(raw, 'balance_bank_slip')) },
    invoicedTotal: cents(at(raw, 'amount_invoice_total')),
    invoicedThisMonth: cents(at(raw, 'amount_invoices_competicion')),
    blocked: flags.length === 0 ? undefined : flags.filter(([field]) => bool(at(raw, field)) === true).map(([, label]) => label),
    others: otherFields(raw, KNOWN),
  };
}
