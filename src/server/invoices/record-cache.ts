// The answers of lookups of one charge (GET /api/v2/invoices/{id}, ?id=), kept as the JSON text sent
// while nothing has been committed since they were read: a charge polled by `invoice get --watch`, a
// checkout page or a support agent's reloads is answered without reading or serializing it again.
// Whether anything was committed, by this process or another on the same database, is the store's
// change mark (SQLite's data_version), read before the charge: an answer kept is never newer than its
// mark, so it is never served after a change. A pending charge is kept only until it falls due (the
// read that finds it due expires it). Engines without a change mark keep nothing.
import type { Transaction } from '../../api/schemas.js';
import type { Invoice } from '../store/port.js';

/** how many answers are kept (about 3 KB each); past it, all are dropped and kept again as read */
const MAX_KEPT = 1000;

interface Kept {
  mark: number;
  /** the bytes sent: a Buffer goes to the socket as it is, where a string is encoded again on every write */
  json: Buffer;
  /** the company-clock time (ms) from which the answer may no longer stand: a pending charge's expiry */
  until: number;
}

export interface RecordRead {
  record: Transaction;
  invoice: Pick<Invoice, 'status' | 'expires_at'>;
}

/** Until when a record stands while nothing is committed: a pending charge with an expiry changes then. */
const standsUntil = (invoice: RecordRead['invoice']) => (invoice.status === 'pending' && invoice.expires_at !== null ? Date.parse(invoice.expires_at) : Infinity);

export type RecordCache = ReturnType<typeof createRecordCache>;

export function createRecordCache(changeMark: () => number) {
  const kept = new Map<string, Kept>();
  return {
    /**
     * The JSON of a charge's record: the one kept under `key` if nothing was committed since and
     * `now` (the company's clock) is before its end; else `read()`'s, kept.
     */
    async json(key: string, now: Date, read: () => Promise<RecordRead>): Promise<Buffer> {
      const mark = changeMark();
      const hit = kept.get(key);
      if (hit && hit.mark === mark && now.getTime() < hit.until) return hit.json;
      const { record, invoice } = await read();
      const json = Buffer.from(JSON.stringify(record));
      if (kept.size >= MAX_KEPT) kept.clear();
      kept.set(key, { mark, json, until: standsUntil(invoice) });
      return json;
    },
  };
}
