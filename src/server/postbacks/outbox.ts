// Records a postback event in the transaction of the change it describes (the outbox pattern): the
// change and its event are committed together, or neither is. An event keeps a snapshot of what the
// change left (a few numbers), not a copy of the record; its body is rebuilt from it when it is sent
// or listed, the same bytes each time.
import { pooledRandomBytes } from '../../base/random-pool.js';
import type { EventType, PostbackBody } from '../../api/postbacks.js';
import { aggregateAt, toTransaction } from '../invoices/record.js';
import { monthOf, type Company, type CompanyTotals, type EventSnapshot, type Invoice, type InvoiceAggregate, type PostbackEvent, type Writes } from '../store/port.js';

/**
 * `evt_` + 24 hex digits: the time in milliseconds (12 digits), then 48 random bits. Time first, so
 * new ids land at the end of the id index instead of on a random page of it (one page written per
 * commit, not one per event); unique by the random part within a millisecond.
 */
export const newEventId = (now = Date.now(), random: (n: number) => Uint8Array = pooledRandomBytes): string =>
  `evt_${now.toString(16).padStart(12, '0').slice(-12)}${Buffer.from(random(6)).toString('hex')}`;

type Marks = Pick<EventSnapshot, 'upto' | 'customer_updated_at'>;

/**
 * Call inside the transaction, after the change, with the charge as the change left it. `marks` are
 * how far its lists go, when the caller knows (a new charge: they come with its inserts); otherwise
 * they are read. `totals`: the company's totals as the change left them, when the caller knows (read
 * earlier in the transaction, and moved by nothing since); otherwise they are read. Answers the
 * company's totals, for a caller that needs them too.
 */
export async function recordEvents(
  tx: Writes, row: Invoice, types: readonly EventType[], at: string, marks?: Marks | Promise<Marks>, known?: CompanyTotals,
): Promise<CompanyTotals | undefined> {
  if (types.length === 0) return undefined;
  // both reads at once (on PostgreSQL in one round trip), the totals first, as they always were read
  const [totals, upto] = await Promise.all([known ?? tx.companies.totals(row.company_id, monthOf(at)), marks ?? tx.invoices.marks(row.id)]);
  const snapshot: EventSnapshot = {
    status: row.status,
    updated_at: row.updated_at,
    paid_at: row.paid_at,
    refunded_amount: row.refunded_amount,
    refused_reason: row.refused_reason,
    ...(row.method === 'credit_card' && { card: row.card }),
    ...upto,
    totals,
  };
  const url = row.postback_url;
  for (const type of types) {
    await tx.events.insert({
      public_id: newEventId(Date.parse(at)),
      company_id: row.company_id,
      invoice_id: row.id,
      type,
      url,
      snapshot,
      created_at: at,
      state: url ? 'pending' : 'no_url',
      next_attempt_at: url ? at : null,
    });
  }
  return totals;
}

/** What an event tells: rebuilt from its snapshot and the charge's aggregate (or as recorded, for events of schema 4 and before). */
export function eventPayload(company: Company, aggregate: InvoiceAggregate, event: PostbackEvent): PostbackBody {
  if (event.snapshot === null) return event.body as PostbackBody;
  const transaction = toTransaction(company, aggregateAt(aggregate, event.snapshot));
  const invoice = aggregate.invoice;
  return {
    id: invoice.secure_id, invoice_id: invoice.secure_id, event: event.type, status: transaction.status, total: invoice.amount,
    method: transaction.paymentMethod, event_id: event.public_id, created_at: event.created_at, paid_at: transaction.paidAt, transaction,
  };
}

/** The bytes an event is sent and signed with: the same each time, for the same event. */
export const eventBody = (company: Company, aggregate: InvoiceAggregate, event: PostbackEvent): string =>
  JSON.stringify(eventPayload(company, aggregate, event));
