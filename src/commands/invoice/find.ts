// Finds the charge a support agent was given any reference to (src/domain/reference.ts): ids are looked
// up directly; a pix code, checkout link or token, boleto line or barcode, or the merchant's
// external_id through `pinvoice serve`'s search. A gateway without it (production looks charges up by
// id only) gets what can be resolved without it: an INV- id or the txid inside a pix code.
import { CliError, EXIT } from '../../cli/errors.js';
import type { Output } from '../../cli/output.js';
import { safeText } from '../../cli/render/safe-text.js';
import { ApiRequestError } from '../../client/errors.js';
import type { Client } from '../../client/index.js';
import type { TransactionView } from '../../client/read/transaction.js';
import { classifyReference, pixCandidates, REFERENCE_NAMES, type Reference } from '../../domain/reference.js';

/** Where the lookup happened, for messages: `at http://… for profile "x"`. */
export type Where = string;

const SEARCH_PARAMS: Partial<Record<Reference['kind'], string>> = {
  pix: 'pix_code', checkout: 'token_checkout', boleto: 'boleto_line', external: 'external_id',
};

const isNotFound = (error: unknown) => error instanceof ApiRequestError && error.status === 404;
const noListing = (error: unknown) => error instanceof ApiRequestError && error.code === 'no_listing';
const label = (view: TransactionView) => view.secureId ?? view.id ?? '(a charge without an id)';

/** The charges the search finds for a reference; undefined when the gateway has no search. */
async function search(client: Client, reference: Reference): Promise<TransactionView[] | undefined> {
  const param = SEARCH_PARAMS[reference.kind];
  if (param === undefined) return [];
  try {
    // a charge's own code, token or line finds it alone; an external_id may be shared, so the first 10 are asked for
    return (await client.listInvoices({ [param]: reference.value, ...(reference.kind === 'external' && { limit: '10' }) })).views;
  } catch (error) {
    if (noListing(error)) return undefined;
    throw error;
  }
}

/** A pix code on a gateway without search: the ids it holds, each tried as an id. */
async function byPixContents(client: Client, reference: Extract<Reference, { kind: 'pix' }>): Promise<TransactionView | undefined> {
  for (const candidate of pixCandidates(reference)) {
    try {
      return await client.getInvoice(candidate);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return undefined;
}

function oneOf(found: TransactionView[], reference: Reference, where: Where): TransactionView {
  const name = REFERENCE_NAMES[reference.kind];
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw new CliError(`no charge with this ${name} ${where}`, EXIT.notFound);
  const lines = found.map((view) => `  ${label(view)}  ${view.status ?? '—'}  ${view.createdAt ?? ''}`);
  throw new CliError(`${found.length === 10 ? 'at least 10' : found.length} charges have ${name} "${safeText(reference.value)}" ${where}; give one of their ids:\n${lines.join('\n')}`, EXIT.usage);
}

export async function findCharge(client: Client, text: string, out: Output, where: Where): Promise<TransactionView> {
  const reference = classifyReference(text);
  if (reference.kind === 'secureId') return client.getInvoice(reference.value);
  if (reference.kind === 'id') {
    try {
      return await client.getInvoice(reference.value);
    } catch (error) {
      // an order number of digits is an external_id that looks like an id
      if (!isNotFound(error)) throw error;
      const found = await search(client, { kind: 'external', value: reference.value }).catch(() => undefined);
      if (found?.length !== 1) throw error;
      out.message(`no charge has id ${reference.value}; external_id ${reference.value} → ${safeText(label(found[0]!))}`);
      return found[0]!;
    }
  }
  const found = await search(client, reference);
  if (found === undefined) {
    const view = reference.kind === 'pix' ? await byPixContents(client, reference) : undefined;
    if (view !== undefined) {
      out.message(`pix code → ${safeText(label(view))} (by the id it holds)`);
      return view;
    }
    const held = reference.kind === 'pix' && pixCandidates(reference).length > 0 ? ` nor is any id the code holds (${pixCandidates(reference).map(safeText).join(', ')}) a charge there` : '';
    throw new CliError(`finding a charge by its ${REFERENCE_NAMES[reference.kind]} needs \`pinvoice serve\`'s search: this gateway looks charges up by id or secureId only${held ? `,${held}` : ''} (${where.replace(/^at /, '')})`, EXIT.notFound);
  }
  // a bare 32-character token may as well be a merchant's reference
  const view = found.length === 0 && reference.kind === 'checkout' && !/^https?:/i.test(text.trim())
    ? oneOf((await search(client, { kind: 'external', value: reference.value })) ?? [], { kind: 'external', value: reference.value }, where)
    : oneOf(found, reference, where);
  out.message(`${REFERENCE_NAMES[reference.kind]} → ${safeText(label(view))}`);
  return view;
}
