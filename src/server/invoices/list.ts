// Finding charges (Search Transaction without `id`, a pinvoice serve extension): a page of the
// company's charges, newest first, or the one charge a pix code, checkout token or boleto line is of.
import { encodeCursor } from '../../api/cursor.js';
import type { InvoiceQuery, InvoiceSearch } from '../../api/invoice-query.js';
import type { InvoiceList } from '../../api/schemas.js';
import { monthOf, type Company, type InvoiceAggregate, type InvoiceFilter, type InvoicePageRequest } from '../store/port.js';
import type { ServerContext } from './context.js';
import { expireDue } from './lifecycle.js';
import { toTransaction } from './record.js';

/**
 * The charges of a page, each as Search answers it: what is due expires first (as Search expires the
 * charge it reads), so that a page shows, and filters by, the statuses a lookup of each would.
 */
async function read(ctx: ServerContext, company: Company, page: InvoicePageRequest): Promise<InvoiceAggregate[]> {
  await expireDue(ctx, company.id);
  return ctx.reads.invoices.list(company.id, page, monthOf(ctx.clock()));
}

/** One more than the page is read: whether there is a next page is known without another request. */
export async function listInvoices(ctx: ServerContext, company: Company, query: Extract<InvoiceQuery, { kind: 'list' }>): Promise<InvoiceList> {
  const found = await read(ctx, company, { filter: query.filter, after: query.after, limit: query.limit + 1 });
  const page = found.slice(0, query.limit);
  const last = page.at(-1)?.invoice;
  return {
    data: page.map((aggregate) => toTransaction(company, aggregate)),
    next_cursor: found.length > query.limit && last ? encodeCursor(last) : null,
  };
}

const compact = (code: string | null) => (code ?? '').replace(/\s+/g, '');

function keyOf(search: InvoiceSearch): InvoiceFilter | undefined {
  if (search.by === 'token_checkout') return { token_checkout: search.token };
  if (search.by === 'boleto_line') return { boleto_barcode: search.barcode };
  // a code without a location (a static code) names no charge of ours
  return search.txid === null ? undefined : { pix_txid: search.txid };
}

/** The charge a key is of, found by its index; a pix code must be the charge's own, whitespace aside. */
export async function searchInvoice(ctx: ServerContext, company: Company, search: InvoiceSearch): Promise<InvoiceList> {
  const filter = keyOf(search);
  const found = filter ? await read(ctx, company, { filter, after: null, limit: 2 }) : [];
  const match = found.find((aggregate) => search.by !== 'pix_code' || compact(aggregate.invoice.pix_code) === search.code);
  return { data: match ? [toTransaction(company, match)] : [], next_cursor: null };
}
