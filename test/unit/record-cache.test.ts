// The record cache's rules, on their own: read once while nothing it shows changes, again after a
// commit names the charge, its customer or its company's money (and not after one naming another
// charge), past the kept charge's expiry, or under another key; a commit during the read is not hidden.
import { describe, expect, it } from 'vitest';
import { createRecordCache, type RecordRead } from '../../src/server/invoices/record-cache.js';
import { changeListeners, type Changed } from '../../src/server/store/changes.js';

function setup() {
  const listeners = changeListeners();
  let reads = 0;
  let status: RecordRead['invoice']['status'] = 'pending';
  const cache = createRecordCache({ onChanged: listeners.add, heard: () => true });
  const read = async (): Promise<RecordRead> => {
    reads++;
    return { record: { status } as unknown as RecordRead['record'], invoice: { id: 7, company_id: 1, customer_id: 3, status, expires_at: '2026-03-10T12:10:00.000Z' } };
  };
  return {
    cache,
    read,
    get reads() {
      return reads;
    },
    tell: (changed: Changed) => listeners.tell(changed),
    commit(next: RecordRead['invoice']['status']) {
      status = next;
      listeners.tell(new Set(['i7']));
    },
  };
}

const at = (iso: string) => new Date(iso);

describe('record cache', () => {
  it('reads once while nothing it shows changes, and again after a change of the charge', async () => {
    const s = setup();
    expect(String(await s.cache.json('1 2026-03 7', at('2026-03-10T12:00:00Z'), s.read))).toBe('{"status":"pending"}');
    s.tell(new Set(['i8', 'u4', 'm2', 'c2'])); // another charge, customer and company
    expect(String(await s.cache.json('1 2026-03 7', at('2026-03-10T12:00:01Z'), s.read))).toBe('{"status":"pending"}');
    expect(s.reads).toBe(1);
    s.commit('paid');
    expect(String(await s.cache.json('1 2026-03 7', at('2026-03-10T12:00:02Z'), s.read))).toBe('{"status":"paid"}');
    expect(s.reads).toBe(2);
    // a paid charge has no end: kept past the time a pending one would have expired
    expect(String(await s.cache.json('1 2026-03 7', at('2026-03-10T13:00:00Z'), s.read))).toBe('{"status":"paid"}');
    expect(s.reads).toBe(2);
    // its customer's change, its company's money: read again
    for (const [tag, reads] of [['u3', 3], ['m1', 4], ['c1', 5]] as const) {
      s.tell(new Set([tag]));
      await s.cache.json('1 2026-03 7', at('2026-03-10T13:00:00Z'), s.read);
      expect(s.reads, tag).toBe(reads);
    }
  });

  it('reads again once a pending charge falls due, and under another key', async () => {
    const s = setup();
    await s.cache.json('1 2026-03 7', at('2026-03-10T12:09:59Z'), s.read);
    await s.cache.json('1 2026-03 7', at('2026-03-10T12:10:00Z'), s.read);
    expect(s.reads).toBe(2);
    await s.cache.json('1 2026-04 7', at('2026-03-10T12:00:00Z'), s.read);
    expect(s.reads).toBe(3);
  });

  it('does not keep what it read while a change of that charge was committed: a commit during the read is not hidden', async () => {
    const listeners = changeListeners();
    let reads = 0;
    const cache = createRecordCache({ onChanged: listeners.add, heard: () => true });
    const read = async (): Promise<RecordRead> => {
      reads++;
      listeners.tell(new Set(['i7'])); // committed while this read ran: what it read may be older than that commit
      return { record: { n: reads } as unknown as RecordRead['record'], invoice: { id: 7, company_id: 1, customer_id: 3, status: 'paid', expires_at: null } };
    };
    await cache.json('k', at('2026-03-10T12:00:00Z'), read);
    await cache.json('k', at('2026-03-10T12:00:00Z'), read);
    expect(reads).toBe(2);
  });
});
