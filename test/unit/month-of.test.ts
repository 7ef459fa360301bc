// monthOf: the UTC month paid totals are kept by, as "YYYY-MM". It remembers the last month asked
// for (a cached GET asks on every request): the answer must still change exactly at a month's edge,
// in either direction, and for any year.
import { describe, expect, it } from 'vitest';
import { monthOf } from '../../src/server/store/port.js';

describe('monthOf', () => {
  it('changes exactly at the edges of a UTC month, asked in any order', () => {
    const asked: [string, string][] = [
      ['2026-01-31T23:59:59.999Z', '2026-01'],
      ['2026-02-01T00:00:00.000Z', '2026-02'],
      ['2026-01-31T23:59:59.999Z', '2026-01'],
      ['2026-01-01T00:00:00.000Z', '2026-01'],
      ['2025-12-31T23:59:59.999Z', '2025-12'],
      ['2026-02-28T23:59:59.999Z', '2026-02'],
      ['2026-03-01T00:00:00.000Z', '2026-03'],
      ['2024-02-29T12:00:00.000Z', '2024-02'],
      ['2026-12-31T23:59:59.999Z', '2026-12'],
      ['2027-01-01T00:00:00.000Z', '2027-01'],
    ];
    for (const [at, month] of asked) expect(monthOf(new Date(at)), at).toBe(month);
  });

  it('takes a stored ISO text as it is, and refuses an invalid date as before', () => {
    expect(monthOf('2026-05-17T10:00:00.000Z')).toBe('2026-05');
    expect(() => monthOf(new Date(Number.NaN))).toThrow(RangeError);
  });
});
