// Invoices and the rows that hang off them (timeline, refunds, financial movements).
import type { Db } from './database.js';

export interface InvoiceRow {
  id: number;
  company_id: number;
  secure_id: string;
  token_checkout: string;
  customer_id: number;
  method: string;
  status: string;
  amount: number;
  installments: number;
  refunded_amount: number;
  refused_reason: string | null;
  postback_url: string;
  ip: string | null;
  payer: string;
  items: string;
  fee: string;
  pix_code: string | null;
  pix_txid: string | null;
  boleto: string | null;
  card: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  external_ref: string | null;
  /** JSON object of strings */
  metadata: string | null;
}

export interface CustomerRow {
  id: number;
  created_at: string;
  updated_at: string;
}

export interface TimelineRow { status: string; note: string; at: string }
export interface RefundRow { id: number; amount: number; reason: string | null; created_at: string }
export interface MovementRow {
  id: number;
  type: string;
  amount: number;
  balance: string;
  description: string;
  created_at: string;
}

const COLUMNS = [
  'id', 'company_id', 'secure_id', 'token_checkout', 'customer_id', 'method', 'status', 'amount', 'installments',
  'refunded_amount', 'refused_reason', 'postback_url', 'ip', 'payer', 'items', 'fee', 'pix_code', 'pix_txid', 'boleto',
  'card', 'expires_at', 'created_at', 'updated_at', 'paid_at', 'external_ref', 'metadata',
] as const;

export function createInvoiceRepo(db: Db) {
  const nextId = db.prepare<[], { next: number }>('SELECT COALESCE(MAX(id), 0) + 1 AS next FROM invoices');
  const insert = db.prepare(`INSERT INTO invoices (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const upsertCustomer = db.prepare<[number, string, string, string], CustomerRow>(`
    INSERT INTO customers (company_id, document, created_at, updated_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (company_id, document) DO UPDATE SET updated_at = excluded.updated_at
    RETURNING id, created_at, updated_at`);
  const customer = db.prepare<[number], CustomerRow>('SELECT id, created_at, updated_at FROM customers WHERE id = ?');
  const byId = db.prepare<[number, number], InvoiceRow>('SELECT * FROM invoices WHERE company_id = ? AND id = ?');
  const bySecureId = db.prepare<[number, string], InvoiceRow>('SELECT * FROM invoices WHERE company_id = ? AND secure_id = ?');
  const addTimeline = db.prepare('INSERT INTO timeline (invoice_id, status, note, at) VALUES (?, ?, ?, ?)');
  const timeline = db.prepare<[number], TimelineRow>('SELECT status, note, at FROM timeline WHERE invoice_id = ? ORDER BY id');
  const refunds = db.prepare<[number], RefundRow>('SELECT id, amount, reason, created_at FROM refunds WHERE invoice_id = ? ORDER BY id');
  const movements = db.prepare<[number], MovementRow>(
    'SELECT id, type, amount, balance, description, created_at FROM financial_movements WHERE invoice_id = ? ORDER BY id',
  );

  const updateStatus = db.prepare(`
    UPDATE invoices SET status = @status, updated_at = @at, paid_at = COALESCE(@paid_at, paid_at),
      refused_reason = COALESCE(@refused_reason, refused_reason), card = COALESCE(@card, card)
    WHERE id = @id`);
  const addRefund = db.prepare('INSERT INTO refunds (invoice_id, amount, reason, created_at) VALUES (?, ?, ?, ?)');
  const addRefunded = db.prepare('UPDATE invoices SET refunded_amount = refunded_amount + ?, updated_at = ? WHERE id = ?');
  const addMovement = db.prepare(`
    INSERT INTO financial_movements (company_id, invoice_id, type, amount, balance, description, created_at)
    VALUES (@company_id, @invoice_id, @type, @amount, @balance, @description, @created_at)`);
  const dueForExpiry = db.prepare<[string, number], InvoiceRow>(
    "SELECT * FROM invoices WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at LIMIT ?",
  );
  const byToken = db.prepare<[string], InvoiceRow>('SELECT * FROM invoices WHERE token_checkout = ?');

  return {
    updateStatus(change: { id: number; status: string; at: string; paid_at?: string | null; refused_reason?: string | null; card?: string | null }): void {
      updateStatus.run({ paid_at: null, refused_reason: null, card: null, ...change });
    },
    addRefund: (invoiceId: number, amount: number, reason: string | null, at: string): void => void addRefund.run(invoiceId, amount, reason, at),
    addRefunded: (invoiceId: number, amount: number, at: string): void => void addRefunded.run(amount, at, invoiceId),
    addMovement(movement: Omit<MovementRow, 'id' | 'created_at'> & { company_id: number; invoice_id: number; created_at: string }): void {
      addMovement.run(movement);
    },
    /** Pending charges whose time is up, oldest first (uses the invoices_expiry index). */
    dueForExpiry: (now: string, limit = 100) => dueForExpiry.all(now, limit),
    byCheckoutToken: (token: string) => byToken.get(token),
    nextId: (): number => nextId.get()?.next ?? 1,
    insert: (row: InvoiceRow): void => void insert.run(row),
    upsertCustomer: (companyId: number, document: string, now: string): CustomerRow => {
      const row = upsertCustomer.get(companyId, document, now, now);
      if (!row) throw new Error('customer upsert returned nothing');
      return row;
    },
    customer: (id: number) => customer.get(id),
    /** By integer id or secureId, within one company only. */
    find(companyId: number, ref: string): InvoiceRow | undefined {
      if (/^\d{1,15}$/.test(ref)) return byId.get(companyId, Number(ref));
      return bySecureId.get(companyId, ref);
    },
    addTimeline: (invoiceId: number, status: string, note: string, at: string): void => void addTimeline.run(invoiceId, status, note, at),
    timeline: (invoiceId: number) => timeline.all(invoiceId),
    refunds: (invoiceId: number) => refunds.all(invoiceId),
    movements: (invoiceId: number) => movements.all(invoiceId),
  };
}

export type InvoiceRepo = ReturnType<typeof createInvoiceRepo>;
