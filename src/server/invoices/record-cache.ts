// The answers of lookups of one charge (GET /api/v2/invoices/{id}, ?id=), kept as the JSON text sent
// until what they show changes: a charge polled by `invoice get --watch`, a checkout page or a support
// agent's reloads is answered without reading or serializing it again, while other charges are
// created and paid. An answer is kept under the tags of what it shows (store/changes.ts): the charge,
// its customer (its last change is shown), the company's profile and its money (its balances and
// paid totals are shown); a commit that changes one drops it, this process's at once, another's when
// the store hears of it (cache/kept.ts). A pending charge is kept only until it falls due (the read
// that finds it due expires it), and the month is part of the key (the paid total of the month).
import type { Transaction } from '../../api/schemas.js';
import { createKept } from '../cache/kept.js';
import { tagOf } from '../store/changes.js';
import type { ChangeFeed, Invoice } from '../store/port.js';

/** how many answers are kept (about 3 KB each), the oldest dropped first */
const MAX_KEPT = 2000;

interface Answer {
  /** the bytes sent: a Buffer goes to the socket as it is, where a string is encoded again on every write */
  json: Buffer;
  /** the company-clock time (ms) from which the answer may no longer stand: a pending charge's expiry */
  until: number;
}

export interface RecordRead {
  record: Transaction;
  invoice: Pick<Invoice, 'id' | 'company_id' | 'customer_id' | 'status' | 'expires_at'>;
}

/** Until when a record stands while nothing changes it: a pending charge with an expiry changes then. */
const standsUntil = (invoice: RecordRead['invoice']) => (invoice.status === 'pending' && invoice.expires_at !== null ? Date.parse(invoice.expires_at) : Infinity);

const tagsOf = (invoice: RecordRead['invoice']) =>
  [tagOf.invoice(invoice.id), tagOf.customer(invoice.customer_id), tagOf.company(invoice.company_id), tagOf.money(invoice.company_id)];

export type RecordCache = ReturnType<typeof createRecordCache>;

export function createRecordCache(feed: ChangeFeed, counted: (hit: boolean) => void = () => undefined) {
  const kept = createKept<Answer>(feed, MAX_KEPT);
  return {
    /** The JSON of a charge's record: the one kept under `key` if it still stands at `now` (the company's clock); else `read()`'s, kept. */
    async json(key: string, now: Date, read: () => Promise<RecordRead>): Promise<Buffer> {
      const hit = kept.get(key);
      if (hit && now.getTime() < hit.until) {
        counted(true);
        return hit.json;
      }
      counted(false);
      const mark = kept.mark();
      const { record, invoice } = await read();
      const json = Buffer.from(JSON.stringify(record));
      kept.keep(key, { json, until: standsUntil(invoice) }, tagsOf(invoice), mark);
      return json;
    },
    close: kept.close,
  };
}
