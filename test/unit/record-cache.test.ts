// The record cache's rules, on their own: read once while the change mark stands, again after it
// moves, past the kept charge's expiry, or under another key; never a newer mark on older bytes.
import { describe, expect, it } from 'vitest';
import { createRecordCache, type RecordRead } from '../../src/server/invoices/record-cache.js';

function setup() {
  let mark = 1;
  let reads = 0;
  let status: RecordRead['invoice']['status'] = 'pending';
  const cache = createRecordCache(() => mark);
  const read = async (): Promise<RecordRead> => {
    reads++;
    return { record: { status } as unknown as RecordRead['record'], invoice: { status, expires_at: '2026-03-10T12:10:00.000Z' } };
  };
  return {
    cache,
    read,
    get reads() {
      return reads;
    },
    commit(next: RecordRead['invoice']['status']) {
      status = next;
      mark++;
    },
  };
}

const at = (iso: string) => new Date(iso);

describe('record cache', () => {
  it('reads once while the mark stands, and again after it moves', async () => {
    const s = setup();
    expect(String(await s.cache.json('1 2026-03 7', at('2026-03-10T12:00:00Z'), s.read))).toBe('{"status":"pending"}');
    expect(String(await s.cache.json('1 2026-03 7', at('2026-03-10T12:00:01Z'), s.read))).toBe('{"status":"pending"}');
    expect(s.reads).toBe(1);
    s.commit('paid');
    expect(String(await s.cache.json('1 2026-03 7', at('2026-03-10T12:00:02Z'), s.read))).toBe('{"status":"paid"}');
    expect(s.reads).toBe(2);
    // a paid charge has no end: kept past the time a pending one would have expired
    expect(String(await s.cache.json('1 2026-03 7', at('2026-03-10T13:00:00Z'), s.read))).toBe('{"status":"paid"}');
    expect(s.reads).toBe(2);
  });

  it('reads again once a pending charge falls due, and under another key', async () => {
    const s = setup();
    await s.cache.json('1 2026-03 7', at('2026-03-10T12:09:59Z'), s.read);
    await s.cache.json('1 2026-03 7', at('2026-03-10T12:10:00Z'), s.read);
    expect(s.reads).toBe(2);
    await s.cache.json('1 2026-04 7', at('2026-03-10T12:00:00Z'), s.read);
    expect(s.reads).toBe(3);
  });

  it('tags what it keeps with the mark read before the read: a commit during the read is not hidden', async () => {
    let mark = 1;
    let reads = 0;
    const cache = createRecordCache(() => mark);
    const read = async (): Promise<RecordRead> => {
      reads++;
      mark++; // committed while this read ran: what it read may be older than that commit
      return { record: { n: reads } as unknown as RecordRead['record'], invoice: { status: 'paid', expires_at: null } };
    };
    await cache.json('k', at('2026-03-10T12:00:00Z'), read);
    await cache.json('k', at('2026-03-10T12:00:00Z'), read);
    expect(reads).toBe(2);
  });
});
