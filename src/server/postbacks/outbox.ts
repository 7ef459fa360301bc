// Records a postback event in the transaction of the change it describes (the outbox pattern):
// the change and its event are committed together, or neither is.
import { randomBytes } from 'node:crypto';
import type { EventType } from '../../api/postbacks.js';
import type { Store } from '../store/index.js';
import { toTransaction } from '../invoices/record.js';

export const newEventId = (): string => `evt_${randomBytes(12).toString('hex')}`;

/** Call inside the transaction, after the change: the body holds the record as the change left it. */
export function recordEvent(store: Store, invoice: { id: number; company_id: number }, type: EventType, at: string): void {
  const company = store.companies.get(invoice.company_id);
  const row = store.invoices.find(invoice.company_id, String(invoice.id));
  if (!company || !row) throw new Error(`event ${type} for a missing invoice ${invoice.id}`);
  const id = newEventId();
  const data = toTransaction(store, company, row, new Date(at));
  const body = JSON.stringify({ id, event: type, created_at: at, invoice_id: row.secure_id, status: row.status, total: row.amount, method: row.method, data });
  const url = row.postback_url;
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
