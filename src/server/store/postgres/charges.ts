// The PostgreSQL engine's reads of whole charges (a charge with everything its record shows): one,
// by id or secureId, or a page of them, each in one statement: one round trip and one snapshot,
// whatever the page's size (a charge's lists come as JSON arrays built by the database).
import type { CompanyTotals, InvoiceAggregate, InvoicePageRequest, Movement, Refund, TimelineEntry } from '../port.js';
import { pageQuery, type PageDialect } from '../page-sql.js';
import { NO_TOTALS, toInvoice, type Row } from '../rows.js';

/**
 * The invoice, its customer's times, the company's totals, and its timeline, refunds and movements
 * as JSON arrays (refunds and movements only when it has any), of the charges `i` of FROM.
 */
const COLUMNS = `i.*, c.created_at AS x_customer_created_at, c.updated_at AS x_customer_updated_at,
    t.balance_pix AS x_balance_pix, t.balance_card AS x_balance_card, t.balance_bank_slip AS x_balance_bank_slip, t.paid_total AS x_paid_total,
    COALESCE(m.total, 0) AS x_paid_month,
    (SELECT COALESCE(json_agg(json_build_object('id', l.id, 'status', l.status, 'note', l.note, 'at', l.at, 'by', k.name) ORDER BY l.id), '[]')
      FROM timeline l LEFT JOIN api_tokens k ON k.id = l.token_id WHERE l.invoice_id = i.id) AS x_timeline,
    CASE WHEN i.refunded_amount > 0 THEN (SELECT json_agg(json_build_object('id', r.id, 'amount', r.amount, 'reason', r.reason, 'created_at', r.created_at) ORDER BY r.id)
      FROM refunds r WHERE r.invoice_id = i.id) END AS x_refunds,
    CASE WHEN i.paid_at IS NOT NULL THEN (SELECT json_agg(json_build_object('id', f.id, 'type', f.type, 'amount', f.amount, 'balance', f.balance,
        'description', f.description, 'created_at', f.created_at) ORDER BY f.id)
      FROM financial_movements f WHERE f.invoice_id = i.id) END AS x_movements`;
const JOINS = (month: string) => `JOIN customers c ON c.id = i.customer_id
  LEFT JOIN company_totals t ON t.company_id = i.company_id
  LEFT JOIN company_paid_months m ON m.company_id = i.company_id AND m.month = ${month}`;

const AGGREGATE = (by: 'id' | 'secure_id') => `SELECT ${COLUMNS} FROM invoices i ${JOINS('$3')} WHERE i.company_id = $1 AND i.${by} = $2`;
export const AGGREGATE_BY_ID = AGGREGATE('id');
export const AGGREGATE_BY_SECURE_ID = AGGREGATE('secure_id');

/** The expressions the PostgreSQL indexes of the listing are made on (migration 3), spelled as there. */
const DIALECT = {
  payerEmail: "lower(i.payer::json ->> 'email')",
  boletoBarcode: "(i.boleto::json ->> 'barcode')",
};

/** The statement of a page and its values: the page's charges picked by an index walk, then assembled. */
export function pageStatement(companyId: number, page: InvoicePageRequest, month: string): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const dialect: PageDialect = { ...DIALECT, bind: (value) => `$${values.push(value)}` };
  const ids = pageQuery(dialect, companyId, page);
  const text = `SELECT ${COLUMNS} FROM (${ids}) AS page JOIN invoices i ON i.id = page.id ${JOINS(dialect.bind(month))}
    ORDER BY i.created_at DESC, i.id DESC`;
  return { text, values };
}

export function toAggregate(row: Row): InvoiceAggregate {
  const invoice = toInvoice(row);
  const totals: CompanyTotals = row.x_balance_pix === null || row.x_balance_pix === undefined
    ? NO_TOTALS
    : { balance_pix: row.x_balance_pix as number, balance_card: row.x_balance_card as number, balance_bank_slip: row.x_balance_bank_slip as number,
      paid_total: row.x_paid_total as number, paid_month: row.x_paid_month as number };
  return {
    invoice,
    customer: { id: invoice.customer_id, created_at: row.x_customer_created_at as string, updated_at: row.x_customer_updated_at as string },
    timeline: row.x_timeline as unknown as TimelineEntry[],
    refunds: (row.x_refunds as unknown as Refund[] | null) ?? [],
    movements: (row.x_movements as unknown as Movement[] | null) ?? [],
    totals,
  };
}
