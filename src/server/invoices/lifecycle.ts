// The operations that move a charge after its creation: refund, 3-D Secure, expiry, the sandbox
// controls, and the payer's public view.
import type { PublicInvoice, RefundRequest, ThreeDSRequest, Transaction } from '../../api/schemas.js';
import { check3ds, type CardBrand } from '../../domain/card-outcome.js';
import { SANDBOX_ACTIONS, type SandboxAction } from '../../domain/status.js';
import { ApiError, notFound } from '../errors.js';
import type { CompanyRow } from '../store/companies.js';
import type { InvoiceRow } from '../store/invoices.js';
import type { ServerContext } from './context.js';
import { toTransaction } from './record.js';
import { refund, transition } from './transitions.js';

/** Expires a pending charge whose time is up. Runs on every read too, so nobody sees a stale status. */
export function expireIfDue(ctx: ServerContext, row: InvoiceRow, now: Date): InvoiceRow {
  if (row.status !== 'pending' || !row.expires_at || Date.parse(row.expires_at) > now.getTime()) return row;
  transition(ctx.store, row, { status: 'expired', note: `not paid by ${row.expires_at}`, at: now.toISOString() });
  return { ...row, status: 'expired', updated_at: now.toISOString() };
}

/** The expiry timer's work: every pending charge past its time, in batches. */
export function expireDue(ctx: ServerContext): number {
  const now = ctx.clock();
  let count = 0;
  for (;;) {
    const due = ctx.store.invoices.dueForExpiry(now.toISOString(), 100);
    if (due.length === 0) return count;
    ctx.store.transaction(() => due.forEach((row) => expireIfDue(ctx, row, now)));
    count += due.length;
  }
}

/** A charge of this company, expired first if its time is up. Call inside a transaction. */
function findCurrent(ctx: ServerContext, company: CompanyRow, ref: string, now: Date): InvoiceRow {
  const found = ctx.store.invoices.find(company.id, ref.trim());
  if (!found) throw notFound();
  return expireIfDue(ctx, found, now);
}

/** The stored row of a charge as a read sees it (expired if due), without building its record. */
export function findInvoice(ctx: ServerContext, company: CompanyRow, ref: string): InvoiceRow {
  return ctx.store.transaction(() => findCurrent(ctx, company, ref, ctx.clock()));
}

/** Finds a charge of this company (expiring it first if due), runs fn in one transaction, answers the record. */
export function withInvoice(ctx: ServerContext, company: CompanyRow, ref: string, fn?: (row: InvoiceRow, now: Date) => void): Transaction {
  return ctx.store.transaction(() => {
    const now = ctx.clock();
    const row = findCurrent(ctx, company, ref, now);
    fn?.(row, now);
    const fresh = ctx.store.invoices.find(company.id, String(row.id)) ?? row;
    return toTransaction(ctx.store, company, fresh, now);
  });
}

export function refundInvoice(ctx: ServerContext, company: CompanyRow, ref: string, body: RefundRequest): Transaction {
  return withInvoice(ctx, company, ref, (row, now) => {
    const amount = body.amount_cents ?? row.amount - row.refunded_amount;
    refund(ctx.store, row, amount, body.reason?.trim() || null, now.toISOString());
  });
}

export function complete3ds(ctx: ServerContext, company: CompanyRow, ref: string, values: ThreeDSRequest): Transaction {
  return withInvoice(ctx, company, ref, (row, now) => {
    if (row.status !== 'waiting_3ds') throw new ApiError(409, 'invalid_state', `The charge is ${row.status}: only a charge waiting_3ds takes 3-D Secure values.`);
    const card = JSON.parse(row.card ?? '{}') as { brand: CardBrand };
    const result = check3ds(values, card.brand);
    const at = now.toISOString();
    if (result.authenticated) {
      transition(ctx.store, row, { status: 'paid', note: 'card approved after 3-D Secure authentication', at, card: JSON.stringify({ ...card, threeDSecure: 'authenticated' }) });
    } else {
      const reason = result.reason ?? 'authentication_failed';
      transition(ctx.store, row, { status: 'refused', note: `3-D Secure authentication failed (${reason})`, at, refusedReason: reason, card: JSON.stringify({ ...card, threeDSecure: 'failed' }) });
    }
  });
}

export function sandboxAction(ctx: ServerContext, company: CompanyRow, ref: string, action: SandboxAction): Transaction {
  const { status, note } = SANDBOX_ACTIONS[action];
  return withInvoice(ctx, company, ref, (row, now) => transition(ctx.store, row, { status, note, at: now.toISOString() }));
}

export function publicView(ctx: ServerContext, token: string): PublicInvoice {
  const found = ctx.store.invoices.byCheckoutToken(token);
  const company = found && ctx.store.companies.get(found.company_id);
  if (!found || !company) throw new ApiError(404, 'not_found', 'No charge with this checkout token.');
  const tx = withInvoice(ctx, company, String(found.id));
  return {
    secureId: tx.secureId,
    status: tx.status,
    method: tx.paymentMethod,
    amount: tx.amount,
    paidAt: tx.paidAt,
    expiresAt: tx.pix?.expiresAt ?? tx.boleto?.expiresAt ?? null,
    pix: tx.pix && { qrCode: tx.pix.qrCode },
    boleto: tx.boleto && { barcode: tx.boleto.barcode, digitableLine: tx.boleto.digitableLine, dueDate: tx.boleto.dueDate },
    items: tx.items.map(({ title, quantity, unitPrice }) => ({ title, quantity, unitPrice })),
    company: { fantasy_name: tx.enterprise.fantasy_name },
  };
}
