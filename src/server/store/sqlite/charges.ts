// The SQLite engine's reads of whole charges (a charge with everything its record shows): one, by
// id or secureId, or a page of them. Each is one consistent snapshot; in-process lookups are cheap,
// so a charge's lists are read by prepared statements, charge by charge.
import type { InvoiceAggregate, InvoicePageRequest, Movement, Refund, TimelineEntry } from '../port.js';
import { pageQuery, type PageDialect } from '../page-sql.js';
import { toInvoice, type Row } from '../rows.js';
import type { Db } from './database.js';

// The charge with its customer and the company's totals in one lookup; then its lists. A charge
// never paid has no movements (each comes with a payment, a refund or a chargeback of a paid
// charge) and one with nothing refunded has no refunds: those lookups are skipped.
const HEAD = (month: string) => `SELECT i.*, c.created_at AS customer_created_at, c.updated_at AS customer_updated_at,
    t.balance_pix AS totals_pix, t.balance_card AS totals_card, t.balance_bank_slip AS totals_bank_slip, t.paid_total AS totals_paid,
    COALESCE((SELECT total FROM company_paid_months m WHERE m.company_id = i.company_id AND m.month = ${month}), 0) AS totals_month`;
const JOINS = 'JOIN customers c ON c.id = i.customer_id LEFT JOIN company_totals t ON t.company_id = i.company_id';

/** The expressions the SQLite indexes of the listing are made on (migration 8), spelled as there. */
const DIALECT = {
  payerEmail: "lower(i.payer ->> '$.email')",
  boletoBarcode: "(i.boleto ->> '$.barcode')",
};

/** Statements of pages, by their text: a page's filters make one of a bounded number of texts. */
const MAX_PAGE_STATEMENTS = 256;

/** The statement of a page and its values: the page's charges picked by an index walk, then their heads. */
export function pageStatement(companyId: number, page: InvoicePageRequest, month: string): { text: string; values: Record<string, unknown> } {
  // named parameters: a value bound once may be used twice (the company is)
  const values: Record<string, unknown> = {};
  const dialect: PageDialect = {
    ...DIALECT,
    bind: (value) => {
      const name = `p${Object.keys(values).length + 1}`;
      values[name] = value;
      return `@${name}`;
    },
  };
  const ids = pageQuery(dialect, companyId, page);
  const text = `WITH page AS (${ids}) ${HEAD(dialect.bind(month))} FROM page JOIN invoices i ON i.id = page.id ${JOINS} ORDER BY i.created_at DESC, i.id DESC`;
  return { text, values };
}

export function createChargeReads(db: Db) {
  const q = <P extends unknown[] = unknown[], R = Row>(sql: string) => db.prepare<P, R>(sql);
  const headById = q<[string, number, number]>(`${HEAD('?')} FROM invoices i ${JOINS} WHERE i.company_id = ? AND i.id = ?`);
  const headBySecureId = q<[string, number, string]>(`${HEAD('?')} FROM invoices i ${JOINS} WHERE i.company_id = ? AND i.secure_id = ?`);
  const timeline = q<[number], TimelineEntry>(
    'SELECT t.id, t.status, t.note, t.at, k.name AS by FROM timeline t LEFT JOIN api_tokens k ON k.id = t.token_id WHERE t.invoice_id = ? ORDER BY t.id',
  );
  const refunds = q<[number], Refund>('SELECT id, amount, reason, created_at FROM refunds WHERE invoice_id = ? ORDER BY id');
  const movements = q<[number], Movement>(
    'SELECT id, type, amount, balance, description, created_at FROM financial_movements WHERE invoice_id = ? ORDER BY id',
  );
  const pages = new Map<string, ReturnType<typeof q<unknown[], Row>>>();
  const prepared = (sql: string) => {
    let statement = pages.get(sql);
    if (!statement) {
      if (pages.size >= MAX_PAGE_STATEMENTS) pages.clear();
      statement = q<unknown[], Row>(sql);
      pages.set(sql, statement);
    }
    return statement;
  };

  function assemble(head: Row): InvoiceAggregate {
    const { customer_created_at, customer_updated_at, totals_pix, totals_card, totals_bank_slip, totals_paid, totals_month } = head;
    const invoice = toInvoice(head);
    return {
      invoice,
      customer: { id: invoice.customer_id, created_at: customer_created_at as string, updated_at: customer_updated_at as string },
      timeline: timeline.all(invoice.id),
      refunds: invoice.refunded_amount > 0 ? refunds.all(invoice.id) : [],
      movements: invoice.paid_at !== null ? movements.all(invoice.id) : [],
      totals: {
        balance_pix: (totals_pix as number | null) ?? 0,
        balance_card: (totals_card as number | null) ?? 0,
        balance_bank_slip: (totals_bank_slip as number | null) ?? 0,
        paid_total: (totals_paid as number | null) ?? 0,
        paid_month: totals_month as number,
      },
    };
  }

  // One snapshot for the lookups of an aggregate (a read transaction, unless one is already open).
  const beginRead = db.prepare('BEGIN');
  const endRead = db.prepare('COMMIT');
  const readTogether = <T>(fn: () => T): T => {
    if (db.inTransaction) return fn();
    beginRead.run();
    try {
      return fn();
    } finally {
      endRead.run();
    }
  };

  return {
    aggregate(companyId: number, ref: string, month: string): InvoiceAggregate | undefined {
      return readTogether(() => {
        const head = /^\d{1,15}$/.test(ref) ? headById.get(month, companyId, Number(ref)) : headBySecureId.get(month, companyId, ref);
        return head && assemble(head);
      });
    },
    list(companyId: number, page: InvoicePageRequest, month: string): InvoiceAggregate[] {
      const { text, values } = pageStatement(companyId, page, month);
      const statement = prepared(text);
      return readTogether(() => statement.all(values).map(assemble));
    },
  };
}
