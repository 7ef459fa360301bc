// The statement that picks a page of a company's charges, shared by both engines (their tables have
// the same columns): the filters as conditions, the keyset, the order. Each engine gives its dialect:
// how a value is bound, and its spelling of the expressions its indexes are made on (which must be
// the index's own spelling, or the engine will not see that the index fits).
//
// Every index the listing uses leads with company_id and ends with (created_at, id), so that the page
// is a walk down one index from the cursor, as cheap at the millionth charge as at the first:
//   invoices_listed (company_id, created_at, id)            no selective filter
//   invoices_status (company_id, status, created_at, id)    one status; several: one walk per status, merged
//   invoices_customer, invoices_payer_email, invoices_external_ref: the selective filters.
// A key (token_checkout's unique index, invoices_pix_txid, invoices_boleto_barcode) finds one charge:
// its index is the key alone (led by the company), and its page has no order to keep.
import type { InvoiceFilter, InvoicePageRequest } from './port.js';

export interface PageDialect {
  /** binds a value, answering its placeholder */
  bind(value: unknown): string;
  /** the payer's e-mail, lower-cased, spelled as the engine's index on it is */
  payerEmail: string;
  /** the boleto's barcode, spelled as the engine's index on it is */
  boletoBarcode: string;
}

const ORDER = 'ORDER BY created_at DESC, id DESC';

/** A filter that leaves few charges: its index drives the page, and statuses are checked on its charges. */
const isSelective = (f: InvoiceFilter) =>
  [f.payer_document, f.payer_email, f.external_id, f.token_checkout, f.pix_txid, f.boleto_barcode].some((value) => value !== undefined);

function conditions(d: PageDialect, companyId: number, page: InvoicePageRequest, statusCondition: string): string[] {
  const { filter: f, after } = page;
  const company = d.bind(companyId);
  const where = [`i.company_id = ${company}`];
  if (statusCondition) where.push(statusCondition);
  if (f.method !== undefined) where.push(`i.method = ${d.bind(f.method)}`);
  if (f.payer_document !== undefined) {
    where.push(`i.customer_id = (SELECT s.id FROM customers s WHERE s.company_id = ${company} AND s.document = ${d.bind(f.payer_document)})`);
  }
  if (f.payer_email !== undefined) where.push(`${d.payerEmail} = ${d.bind(f.payer_email)}`);
  if (f.external_id !== undefined) where.push(`i.external_ref = ${d.bind(f.external_id)}`);
  if (f.token_checkout !== undefined) where.push(`i.token_checkout = ${d.bind(f.token_checkout)}`);
  if (f.pix_txid !== undefined) where.push(`i.pix_txid = ${d.bind(f.pix_txid)}`);
  // spelled out: an engine cannot tell by itself that a barcode found means a boleto (the index is partial)
  if (f.boleto_barcode !== undefined) where.push(`i.boleto IS NOT NULL AND ${d.boletoBarcode} = ${d.bind(f.boleto_barcode)}`);
  if (f.created_from !== undefined) where.push(`i.created_at >= ${d.bind(f.created_from)}`);
  if (f.created_to !== undefined) where.push(`i.created_at < ${d.bind(f.created_to)}`);
  if (f.amount_min !== undefined) where.push(`i.amount >= ${d.bind(f.amount_min)}`);
  if (f.amount_max !== undefined) where.push(`i.amount <= ${d.bind(f.amount_max)}`);
  if (after) where.push(`(i.created_at, i.id) < (${d.bind(after.created_at)}, ${d.bind(after.id)})`);
  return where;
}

/** A key names one charge: its page needs no order, and its index (the key's alone) none either. */
const isKey = (f: InvoiceFilter) => [f.token_checkout, f.pix_txid, f.boleto_barcode].some((value) => value !== undefined);

function walk(d: PageDialect, companyId: number, page: InvoicePageRequest, statusCondition = ''): string {
  const order = isKey(page.filter) ? '' : ORDER;
  return `SELECT i.id, i.created_at FROM invoices i WHERE ${conditions(d, companyId, page, statusCondition).join(' AND ')} ${order} LIMIT ${d.bind(page.limit)}`;
}

/**
 * `SELECT id, created_at …`: the page's charges, in the listing's order. Several statuses without a
 * selective filter are one walk of the status index per status, each stopping at the page's size,
 * merged: a page never sorts more than (statuses × limit) rows, however many charges match.
 */
export function pageQuery(d: PageDialect, companyId: number, page: InvoicePageRequest): string {
  const statuses = page.filter.statuses ?? [];
  if (statuses.length === 0) return walk(d, companyId, page);
  if (isSelective(page.filter)) {
    return walk(d, companyId, page, `i.status IN (${statuses.map((status) => d.bind(status)).join(', ')})`);
  }
  if (statuses.length === 1) return walk(d, companyId, page, `i.status = ${d.bind(statuses[0])}`);
  const arms = statuses.map((status, n) => `SELECT * FROM (${walk(d, companyId, page, `i.status = ${d.bind(status)}`)}) AS s${n}`);
  return `${arms.join(' UNION ALL ')} ${ORDER} LIMIT ${d.bind(page.limit)}`;
}
