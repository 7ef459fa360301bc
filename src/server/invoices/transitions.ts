// Every status change goes through here: the status machine, the timeline, paidAt, the financial
// movements that keep the company's balances equal to the sum of its movements, and the postback
// event of the change (recorded in the same transaction).
import { EVENT_OF_STATUS, type EventType } from '../../api/postbacks.js';
import type { Status } from '../../api/schemas.js';
import { formatBRL } from '../../domain/money.js';
import { InvalidTransitionError, assertTransition } from '../../domain/status.js';
import { ApiError } from '../errors.js';
import { recordEvents } from '../postbacks/outbox.js';
import type { Store } from '../store/index.js';
import type { InvoiceRow } from '../store/invoices.js';

export const BALANCE_OF: Record<string, 'balance_pix' | 'balance_card' | 'balance_bank_slip'> = {
  pix: 'balance_pix',
  credit_card: 'balance_card',
  boleto: 'balance_bank_slip',
};

export interface Entry {
  status: Status;
  note: string;
  at: string;
  refusedReason?: string;
  card?: string;
  /** the creation of the charge: an invoice.created event comes first */
  created?: boolean;
}

type Movement = { type: string; amount: number; description: string };

function movementsFor(row: InvoiceRow, status: Status): Movement[] {
  const fee = (JSON.parse(row.fee) as { estimatedFee: number }).estimatedFee;
  if (status === 'paid') {
    return [
      { type: 'payment', amount: row.amount, description: `payment of ${row.secure_id}` },
      { type: 'fee', amount: -fee, description: `fee on ${row.secure_id}` },
    ];
  }
  if (status === 'chargedback') {
    return [{ type: 'chargeback', amount: -(row.amount - row.refunded_amount), description: `chargeback of ${row.secure_id}` }];
  }
  return [];
}

/** Records the effects of entering a status: timeline, movements, events. Used at creation and on transitions. */
export function enterStatus(store: Store, row: InvoiceRow, entry: Entry): void {
  store.invoices.addTimeline(row.id, entry.status, entry.note, entry.at);
  for (const movement of movementsFor(row, entry.status)) {
    store.invoices.addMovement({ ...movement, company_id: row.company_id, invoice_id: row.id, balance: BALANCE_OF[row.method] ?? 'balance_pix', created_at: entry.at });
  }
  const types: EventType[] = entry.created ? ['invoice.created'] : [];
  const event = EVENT_OF_STATUS[entry.status];
  if (event) types.push(event);
  recordEvents(store, row, types, entry.at);
}

export function invalidState(error: InvalidTransitionError): ApiError {
  return new ApiError(409, 'invalid_state', `The charge is ${error.from}: it cannot become ${error.to}.`);
}

/** Moves a stored charge to a new status, or throws 409 invalid_state. Call inside a transaction. */
export function transition(store: Store, row: InvoiceRow, entry: Entry): void {
  try {
    assertTransition(row.status as Status, entry.status);
  } catch (error) {
    if (error instanceof InvalidTransitionError) throw invalidState(error);
    throw error;
  }
  store.invoices.updateStatus({
    id: row.id,
    status: entry.status,
    at: entry.at,
    paid_at: entry.status === 'paid' ? entry.at : null,
    refused_reason: entry.refusedReason ?? null,
    card: entry.card ?? null,
  });
  enterStatus(store, row, entry);
}

/** A partial or full refund of a paid charge; the last one that leaves nothing makes it refunded. */
export function refund(store: Store, row: InvoiceRow, amount: number, reason: string | null, at: string): void {
  if (row.status !== 'paid') throw new ApiError(409, 'invalid_state', `The charge is ${row.status}: only a paid charge can be refunded.`);
  const left = row.amount - row.refunded_amount;
  if (amount > left) {
    throw new ApiError(422, 'validation_failed', 'The refund is larger than what is left to refund.', [
      { path: 'amount_cents', message: `must be at most ${left} (${formatBRL(left)} left to refund)` },
    ]);
  }
  store.invoices.addRefund(row.id, amount, reason, at);
  store.invoices.addRefunded(row.id, amount, at);
  store.invoices.addMovement({
    company_id: row.company_id, invoice_id: row.id, type: 'refund', amount: -amount,
    balance: BALANCE_OF[row.method] ?? 'balance_pix', description: `refund of ${row.secure_id}${reason ? `: ${reason}` : ''}`, created_at: at,
  });
  if (amount === left) transition(store, { ...row, refunded_amount: row.amount }, { status: 'refunded', note: `refunded ${formatBRL(amount)}; nothing left`, at });
  else {
    store.invoices.addTimeline(row.id, 'paid', `partial refund of ${formatBRL(amount)}; ${formatBRL(left - amount)} left`, at);
    recordEvents(store, row, ['invoice.partially_refunded'], at);
  }
}
