// The query of Search Transaction (`GET /api/v2/invoices`), once for the server (which parses it),
// the client (which builds it) and the OpenAPI document (which describes it). `id` is production's
// lookup of one charge; the rest is a pinvoice extension: a page of the company's charges, newest
// first, narrowed by filters, or one charge found by its pix code, checkout token or boleto line.
import { MAX_CENTS } from '../domain/money.js';
import { METHODS, type Method, type Status } from '../domain/status.js';
import type { Position } from './cursor.js';
import * as V from './query-values.js';
import type { ErrorDetail } from './schemas.js';
import { jsonPath, type Validated } from './validate.js';

/** What a page of charges is narrowed to; every member given narrows it further (AND). */
export interface ListFilter {
  statuses?: Status[];
  method?: Method;
  /** normalised as the charge's payer is stored (digits, or digits and letters of a CNPJ) */
  payer_document?: string;
  /** lower-cased */
  payer_email?: string;
  external_id?: string;
  /** ISO 8601 UTC with milliseconds, as created_at is stored: created_at ≥ created_from, < created_to */
  created_from?: string;
  created_to?: string;
  amount_min?: number;
  amount_max?: number;
}

export type InvoiceSearch =
  | { by: 'pix_code'; code: string; txid: string | null }
  | { by: 'token_checkout'; token: string }
  | { by: 'boleto_line'; barcode: string };

export type InvoiceQuery =
  | { kind: 'id'; id: string }
  | { kind: 'list'; filter: ListFilter; limit: number; after: Position | null }
  | { kind: 'search'; search: InvoiceSearch };

/** id and the searches stand alone; filters and the page's parameters combine freely. */
type Role = 'alone' | 'filter' | 'page';

interface Parameter {
  role: Role;
  description: string;
  /** the JSON Schema of its value in the OpenAPI document */
  schema: Record<string, unknown>;
  parse: (raw: string) => V.Parsed<unknown>;
}

const text = { type: 'string' };
const EXTENSION = 'pinvoice serve extension: ';

export const SEARCH_PARAMETERS: Record<string, Parameter> = {
  id: { role: 'alone', description: 'the integer `id` or the `secureId` (INV-…) of one charge: answers its bare record. Without it, a page of charges (the parameters below).', schema: text, parse: V.id },
  status: { role: 'filter', description: `${EXTENSION}a status, or several separated by commas (\`paid,refunded\`)`, schema: text, parse: V.statuses },
  method: { role: 'filter', description: `${EXTENSION}the payment method`, schema: { type: 'string', enum: [...METHODS] }, parse: V.method },
  payer_document: { role: 'filter', description: `${EXTENSION}the payer's CPF or CNPJ, digits or formatted`, schema: text, parse: V.payerDocument },
  payer_email: { role: 'filter', description: `${EXTENSION}the payer's e-mail, without regard to case`, schema: text, parse: V.payerEmail },
  external_id: { role: 'filter', description: `${EXTENSION}the merchant's own reference given at creation (\`externalRef\`), exactly`, schema: text, parse: V.externalId },
  created_from: { role: 'filter', description: `${EXTENSION}created at or after: an ISO 8601 date-time with a zone, or a date (midnight UTC)`, schema: text, parse: V.instant },
  created_to: { role: 'filter', description: `${EXTENSION}created before (exclusive): an ISO 8601 date-time with a zone, or a date (midnight UTC)`, schema: text, parse: V.instant },
  amount_min: { role: 'filter', description: `${EXTENSION}an amount of at least this many cents`, schema: { type: 'integer', minimum: 0, maximum: MAX_CENTS }, parse: V.cents },
  amount_max: { role: 'filter', description: `${EXTENSION}an amount of at most this many cents`, schema: { type: 'integer', minimum: 0, maximum: MAX_CENTS }, parse: V.cents },
  limit: { role: 'page', description: `${EXTENSION}charges per page`, schema: { type: 'integer', minimum: 1, maximum: V.MAX_LIMIT, default: V.DEFAULT_LIMIT }, parse: V.limit },
  cursor: { role: 'page', description: `${EXTENSION}the \`next_cursor\` of the previous page, as it came`, schema: text, parse: V.cursor },
  pix_code: { role: 'alone', description: `${EXTENSION}finds the charge of a pix copy-and-paste code (whitespace in it ignored): a page of 0 or 1`, schema: text, parse: V.pixCode },
  token_checkout: { role: 'alone', description: `${EXTENSION}finds the charge of a checkout token: a page of 0 or 1`, schema: text, parse: V.tokenCheckout },
  boleto_line: { role: 'alone', description: `${EXTENSION}finds the charge of a boleto typeable line (47 digits) or barcode (44), dots and spaces ignored: a page of 0 or 1`, schema: text, parse: V.boletoLine },
};

const NAMES = Object.keys(SEARCH_PARAMETERS);
const path = (name: string) => jsonPath(['query', name]);
const list = (names: string[]) => names.join(', ');

/** id and each search stand alone: every parameter given beside one is named, and the lone one too. */
function combinationRule(given: string[], out: ErrorDetail[]): void {
  const alone = given.filter((name) => SEARCH_PARAMETERS[name]?.role === 'alone');
  if (alone.length === 0 || given.length < 2) return;
  for (const name of given) {
    const others = given.filter((other) => other !== name);
    out.push({
      path: path(name),
      message: alone.includes(name)
        ? `${name === 'id' ? 'looks up one charge' : 'finds one charge'} on its own: leave out ${list(others)}`
        : `cannot be combined with ${list(alone)}`,
    });
  }
}

function rangeRules(values: Record<string, unknown>, out: ErrorDetail[]): void {
  const { created_from: from, created_to: to } = values as Pick<ListFilter, 'created_from' | 'created_to'>;
  const { amount_min: min, amount_max: max } = values as Pick<ListFilter, 'amount_min' | 'amount_max'>;
  if (from !== undefined && to !== undefined && to <= from) out.push({ path: path('created_to'), message: `must be later than created_from (${from}); it is exclusive` });
  if (min !== undefined && max !== undefined && max < min) out.push({ path: path('amount_max'), message: `must be at least amount_min (${min})` });
}

function build(values: Record<string, unknown>): InvoiceQuery {
  if (typeof values.id === 'string') return { kind: 'id', id: values.id };
  if (values.pix_code) return { kind: 'search', search: { by: 'pix_code', ...(values.pix_code as { code: string; txid: string | null }) } };
  if (typeof values.token_checkout === 'string') return { kind: 'search', search: { by: 'token_checkout', token: values.token_checkout } };
  if (typeof values.boleto_line === 'string') return { kind: 'search', search: { by: 'boleto_line', barcode: values.boleto_line } };
  const { limit, cursor, status, ...rest } = values;
  const filter = { ...rest, ...(status !== undefined && { statuses: status }) } as ListFilter;
  return { kind: 'list', filter, limit: (limit as number | undefined) ?? V.DEFAULT_LIMIT, after: (cursor as Position | undefined) ?? null };
}

/**
 * The query as parsed by the server's router (a value, or an array when given twice). Every problem is
 * reported at `query.<name>`: an unknown parameter, one given twice, a value of the wrong form, a
 * parameter beside one that stands alone, a range that ends before it starts.
 */
export function parseInvoiceQuery(query: Record<string, unknown>): Validated<InvoiceQuery> {
  const details: ErrorDetail[] = [];
  const values: Record<string, unknown> = {};
  const given = Object.keys(query).filter((name) => name in SEARCH_PARAMETERS);
  for (const [name, raw] of Object.entries(query)) {
    const parameter = SEARCH_PARAMETERS[name];
    if (!parameter) {
      details.push({ path: path(name), message: `is not a parameter of Search Transaction; it takes ${list(NAMES)}` });
      continue;
    }
    if (typeof raw !== 'string') {
      const hint = name === 'status' ? ': several statuses go in one, separated by commas (status=paid,refunded)' : '';
      details.push({ path: path(name), message: `must be given once${hint}` });
      continue;
    }
    const parsed = parameter.parse(raw);
    if (parsed.ok) values[name] = parsed.value;
    else details.push({ path: path(name), message: parsed.message });
  }
  combinationRule(given, details);
  rangeRules(values, details);
  return details.length > 0 ? { ok: false, details } : { ok: true, value: build(values) };
}
