// Every status change goes through here: the status machine, the timeline, paidAt, the financial
// movements (the store moves the company's balances with them), the paid totals, and the postback
// event of the change, all in the caller's transaction. A status change is a compare-and-set on the
// status the caller read: if another request or process changed it first, nothing is written.
import { EVENT_OF_STATUS, type EventType } from '../../api/postbacks.js';
import type { Card } from '../../api/schemas.js';
import { formatBRL } from '../../domain/money.js';
import { InvalidTransitionError, assertTransition, type Status } from '../../domain/status.js';
import { ApiError } from '../errors.js';
import { recordEvents } from '../postbacks/outbox.js';
import type { Access, BalanceName, CompanyTotals, Customer, Invoice, Movement, NewMovement, TimelineEntry, Writes } from '../store/port.js';

export const BALANCE_OF: Record<Invoice['method'], BalanceName> = {
  pix: 'balance_pix',
  credit_card: 'balance_card',
  boleto: 'balance_bank_slip',
};

export interface Entry {
  status: Status;
  note: string;
  at: string;
  refusedReason?: string;
  card?: Card;
  /** the creation of the charge: an invoice.created event comes first */
  created?: boolean;
  /** the token whose request made the change; absent for what the server does by itself */
  by?: Access['token'];
  /**
   * the company's totals, read in this transaction before the change: when the change moves none (no
   * movement, not paid), its event tells these instead of reading them again (on PostgreSQL a create
   * then waits for no answer between its first round trip and its COMMIT)
   */
  totalsBefore?: CompanyTotals;
}

/** What entering a status added to the charge's lists, and the company's totals after it (when events read them). */
export interface Entered {
  timeline: TimelineEntry;
  movements: Movement[];
  totals?: CompanyTotals;
}

type MovementDraft = Pick<NewMovement, 'type' | 'amount' | 'description'>;

function movementsFor(row: Invoice, status: Status): MovementDraft[] {
  if (status === 'paid') {
    return [
      { type: 'payment', amount: row.amount, description: `payment of ${row.secure_id}` },
      { type: 'fee', amount: -row.fee.estimatedFee, description: `fee on ${row.secure_id}` },
    ];
  }
  if (status === 'chargedback') {
    return [{ type: 'chargeback', amount: -(row.amount - row.refunded_amount), description: `chargeback of ${row.secure_id}` }];
  }
  return [];
}

/**
 * Records the effects of entering a status: timeline, movements, paid totals, events. `row` is the
 * charge after the change. Answers what it added to the charge's lists.
 */
export async function enterStatus(tx: Writes, row: Invoice, entry: Entry, customer?: Customer): Promise<Entered> {
  // Made in this order and awaited together with the event's reads: on PostgreSQL one round trip for all.
  const drafts = movementsFor(row, entry.status);
  const paid = entry.status === 'paid';
  const added = Promise.all([
    tx.invoices.addTimeline(row.id, entry.status, entry.note, entry.at, entry.by ?? null),
    Promise.all(drafts.map((movement) =>
      tx.invoices.addMovement({ ...movement, company_id: row.company_id, invoice_id: row.id, balance: BALANCE_OF[row.method], created_at: entry.at }))),
    paid ? tx.invoices.countPaid(row.company_id, row.amount, entry.at) : undefined,
  ]);
  const types: EventType[] = entry.created ? ['invoice.created'] : [];
  const event = EVENT_OF_STATUS[entry.status];
  if (event) types.push(event);
  // A new charge's lists are what was just added: nothing to read back.
  const marks = entry.created && customer
    ? added.then(([timeline, movements]) => ({ upto: { timeline: timeline.id, refunds: 0, movements: movements.at(-1)?.id ?? 0 }, customer_updated_at: customer.updated_at }))
    : undefined;
  // (the totals move with a movement and with a payment's count, nothing else here)
  const unmoved = drafts.length === 0 && !paid ? entry.totalsBefore : undefined;
  const [[timeline, movements], totals] = await Promise.all([added, recordEvents(tx, row, types, entry.at, marks, unmoved)]);
  return { timeline, movements, totals };
}

export function invalidState(from: Status, to: Status): ApiError {
  return new ApiError(409, 'invalid_state', `The charge is ${from}: it cannot become ${to}.`);
}

/**
 * Moves a charge from the status it was read with to a new one, or throws 409 invalid_state. When the
 * stored status is no longer the one read (changed meanwhile), the answer names the status it has now.
 */
export async function transition(tx: Writes, row: Invoice, entry: Entry): Promise<Invoice> {
  try {
    assertTransition(row.status, entry.status);
  } catch (error) {
    if (error instanceof InvalidTransitionError) throw invalidState(error.from, error.to);
    throw error;
  }
  const changed = await tx.invoices.changeStatus({
    id: row.id,
    from: row.status,
    to: entry.status,
    at: entry.at,
    paid_at: entry.status === 'paid' ? entry.at : null,
    refused_reason: entry.refusedReason ?? null,
    card: entry.card ?? null,
  });
  if (!changed) {
    const now = await tx.invoices.find(row.company_id, String(row.id));
    throw invalidState(now?.status ?? row.status, entry.status);
  }
  const after: Invoice = {
    ...row,
    status: entry.status,
    updated_at: entry.at,
    paid_at: entry.status === 'paid' ? entry.at : row.paid_at,
    refused_reason: entry.refusedReason ?? row.refused_reason,
    card: entry.card ?? row.card,
  };
  await enterStatus(tx, after, entry);
  return after;
}

/** A partial or full refund of a paid charge; the last one that leaves nothing makes it refunded. */
export async function refund(tx: Writes, row: Invoice, amount: number, reason: string | null, at: string, by?: Access['token']): Promise<void> {
  if (row.status !== 'paid') throw new ApiError(409, 'invalid_state', `The charge is ${row.status}: only a paid charge can be refunded.`);
  const left = row.amount - row.refunded_amount;
  if (amount > left || !(await tx.invoices.addRefund(row.id, amount, reason, at))) {
    throw new ApiError(422, 'validation_failed', 'The refund is larger than what is left to refund.', [
      { path: 'amount_cents', message: `must be at most ${left} (${formatBRL(left)} left to refund)` },
    ]);
  }
  const refunded = { ...row, refunded_amount: row.refunded_amount + amount, updated_at: at };
  await tx.invoices.addMovement({
    company_id: row.company_id, invoice_id: row.id, type: 'refund', amount: -amount,
    balance: BALANCE_OF[row.method], description: `refund of ${row.secure_id}${reason ? `: ${reason}` : ''}`, created_at: at,
  });
  if (amount === left) await transition(tx, refunded, { status: 'refunded', note: `refunded ${formatBRL(amount)}; nothing left`, at, by });
  else {
    await tx.invoices.addTimeline(row.id, 'paid', `partial refund of ${formatBRL(amount)}; ${formatBRL(left - amount)} left`, at, by ?? null);
    await recordEvents(tx, refunded, ['invoice.partially_refunded'], at);
  }
}
