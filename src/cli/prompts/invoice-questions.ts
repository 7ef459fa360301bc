// The questions of the guided `invoice create`, and how they are asked: once for what is missing, or
// again from the summary with the current answer as the default. Each is checked by a validator of
// validators.ts (the API's own rules), so a charge the prompts accept is never refused for its answers.
import { MAX_INSTALLMENTS, MAX_ITEMS, type ErrorDetail, type Method, type RequestItem } from '../../api/schemas.js';
import { validateCreateRequest } from '../../api/validate.js';
import { normalizeCardNumber } from '../../domain/card.js';
import { formatDocument } from '../../domain/document.js';
import { formatBRL, MAX_CENTS, parseAmount } from '../../domain/money.js';
import { usageError } from '../errors.js';
import type { Prompter, Validate } from './prompter.js';
import {
  filled, validateCardNumber, validateCep, validateDocument, validateEmail, validateMonth, validatePrice, validateQuantity,
  validateRequired, validateSecurityCode, validateUf, validateYear,
} from './validators.js';

export type Draft = Record<string, unknown>;

export interface Question {
  field: string;
  message: string;
  validate: Validate;
  clean?: (v: string) => string;
  secret?: boolean;
  /** asked again, the current value is not shown as the default: Enter keeps it, shown as this says */
  hidden?: (current: string) => string;
  /** may be left empty; asked again, "-" removes it */
  optional?: boolean;
}

export const PAYER: Question[] = [
  { field: 'name', message: 'Payer name', validate: validateRequired },
  { field: 'email', message: 'Payer e-mail', validate: validateEmail },
  { field: 'cpf_cnpj', message: 'Payer CPF or CNPJ', validate: validateDocument, clean: formatDocument },
];
export const ADDRESS: Question[] = [
  { field: 'address_zip', message: 'Payer CEP', validate: validateCep, clean: (v) => v.replace(/\D/g, '').replace(/^(\d{5})/, '$1-') },
  { field: 'address_line', message: 'Street', validate: validateRequired },
  { field: 'address_number', message: 'Street number', validate: validateRequired },
  { field: 'address_city', message: 'City', validate: validateRequired },
  { field: 'address_state', message: 'State (UF)', validate: validateUf, clean: (v) => v.toUpperCase() },
];
/** Parts of an address the boleto does not need: asked again only when given. */
export const ADDRESS_EXTRAS: Question[] = [
  { field: 'address_complement', message: 'Address complement', validate: validateRequired, optional: true },
  { field: 'address_neighborhood', message: 'Neighbourhood (bairro)', validate: validateRequired, optional: true },
];
// The year question reads the month already in `card`, so it can tell an expired card.
export const cardQuestions = (card: Draft, now: Date): Question[] => [
  { field: 'number', message: 'Card number', validate: validateCardNumber, clean: normalizeCardNumber, hidden: (v) => `•••• ${v.replace(/\D/g, '').slice(-4)}` },
  { field: 'first_name', message: 'Cardholder first name', validate: validateRequired },
  { field: 'last_name', message: 'Cardholder last name', validate: validateRequired },
  { field: 'month', message: 'Expiry month (1-12)', validate: validateMonth, clean: (v) => v.padStart(2, '0') },
  { field: 'year', message: 'Expiry year (YY or YYYY)', validate: (v) => validateYear(now, card.month as string | undefined)(v) },
  { field: 'security_code', message: 'Security code', validate: validateSecurityCode, secret: true, hidden: () => 'the one given' },
];
export const CARD_FIELDS = cardQuestions({}, new Date(0)).map((q) => q.field);

export const METHODS: { name: string; value: Method }[] = [
  { name: 'Pix', value: 'pix' },
  { name: 'Credit card', value: 'credit_card' },
  { name: 'Boleto', value: 'boleto' },
];
export const INSTALLMENTS = Array.from({ length: MAX_INSTALLMENTS }, (_, i) => ({ name: `${i + 1}x`, value: String(i + 1) }));

export const unanswered = (target: Draft, questions: Question[]) => questions.filter((q) => !filled(target[q.field]));

/** Asks the questions whose field is not filled in `target`, writing the cleaned answers into it. */
export async function ask(prompter: Prompter, target: Draft, questions: Question[]): Promise<number> {
  const asked = unanswered(target, questions);
  for (const q of asked) {
    const { message, validate } = q;
    const answer = q.secret ? await prompter.password({ message, mask: '*', validate }) : await prompter.input({ message, validate });
    target[q.field] = q.clean ? q.clean(answer.trim()) : answer.trim();
  }
  return asked.length;
}

/** Asks each question again, the current answer the default (Enter keeps it); "-" removes an optional one. */
export async function reask(prompter: Prompter, target: Draft, questions: Question[]): Promise<void> {
  for (const q of questions) {
    const current = filled(target[q.field]) ? (target[q.field] as string) : undefined;
    const keepHidden = q.hidden !== undefined && current !== undefined;
    const removable = q.optional === true;
    const validate: Validate = (v) => (keepHidden && v.trim() === '') || (removable && ['', '-'].includes(v.trim())) || q.validate(v);
    const note = keepHidden ? ` (Enter keeps ${q.hidden!(current!)})` : removable && current !== undefined ? ' (- removes it)' : '';
    const message = `${q.message}${note}`;
    const answer = q.secret
      ? await prompter.password({ message, mask: '*', validate })
      : await prompter.input({ message, validate, ...(keepHidden || current === undefined ? {} : { default: current }) });
    const typed = answer.trim();
    if (keepHidden && typed === '') continue;
    if (removable && ['', '-'].includes(typed)) delete target[q.field];
    else target[q.field] = q.clean ? q.clean(typed) : typed;
  }
}

export async function askInstallments(prompter: Prompter, current: unknown): Promise<number> {
  const given = Number.isSafeInteger(current) ? String(current) : '1';
  return Number(await prompter.select({ message: 'Installments', choices: INSTALLMENTS, default: given }));
}

/** The card's missing fields (nothing for a token), and the installments when anything was asked. */
export async function askCard(card: Draft | undefined, prompter: Prompter, now: Date): Promise<Draft> {
  if (filled(card?.token)) return card!;
  const draft: Draft = { ...card };
  const asked = await ask(prompter, draft, cardQuestions(draft, now));
  if (asked > 0 && draft.installment === undefined) draft.installment = await askInstallments(prompter, undefined);
  return draft;
}

function limitReached(count: number, total: number): string | undefined {
  if (count >= MAX_ITEMS) return `That makes ${MAX_ITEMS} items, the most one charge can hold.`;
  if (total >= MAX_CENTS) return `That makes ${formatBRL(MAX_CENTS)}, the most one charge can be.`;
  return undefined;
}

/** 1250 -> "12,50": an amount as the prompts read it back. */
export const typedAmount = (cents: number) => formatBRL(cents).replace(/^R\$\s/, '');

/** Whether to go on after item n: a new one, or (asked again from the summary) the next of those given. */
function another(prompter: Prompter, next: RequestItem | undefined, n: number): Promise<boolean> {
  if (next === undefined) return prompter.confirm({ message: 'Add another item?', default: false });
  return prompter.confirm({ message: `Keep item ${n + 1} (${next.name})? (no removes it and those after it)`, default: true });
}

/** Items one by one; asked again, each given item is the default of its questions. */
export async function askItems(prompter: Prompter, write: (text: string) => void, given: readonly RequestItem[] = []): Promise<RequestItem[]> {
  const items: RequestItem[] = [];
  let total = 0;
  let limit: string | undefined;
  do {
    const n = items.length + 1;
    const old = given[n - 1];
    const name = (await prompter.input({ message: `Item ${n} name`, default: old?.name, validate: validateRequired })).trim();
    const quantity = Number((await prompter.input({ message: `Item ${n} quantity`, default: String(old?.quantity ?? 1), validate: validateQuantity })).trim());
    const price = parseAmount(await prompter.input({
      message: `Item ${n} unit price (like 12,50)`,
      default: old && typedAmount(old.unit_price),
      validate: validatePrice(quantity, MAX_CENTS - total),
    }));
    items.push({ ...old, name, quantity, unit_price: price });
    total += quantity * price;
    limit = limitReached(items.length, total);
  } while (!limit && (await another(prompter, given[items.length], items.length)));
  if (limit) write(limit);
  return items;
}

/** The total of well-formed items; undefined while any is not. */
export const sumOf = (items: readonly { quantity?: unknown; unit_price?: unknown }[] | undefined) =>
  items?.every((i) => Number.isSafeInteger(i?.quantity) && Number.isSafeInteger(i?.unit_price))
    ? items.reduce((sum, i) => sum + (i.quantity as number) * (i.unit_price as number), 0)
    : undefined;

function invalid(details: ErrorDetail[]) {
  return usageError(`the charge is not valid:\n${details.map((d) => `  ${d.path}: ${d.message}`).join('\n')}`);
}

/** Fails on wrong data; details about the `missing` paths are left to the questions. */
export function assertValid(request: unknown, now: Date, missing: string[]): void {
  const checked = validateCreateRequest(request, now);
  if (checked.ok) return;
  const related = (path: string) => missing.some((m) => m === path || m.startsWith(`${path}.`) || path.startsWith(`${m}.`));
  const wrong = checked.details.filter((d) => !related(d.path));
  if (wrong.length > 0) throw invalid(wrong);
}
