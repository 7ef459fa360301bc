// The summary of the guided `invoice create` and the question under it: send the charge, change any
// answer (asked again with the current one as the default, then the summary again), or cancel. Each
// field that was asked or is set has its entry; a new method asks what it needs and drops what it
// does not (see switchMethod).
import { CreateInvoiceRequest as CreateSchema, type CreateInvoiceRequest, type Method, type RequestItem } from '../../api/schemas.js';
import { parseAmount } from '../../domain/money.js';
import type { PartialCreate, PromptOptions } from './invoice.js';
import {
  ADDRESS, ADDRESS_EXTRAS, ask, askCard, askInstallments, askItems, assertValid, cardQuestions, METHODS, PAYER, reask, sumOf,
  typedAmount, type Draft, type Question,
} from './invoice-questions.js';
import { CancelledError, type Prompter, type Validate } from './prompter.js';
import { filled, validateAmount, validateRequired, validateUrl } from './validators.js';

interface Context extends PromptOptions {
  prompter: Prompter;
  /** what --file and the flags gave: never dropped by a change of method */
  given: PartialCreate;
}
type Edit = (draft: Draft, context: Context) => Promise<void>;

const validateIp: Validate = (v) => CreateSchema.shape.ip_payer.safeParse(v.trim()).success || 'Enter an IPv4 or IPv6 address.';
const PHONE: Question = { field: 'phone', message: 'Payer phone', validate: validateRequired, optional: true };
const TOKEN: Question = { field: 'token', message: 'Card token', validate: validateRequired };
const POSTBACK: Question = { field: 'postback_url', message: 'Postback URL', validate: validateUrl, optional: true };
const EXTERNAL_ID: Question = { field: 'external_id', message: 'External id (your order number)', validate: validateRequired, optional: true };
const IP: Question = { field: 'ip_payer', message: 'Payer IP address', validate: validateIp, optional: true };

const objectAt = (draft: Draft, key: string): Draft => (draft[key] = { ...(draft[key] as Draft | undefined) }) as Draft;
const lowerFirst = (text: string) => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
const someFilled = (target: Draft, questions: Question[]) => questions.some((q) => filled(target[q.field]));

/**
 * A new method keeps what --file and the flags gave, and drops what the prompts asked for the old one
 * only: a card has no place in a pix or boleto request, and the address asked for a boleto is not
 * sent with a pix (the API would take it, but the payer gave it for a boleto). Then it asks what the
 * new method needs that is not there yet.
 */
async function switchMethod(draft: Draft, context: Context, method: Method): Promise<void> {
  const payer = objectAt(draft, 'payer');
  const givenPayer = (context.given.payer ?? {}) as Draft;
  if (draft.method === 'credit_card' && context.given.card === undefined) delete draft.card;
  if (draft.method === 'boleto') for (const q of [...ADDRESS, ...ADDRESS_EXTRAS]) if (givenPayer[q.field] === undefined) delete payer[q.field];
  draft.method = method;
  if (method === 'boleto') await ask(context.prompter, payer, ADDRESS);
  if (method === 'credit_card') draft.card = await askCard(draft.card as Draft | undefined, context.prompter, context.now);
}

const editMethod: Edit = async (draft, context) => {
  const method = await context.prompter.select<Method>({ message: 'Payment method', choices: METHODS, default: draft.method as Method });
  if (method !== draft.method) await switchMethod(draft, context, method);
};

const editItems: Edit = async (draft, { prompter, write }) => {
  draft.items = await askItems(prompter, write, draft.items as RequestItem[]);
  draft.total_price_cents = sumOf(draft.items as RequestItem[]);
};

const editAmount: Edit = async (draft, { prompter }) => {
  const current = typeof draft.total_price_cents === 'number' ? typedAmount(draft.total_price_cents) : undefined;
  draft.total_price_cents = parseAmount(await prompter.input({ message: 'Amount (like 12,50)', default: current, validate: validateAmount }));
};

/** The payer's address: required parts for a boleto; with another method, each part may be removed ("-"). */
const editAddress: Edit = async (draft, { prompter }) => {
  const payer = objectAt(draft, 'payer');
  const required = draft.method === 'boleto' ? ADDRESS : ADDRESS.map((q) => ({ ...q, optional: true }));
  await reask(prompter, payer, [...required, ...ADDRESS_EXTRAS.filter((q) => filled(payer[q.field]))]);
};

const editCard: Edit = async (draft, { prompter, now }) => {
  const card = objectAt(draft, 'card');
  await reask(prompter, card, filled(card.token) ? [TOKEN] : cardQuestions(card, now));
};

const editInstallments: Edit = async (draft, { prompter }) => {
  const card = objectAt(draft, 'card');
  card.installment = await askInstallments(prompter, card.installment);
};

/** An entry that asks its questions again, of the payer's fields or of the request's own. */
const reasking = (questions: Question[], where?: 'payer'): Edit => async (draft, { prompter }) =>
  reask(prompter, where ? objectAt(draft, where) : draft, questions);

/** The summary's entries, in the order of the summary: one per field that was asked or is set. */
function edits(draft: Draft): [label: string, edit: Edit][] {
  const payer = (draft.payer ?? {}) as Draft;
  const card = (draft.card ?? {}) as Draft;
  const entries: [string, Edit][] = [['Edit payment method', editMethod]];
  entries.push(Array.isArray(draft.items) ? ['Edit items', editItems] : ['Edit amount', editAmount]);
  for (const q of PAYER) entries.push([`Edit ${lowerFirst(q.message)}`, reasking([q], 'payer')]);
  if (filled(payer.phone)) entries.push(['Edit payer phone', reasking([PHONE], 'payer')]);
  if (draft.method === 'boleto' || someFilled(payer, [...ADDRESS, ...ADDRESS_EXTRAS])) entries.push(['Edit payer address', editAddress]);
  if (draft.method === 'credit_card') {
    entries.push([filled(card.token) ? 'Edit card token' : 'Edit card', editCard], ['Edit installments', editInstallments]);
  }
  entries.push(['Edit postback URL', reasking([POSTBACK])], ['Edit external id', reasking([EXTERNAL_ID])]);
  if (filled(draft.ip_payer)) entries.push(['Edit payer IP address', reasking([IP])]);
  return entries;
}

const SEND = 'Send this charge';
const CANCEL = 'Cancel';

/** Shows the summary and asks what to do, until the charge is sent (returned) or the merchant cancels (exit 130). */
export async function review(request: CreateInvoiceRequest, given: PartialCreate, prompter: Prompter, options: PromptOptions): Promise<CreateInvoiceRequest> {
  const context: Context = { ...options, prompter, given };
  let draft = request;
  for (;;) {
    options.write(options.renderSummary(draft));
    const entries = edits(draft as Draft);
    const labels = [SEND, ...entries.map(([label]) => label), CANCEL];
    const choice = await prompter.select({ message: 'Create this charge?', choices: labels.map((label) => ({ name: label, value: label })), default: SEND });
    if (choice === SEND) return draft;
    if (choice === CANCEL) throw new CancelledError('charge not created: nothing was sent');
    const edited = structuredClone(draft) as Draft;
    await entries.find(([label]) => label === choice)?.[1](edited, context);
    assertValid(edited, options.now, []); // every answer was checked as it was typed
    draft = edited as CreateInvoiceRequest;
  }
}
