// Validation shared by the client (before sending) and the server (before storing): the schema's
// field rules plus the contract's cross-field rules, every violation reported with its JSON path.
import type { z } from 'zod';
import { CEP, UF } from '../domain/address.js';
import { EXPIRY_MONTH, EXPIRY_YEAR, isExpired, normalizeCardNumber, passesLuhn, SECURITY_CODE } from '../domain/card.js';
import { documentProblem } from '../domain/document.js';
import { MAX_CENTS } from '../domain/money.js';
import { CONTROL_CHARACTERS, controlCharacterProblem } from '../domain/text.js';
import { CreateInvoiceRequest, type ErrorDetail } from './schemas.js';

export type Validated<T> = { ok: true; value: T } | { ok: false; details: ErrorDetail[] };

/** A key as it may be shown: control characters written as \uXXXX (a metadata key is the sender's text). */
const safeKey = (key: string) => key.replace(CONTROL_CHARACTERS, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);

/** ["items", 0, "unit_price"] -> "items[0].unit_price" */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    return out ? `${out}.${safeKey(String(key))}` : safeKey(String(key));
  }, '');
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return 'is required';
  if (issue.code === 'invalid_type' && typeof issue.path.at(-1) === 'string' && /received null$/.test(issue.message)) return 'is required (null is no value)';
  if (issue.code === 'invalid_type' && issue.path.length === 0) return `must be a JSON object, not ${issue.message.replace(/^.*received /, '')}`;
  if (issue.code === 'unrecognized_keys') return issue.message;
  return issue.message.replace(/^Invalid input: /, '');
}

/** Zod issues as the contract's `details` entries; a failing union reports one entry, not each branch. */
export function zodDetails(error: z.ZodError, prefix: PropertyKey[] = []): ErrorDetail[] {
  return error.issues.map((issue) => ({ path: jsonPath([...prefix, ...issue.path]) || '(body)', message: issueMessage(issue) }));
}

export function parseWith<S extends z.ZodType>(schema: S, body: unknown): Validated<z.infer<S>> {
  const result = schema.safeParse(body);
  return result.success ? { ok: true, value: result.data } : { ok: false, details: zodDetails(result.error) };
}

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);
const filled = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

const BOLETO_ADDRESS = ['address_zip', 'address_line', 'address_number', 'address_city', 'address_state'] as const;
const CARD_FIELDS = ['number', 'first_name', 'last_name', 'month', 'year', 'security_code'] as const;

const positiveInt = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1;

/** Only checked when the total and every item are well-formed: otherwise the field errors say it all. */
function itemsTotalRule(body: Raw, out: ErrorDetail[]): void {
  const { items, total_price_cents: total } = body;
  if (!Array.isArray(items) || items.length === 0 || !positiveInt(total) || total > MAX_CENTS) return;
  let sum = 0;
  for (const item of items) {
    if (!isObject(item) || !positiveInt(item.quantity) || !positiveInt(item.unit_price)) return;
    sum += item.quantity * item.unit_price;
  }
  if (sum !== total) out.push({ path: 'total_price_cents', message: `must equal the sum of quantity * unit_price of the items (${sum}), not ${total}` });
}

function documentRule(payer: Raw, out: ErrorDetail[]): void {
  const problem = filled(payer.cpf_cnpj) ? documentProblem(payer.cpf_cnpj) : null;
  if (problem) out.push({ path: 'payer.cpf_cnpj', message: `is ${problem.message}` });
}

function boletoRule(payer: Raw, out: ErrorDetail[]): void {
  for (const field of BOLETO_ADDRESS) {
    if (!filled(payer[field])) out.push({ path: `payer.${field}`, message: 'is required for boleto' });
  }
  if (filled(payer.address_zip) && !CEP.test(payer.address_zip.trim())) {
    out.push({ path: 'payer.address_zip', message: 'must be a CEP of 8 digits' });
  }
  if (filled(payer.address_state) && !UF.test(payer.address_state.trim())) {
    out.push({ path: 'payer.address_state', message: 'must be a two-letter state code (UF)' });
  }
}

function cardRule(card: unknown, now: Date, out: ErrorDetail[]): void {
  if (card === undefined || card === null) out.push({ path: 'card', message: 'is required for credit_card' });
  if (!isObject(card)) return; // a card of the wrong type is reported by the schema
  if (filled(card.token)) return;
  const missing = CARD_FIELDS.filter((field) => !filled(card[field]));
  for (const field of missing) out.push({ path: `card.${field}`, message: 'is required for credit_card without a card token' });
  if (filled(card.number) && !passesLuhn(normalizeCardNumber(card.number))) {
    out.push({ path: 'card.number', message: 'is not a valid card number (Luhn check failed)' });
  }
  if (filled(card.security_code) && !SECURITY_CODE.test(card.security_code)) {
    out.push({ path: 'card.security_code', message: 'must be 3 or 4 digits' });
  }
  const monthOk = filled(card.month) && EXPIRY_MONTH.test(card.month);
  const yearOk = filled(card.year) && EXPIRY_YEAR.test(card.year);
  if (filled(card.month) && !monthOk) out.push({ path: 'card.month', message: 'must be 1 to 12' });
  if (filled(card.year) && !yearOk) out.push({ path: 'card.year', message: 'must be YY or YYYY' });
  if (monthOk && yearOk && isExpired(card.month as string, card.year as string, now)) {
    out.push({ path: 'card.year', message: 'the card has expired' });
  }
}

/** A URL schema drops tabs and newlines before any refine sees them: so they are looked for in the raw value. */
function postbackUrlRule(body: Raw, out: ErrorDetail[]): void {
  const problem = typeof body.postback_url === 'string' ? controlCharacterProblem(body.postback_url) : undefined;
  if (problem && !out.some((detail) => detail.path === 'postback_url')) out.push({ path: 'postback_url', message: problem });
}

/** The contract's create rules. Cross-field rules run on the raw body even when field rules fail. */
export function validateCreateRequest(body: unknown, now: Date = new Date()): Validated<CreateInvoiceRequest> {
  const parsed = parseWith(CreateInvoiceRequest, body);
  const details = parsed.ok ? [] : [...parsed.details];
  if (isObject(body)) {
    postbackUrlRule(body, details);
    itemsTotalRule(body, details);
    const payer = isObject(body.payer) ? body.payer : {};
    documentRule(payer, details);
    if (body.method === 'boleto') boletoRule(payer, details);
    if (body.method === 'credit_card') cardRule(body.card, now, details);
  }
  if (details.length > 0) return { ok: false, details };
  return parsed;
}
