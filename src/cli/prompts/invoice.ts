// The guided `pinvoice invoice create`: asks only for the required data that --file and the flags
// left out (invoice-questions.ts), then shows the summary, from which any answer can be changed before
// the charge is sent (invoice-review.ts).
import type { CreateInvoiceRequest, Method } from '../../api/schemas.js';
import { ADDRESS, ask, askCard, askItems, assertValid, CARD_FIELDS, METHODS, PAYER, sumOf, unanswered } from './invoice-questions.js';
import { review } from './invoice-review.js';
import { CancelledError, type Prompter } from './prompter.js';
import { filled } from './validators.js';

export { CancelledError };

type DeepPartial<T> = T extends readonly (infer U)[] ? DeepPartial<U>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
/** What came from --file and the flags: anything may be missing. */
export type PartialCreate = DeepPartial<CreateInvoiceRequest>;

// ---- What is missing ----------------------------------------------------------------------------

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

// ---- The flow -----------------------------------------------------------------------------------

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
  if (method === 'credit_card') request.card = await askCard(base.card ?? undefined, prompter, options.now);
  if (needsItems(base)) {
    request.items = await askItems(prompter, options.write);
    request.total_price_cents = sumOf(request.items);
  }
  assertValid(request, options.now, []);
  return review(request as CreateInvoiceRequest, base, prompter, options); // checked just above
}
