// The operations that move a charge after its creation: refund, 3-D Secure, expiry, the sandbox
// controls, and the payer's public view.
import type { PublicInvoice, RefundRequest, ThreeDSRequest, Transaction } from '../../api/schemas.js';
import { check3ds, type CardBrand } from '../../domain/card-outcome.js';
import { canTransition, SANDBOX_ACTIONS, STATUSES, type SandboxAction, type Status } from '../../domain/status.js';
import { ApiError, notFound } from '../errors.js';
import { StoreFault } from '../store/faults.js';
import { monthOf, type Company, type DueCursor, type Invoice, type InvoiceAggregate, type Writes } from '../store/port.js';
import { companyContext } from '../sandbox/company-time.js';
import type { ServerContext } from './context.js';
import { toTransaction } from './record.js';
import { refund, transition } from './transitions.js';

const isDue = (row: Invoice, now: Date) => row.status === 'pending' && row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime();

/**
 * Expires a pending charge whose time is up, in the caller's transaction; answers the charge as it now is.
 * A charge changed meanwhile (paid by another request or process) is left as it is: expiry is a
 * compare-and-set on "pending", so a paid charge is never expired.
 */
export async function expireIfDue(tx: Writes, row: Invoice, now: Date): Promise<Invoice> {
  if (!isDue(row, now)) return row;
  try {
    return await transition(tx, row, { status: 'expired', note: `not paid by ${row.expires_at}`, at: now.toISOString() });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 409) throw error;
    return (await tx.invoices.find(row.company_id, String(row.id))) ?? row;
  }
}

/** Told of a charge a sweep found due but could not expire: why, in a few words. */
export type Unsettled = (row: Invoice, why: string) => void;

const EXPIRY_BATCH = 100;

/**
 * Every pending charge past its time (of one company, by its clock, when `companyId` is given), in
 * batches of one transaction each. Each charge is read once: the sweep goes on after the last one it
 * was given, so a charge it cannot expire is told to `unsettled` and passed, never read again.
 */
export async function expireDue(ctx: ServerContext, companyId?: number, unsettled: Unsettled = () => undefined): Promise<number> {
  const now = ctx.clock();
  let count = 0;
  let after: DueCursor | undefined;
  for (;;) {
    const due = await ctx.reads.invoices.dueForExpiry(now.toISOString(), EXPIRY_BATCH, companyId, after);
    count += await expireBatch(ctx, due, now, unsettled);
    const last = due.at(-1);
    if (!last?.expires_at || due.length < EXPIRY_BATCH) return count;
    after = { expires_at: last.expires_at, id: last.id };
  }
}

/** Expires a batch in one transaction; when that fails, charge by charge, each one that fails told and passed. */
async function expireBatch(ctx: ServerContext, rows: Invoice[], now: Date, unsettled: Unsettled): Promise<number> {
  const expireAll = (batch: Invoice[]) => ctx.transaction(async (tx) => {
    const left: Invoice[] = [];
    for (const row of batch) left.push(await expireIfDue(tx, row, now));
    return left;
  });
  let left: Invoice[];
  try {
    left = rows.length === 0 ? [] : await expireAll(rows);
  } catch (error) {
    if (error instanceof StoreFault) throw error;
    left = [];
    for (const row of rows) {
      try {
        left.push(...(await expireAll([row])));
      } catch (failure) {
        if (failure instanceof StoreFault) throw failure;
        unsettled(row, (failure as Error).message);
      }
    }
  }
  for (const row of left) if (row.status === 'pending') unsettled(row, `its expiry ${row.expires_at} does not read as a time before ${now.toISOString()}`);
  return left.filter((row) => row.status === 'expired').length;
}

/**
 * A charge of this company as a read sees it, without a write lock. Only a charge whose time is up
 * and still reads pending takes a transaction, to expire it first: nobody sees a stale status.
 */
export async function readInvoice(ctx: ServerContext, company: Company, ref: string): Promise<InvoiceAggregate> {
  const now = ctx.clock();
  const key = ref.trim();
  const found = await ctx.reads.invoices.aggregate(company.id, key, monthOf(now));
  if (!found) throw notFound();
  if (!isDue(found.invoice, now)) return found;
  await ctx.transaction(async (tx) => {
    const row = await tx.invoices.find(company.id, String(found.invoice.id));
    if (row) await expireIfDue(tx, row, now);
  });
  return (await ctx.reads.invoices.aggregate(company.id, String(found.invoice.id), monthOf(now))) ?? found;
}

/** The record of a charge of this company. */
export async function lookupInvoice(ctx: ServerContext, company: Company, ref: string): Promise<Transaction> {
  return toTransaction(company, await readInvoice(ctx, company, ref));
}

/** The record of a charge of this company as the JSON text answered: kept until what it shows changes (record-cache.ts). */
export async function lookupInvoiceJson(ctx: ServerContext, company: Company, ref: string): Promise<string | Buffer> {
  const read = async () => {
    const aggregate = await readInvoice(ctx, company, ref);
    return { record: toTransaction(company, aggregate), invoice: aggregate.invoice };
  };
  if (!ctx.records) return JSON.stringify((await read()).record);
  const now = ctx.clock();
  return ctx.records.json(`${company.id} ${monthOf(now)} ${ref.trim()}`, now, read);
}

/**
 * The refusal of an action on a production record: `invalid_state` when its status is one serve does
 * not know or one the action does not apply to, `fixture_record_read_only` when a charge of serve's own
 * would take it (a record kept as production sent it is never rewritten).
 */
function productionRecordRefusal(status: string, allows: (status: Status) => boolean): ApiError {
  const said = JSON.stringify(status);
  if (!(STATUSES as readonly string[]).includes(status)) {
    return new ApiError(409, 'invalid_state', `The charge is a production record of status ${said}, which pinvoice serve does not know: no action applies to it.`);
  }
  if (!allows(status as Status)) return new ApiError(409, 'invalid_state', `The charge is a production record of status ${said}: this action does not apply to a charge in that status.`);
  return new ApiError(409, 'fixture_record_read_only', `The charge is a production record of status ${said}, loaded by --fixtures: it is answered as production sent it and takes no action.`);
}

/**
 * Finds a charge of this company (expiring it first if due) and runs fn in one transaction; answers the
 * record as fn left it, built once, from one aggregate read in the same transaction. A production
 * record (--fixtures) takes no action: a 409 naming its status (`allows`: whether the action would
 * apply to a charge of serve's own in that status, which says which of the two 409s it is).
 */
export async function withInvoice(ctx: ServerContext, company: Company, ref: string, allows: (status: Status) => boolean, fn: (tx: Writes, row: Invoice, now: Date) => Promise<void>): Promise<Transaction> {
  const aggregate = await ctx.transaction(async (tx) => {
    const now = ctx.clock();
    const found = await tx.invoices.find(company.id, ref.trim());
    if (!found) throw notFound();
    if (found.production_record) throw productionRecordRefusal(found.status, allows);
    const row = await expireIfDue(tx, found, now);
    await fn(tx, row, now);
    return tx.invoices.aggregate(company.id, String(row.id), monthOf(now));
  });
  if (!aggregate) throw notFound();
  return toTransaction(company, aggregate);
}

export function refundInvoice(ctx: ServerContext, company: Company, ref: string, body: RefundRequest): Promise<Transaction> {
  return withInvoice(ctx, company, ref, (status) => status === 'paid', async (tx, row, now) => {
    const amount = body.amount_cents ?? row.amount - row.refunded_amount;
    await refund(tx, row, amount, body.reason?.trim() || null, now.toISOString(), ctx.actor);
  });
}

export function complete3ds(ctx: ServerContext, company: Company, ref: string, values: ThreeDSRequest): Promise<Transaction> {
  return withInvoice(ctx, company, ref, (status) => status === 'waiting_3ds', async (tx, row, now) => {
    if (row.status !== 'waiting_3ds' || !row.card) throw new ApiError(409, 'invalid_state', `The charge is ${row.status}: only a charge waiting_3ds takes 3-D Secure values.`);
    const card = row.card;
    const result = check3ds(values, card.brand as CardBrand);
    const at = now.toISOString();
    if (result.authenticated) {
      await transition(tx, row, { status: 'paid', note: 'card approved after 3-D Secure authentication', at, card: { ...card, threeDSecure: 'authenticated' }, by: ctx.actor });
    } else {
      const reason = result.reason ?? 'authentication_failed';
      await transition(tx, row, { status: 'refused', note: `3-D Secure authentication failed (${reason})`, at, refusedReason: reason, card: { ...card, threeDSecure: 'failed' }, by: ctx.actor });
    }
  });
}

export function sandboxAction(ctx: ServerContext, company: Company, ref: string, action: SandboxAction): Promise<Transaction> {
  const { status, note } = SANDBOX_ACTIONS[action];
  return withInvoice(ctx, company, ref, (from) => canTransition(from, status), async (tx, row, now) => void (await transition(tx, row, { status, note, at: now.toISOString(), by: ctx.actor })));
}

export async function publicView(ctx: ServerContext, token: string): Promise<PublicInvoice> {
  return (await publicCharge(ctx, token)).view;
}

/** The payer's view of a charge, and how far its company's sandbox clock runs ahead (for the checkout page's countdown). */
export async function publicCharge(ctx: ServerContext, token: string): Promise<{ view: PublicInvoice; clockOffsetMs: number }> {
  const found = await ctx.reads.invoices.byCheckoutToken(token);
  const company = found && (await ctx.reads.companies.get(found.company_id));
  if (!found || !company) throw new ApiError(404, 'not_found', 'No charge with this checkout token.');
  const tx = await lookupInvoice(companyContext(ctx, company), company, String(found.id));
  return { clockOffsetMs: company.clock_offset_ms, view: toPublic(tx) };
}

function toPublic(tx: Transaction): PublicInvoice {
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
