// Records a postback event in the transaction of the change it describes (the outbox pattern):
// the change and its event are committed together, or neither is.
import { randomBytes } from 'node:crypto';
import type { EventType, PostbackBody } from '../../api/postbacks.js';
import type { Store } from '../store/index.js';
import { toTransaction } from '../invoices/record.js';

export const newEventId = (): string => `evt_${randomBytes(12).toString('hex')}`;

/**
 * Call inside the transaction, after the change: each body holds the record as the change left it.
 * One change may tell several events (a card paid at creation: created, then paid); the record is built once.
 */
export function recordEvents(store: Store, invoice: { id: number; company_id: number }, types: readonly EventType[], at: string): void {
  if (types.length === 0) return;
  const company = store.companies.get(invoice.company_id);
  const row = store.invoices.find(invoice.company_id, String(invoice.id));
  if (!company || !row) throw new Error(`events ${types.join(', ')} for a missing invoice ${invoice.id}`);
  const transaction = toTransaction(store, company, row, new Date(at));
  const url = row.postback_url;
  for (const type of types) {
    const id = newEventId();
    const body = JSON.stringify({
      id: row.secure_id, invoice_id: row.secure_id, event: type, status: transaction.status, total: row.amount,
      method: transaction.paymentMethod, event_id: id, created_at: at, paid_at: row.paid_at, transaction,
    } satisfies PostbackBody);
    store.events.insert({
      public_id: id,
      company_id: row.company_id,
      invoice_id: row.id,
      type,
      url,
      body,
      created_at: at,
      state: url ? 'pending' : 'no_url',
      next_attempt_at: url ? at : null,
    });
  }
}
