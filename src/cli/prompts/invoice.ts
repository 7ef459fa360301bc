// The guided `pinvoice invoice create`: asks only for the required data that --file and the flags
// left out, each answer checked by a validator of validators.ts (the API's own rules).
import { MAX_INSTALLMENTS, MAX_ITEMS, type CreateInvoiceRequest, type ErrorDetail, type Method, type RequestItem } from '../../api/schemas.js';
import { validateCreateRequest } from '../../api/validate.js';
import { normalizeCardNumber } from '../../domain/card.js';
import { formatDocument } from '../../domain/document.js';
import { formatBRL, MAX_CENTS, parseAmount } from '../../domain/money.js';
import { usageError } from '../errors.js';
import { CancelledError, type Prompter, type Validate } from './prompter.js';
import {
  filled, validateCardNumber, validateCep, validateDocument, validateEmail, validateMonth, validatePrice, validateQuantity,
  validateRequired, validateSecurityCode, validateUf, validateYear,
} from './validators.js';

export { CancelledError };

type DeepPartial<T> = T extends readonly (infer U)[] ? DeepPartial<U>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
/** What came from --file and the flags: anything may be missing. */
export type PartialCreate = DeepPartial<CreateInvoiceRequest>;

// ---- What is missing ----------------------------------------------------------------------------

type Question = { field: string; message: string; validate: Validate; clean?: (v: string) => string; secret?: boolean };

const PAYER: Question[] = [
  { field: 'name', message: 'Payer name', validate: validateRequired },
  { field: 'email', message: 'Payer e-mail', validate: validateEmail },
  { field: 'cpf_cnpj', message: 'Payer CPF or CNPJ', validate: validateDocument, clean: formatDocument },
];
const ADDRESS: Question[] = [
  { field: 'address_zip', message: 'Payer CEP', validate: validateCep, clean: (v) => v.replace(/\D/g, '').replace(/^(\d{5})/, '$1-') },
  { field: 'address_line', message: 'Street', validate: validateRequired },
  { field: 'address_number', message: 'Street number', validate: validateRequired },
  { field: 'address_city', message: 'City', validate: validateRequired },
  { field: 'address_state', message: 'State (UF)', validate: validateUf, clean: (v) => v.toUpperCase() },
];
// The year question reads the month already in `card`, so it can tell an expired card.
const cardQuestions = (card: Record<string, unknown>, now: Date): Question[] => [
  { field: 'number', message: 'Card number', validate: validateCardNumber, clean: normalizeCardNumber },
  { field: 'first_name', message: 'Cardholder first name', validate: validateRequired },
  { field: 'last_name', message: 'Cardholder last name', validate: validateRequired },
  { field: 'month', message: 'Expiry month (1-12)', validate: validateMonth, clean: (v) => v.padStart(2, '0') },
  { field: 'year', message: 'Expiry year (YY or YYYY)', validate: (v) => validateYear(now, card.month as string | undefined)(v) },
  { field: 'security_code', message: 'Security code', validate: validateSecurityCode, secret: true },
];
const CARD_FIELDS = cardQuestions({}, new Date(0)).map((q) => q.field);

const unanswered = (target: Record<string, unknown>, questions: Question[]) => questions.filter((q) => !filled(target[q.field]));
const needsItems = (partial: PartialCreate) => !partial.items && partial.total_price_cents === undefined;

function missingCard(card: PartialCreate['card']): string[] {
  if (card === undefined || card === null) return ['card'];
  if (filled(card.token)) return [];
  return CARD_FIELDS.filter((field) => !filled((card as Record<string, unknown>)[field])).map((field) => `card.${field}`);
}

/** JSON paths of the required data missing for the partial's method, in the order promptInvoice asks. */
export function missingFields(partial: PartialCreate): string[] {
  const missing = partial.method === undefined ? ['method'] : [];
  const payerQuestions = partial.method === 'boleto' ? [...PAYER, ...ADDRESS] : PAYER;
  missing.push(...unanswered(partial.payer ?? {}, payerQuestions).map((q) => `payer.${q.field}`));
  if (partial.method === 'credit_card') missing.push(...missingCard(partial.card));
  if (needsItems(partial)) missing.push('total_price_cents');
  return missing;
}

// ---- Asking -------------------------------------------------------------------------------------

const METHODS: { name: string; value: Method }[] = [
  { name: 'Pix', value: 'pix' },
  { name: 'Credit card', value: 'credit_card' },
  { name: 'Boleto', value: 'boleto' },
];
const INSTALLMENTS = Array.from({ length: MAX_INSTALLMENTS }, (_, i) => ({ name: `${i + 1}x`, value: String(i + 1) }));

/** Asks the questions whose field is not filled in `target`, writing the cleaned answers into it. */
async function ask(prompter: Prompter, target: Record<string, unknown>, questions: Question[]): Promise<number> {
  const asked = unanswered(target, questions);
  for (const q of asked) {
    const { message, validate } = q;
    const answer = q.secret ? await prompter.password({ message, mask: '*', validate }) : await prompter.input({ message, validate });
    target[q.field] = q.clean ? q.clean(answer.trim()) : answer.trim();
  }
  return asked.length;
}

async function askCard(card: PartialCreate['card'], prompter: Prompter, now: Date): Promise<PartialCreate['card']> {
  if (filled(card?.token)) return card;
  const draft: Record<string, unknown> = { ...card };
  const asked = await ask(prompter, draft, cardQuestions(draft, now));
  if (asked > 0 && draft.installment === undefined) {
    draft.installment = Number(await prompter.select({ message: 'Installments', choices: INSTALLMENTS, default: '1' }));
  }
  return draft as PartialCreate['card'];
}

function limitReached(count: number, total: number): string | undefined {
  if (count >= MAX_ITEMS) return `That makes ${MAX_ITEMS} items, the most one charge can hold.`;
  if (total >= MAX_CENTS) return `That makes ${formatBRL(MAX_CENTS)}, the most one charge can be.`;
  return undefined;
}

async function askItems(prompter: Prompter, write: (text: string) => void): Promise<RequestItem[]> {
  const items: RequestItem[] = [];
  let total = 0;
  let limit: string | undefined;
  do {
    const n = items.length + 1;
    const name = (await prompter.input({ message: `Item ${n} name`, validate: validateRequired })).trim();
    const quantity = Number((await prompter.input({ message: `Item ${n} quantity`, default: '1', validate: validateQuantity })).trim());
    const price = await prompter.input({ message: `Item ${n} unit price (like 12,50)`, validate: validatePrice(quantity, MAX_CENTS - total) });
    items.push({ name, quantity, unit_price: parseAmount(price) });
    total += quantity * parseAmount(price);
    limit = limitReached(items.length, total);
  } while (!limit && (await prompter.confirm({ message: 'Add another item?', default: false })));
  if (limit) write(limit);
  return items;
}

// ---- The flow -----------------------------------------------------------------------------------

const sumOf = (items: PartialCreate['items']) =>
  items?.every((i) => Number.isSafeInteger(i?.quantity) && Number.isSafeInteger(i?.unit_price))
    ? items.reduce((sum, i) => sum + (i.quantity as number) * (i.unit_price as number), 0)
    : undefined;

function invalid(details: ErrorDetail[]) {
  return usageError(`the charge is not valid:\n${details.map((d) => `  ${d.path}: ${d.message}`).join('\n')}`);
}

/** Fails on wrong data; details about the `missing` paths are left to the questions. */
function assertValid(request: PartialCreate, now: Date, missing: string[]): void {
  const checked = validateCreateRequest(request, now);
  if (checked.ok) return;
  const related = (path: string) => missing.some((m) => m === path || m.startsWith(`${path}.`) || path.startsWith(`${m}.`));
  const wrong = checked.details.filter((d) => !related(d.path));
  if (wrong.length > 0) throw invalid(wrong);
}

export interface PromptOptions {
  now: Date;
  renderSummary: (request: CreateInvoiceRequest) => string;
  write: (text: string) => void;
}

export async function promptInvoice(partial: PartialCreate, prompter: Prompter, options: PromptOptions): Promise<CreateInvoiceRequest> {
  const base = partial.total_price_cents === undefined && partial.items ? { ...partial, total_price_cents: sumOf(partial.items) } : partial;
  // A wrong value from --file fails before the first question: answering them all would be in vain.
  assertValid(base, options.now, missingFields(base));
  const method = base.method ?? (await prompter.select<Method>({ message: 'Payment method', choices: METHODS, default: 'pix' }));
  const payer = { ...base.payer };
  await ask(prompter, payer, method === 'boleto' ? [...PAYER, ...ADDRESS] : PAYER);
  const request: PartialCreate = { ...base, method, payer };
  if (method === 'credit_card') request.card = await askCard(base.card, prompter, options.now);
  if (needsItems(base)) {
    request.items = await askItems(prompter, options.write);
    request.total_price_cents = sumOf(request.items);
  }
  assertValid(request, options.now, []);
  const valid = request as CreateInvoiceRequest; // checked just above
  options.write(options.renderSummary(valid));
  if (!(await prompter.confirm({ message: 'Create this charge?', default: true }))) throw new CancelledError('charge not created');
  return valid;
}
