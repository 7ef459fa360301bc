// How an event's snapshot is kept, compactly, by any engine: a JSON array in a fixed order, with the
// times that equal the event's own time (most of them: a change's time is the event's) written as 0.
// About 80 bytes instead of 310 for the object form, for events that are most of a charge's bytes.
import type { EventSnapshot } from './port.js';

const VERSION = 1;
type Time = string | null | 0;

const packTime = (value: string | null, at: string): Time => (value === at ? 0 : value);
const unpackTime = (value: Time, at: string): string | null => (value === 0 ? at : value);

export function encodeSnapshot(snapshot: EventSnapshot, at: string): string {
  const { upto, totals } = snapshot;
  const packed: unknown[] = [
    VERSION, snapshot.status, packTime(snapshot.updated_at, at), packTime(snapshot.paid_at, at), snapshot.refunded_amount,
    snapshot.refused_reason, [upto.timeline, upto.refunds, upto.movements], packTime(snapshot.customer_updated_at, at),
    [totals.balance_pix, totals.balance_card, totals.balance_bank_slip, totals.paid_total, totals.paid_month],
  ];
  if (snapshot.card !== undefined) packed.push(snapshot.card);
  return JSON.stringify(packed);
}

export function decodeSnapshot(text: string, at: string): EventSnapshot {
  const packed = JSON.parse(text) as unknown[];
  if (!Array.isArray(packed) || packed[0] !== VERSION) throw new Error(`an event snapshot of an unknown form: ${text.slice(0, 40)}`);
  const [, status, updatedAt, paidAt, refunded, refusedReason, upto, customerUpdatedAt, totals, card] = packed as [
    number, EventSnapshot['status'], Time, Time, number, string | null, [number, number, number], Time, [number, number, number, number, number], EventSnapshot['card'],
  ];
  return {
    status,
    updated_at: unpackTime(updatedAt, at) ?? at,
    paid_at: unpackTime(paidAt, at),
    refunded_amount: refunded,
    refused_reason: refusedReason,
    ...(packed.length > 9 && { card }),
    upto: { timeline: upto[0], refunds: upto[1], movements: upto[2] },
    customer_updated_at: unpackTime(customerUpdatedAt, at) ?? at,
    totals: { balance_pix: totals[0], balance_card: totals[1], balance_bank_slip: totals[2], paid_total: totals[3], paid_month: totals[4] },
  };
}
