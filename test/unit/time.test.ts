// Times where the reader lives: the zone's wall clock with its offset, UTC with --utc, and distances.
import { afterAll, describe, expect, it } from 'vitest';
import { dateTime, timesIn } from '../../src/cli/render/format.js';
import { dueFromToday, fromNow, localTime, shortLocalTime, startOfDay, useTimeZone } from '../../src/cli/render/time.js';

afterAll(() => useTimeZone('UTC'));

describe('a time in a zone', () => {
  it.each([
    ['2026-11-25T23:38:17.443Z', 'America/Sao_Paulo', '2026-11-25 20:38:17 -03:00'],
    ['2026-11-25T23:38:17.443Z', 'America/Manaus', '2026-11-25 19:38:17 -04:00'],
    ['2026-11-25T23:38:17.443Z', 'Asia/Tokyo', '2026-11-26 08:38:17 +09:00'],
    ['2026-11-25T23:38:17.443Z', 'Asia/Kolkata', '2026-11-26 05:08:17 +05:30'],
    ['2026-07-01T12:00:00Z', 'Europe/Lisbon', '2026-07-01 13:00:00 +01:00'],
    ['2026-12-01T03:00:00Z', 'America/Sao_Paulo', '2026-12-01 00:00:00 -03:00'],
    ['2026-11-25 23:38:17', 'UTC', '2026-11-25 23:38:17 UTC'],
  ])('%s in %s is %s', (text, zone, expected) => expect(localTime(text, zone)).toBe(expected));

  it('dateTime uses the zone the output path chose; notes have their ISO times shown the same way', () => {
    useTimeZone('America/Sao_Paulo');
    expect(dateTime('2026-12-01T03:00:00.000Z')).toBe('2026-12-01 00:00:00 -03:00');
    expect(timesIn('not paid by 2026-11-25T23:38:17.443Z')).toBe('not paid by 2026-11-25 20:38:17 -03:00');
    expect(shortLocalTime('2026-11-25T23:38:17.443Z')).toBe('2026-11-25 20:38');
    useTimeZone('UTC');
    expect(dateTime('2026-12-01T03:00:00.000Z')).toBe('2026-12-01 03:00:00 UTC');
  });

  it('a date typed in the zone starts at its midnight there', () => {
    expect(startOfDay('2026-11-25', 'America/Sao_Paulo')).toBe('2026-11-25T03:00:00.000Z');
    expect(startOfDay('2026-11-25', 'Asia/Tokyo')).toBe('2026-11-24T15:00:00.000Z');
    expect(startOfDay('2026-03-29', 'Europe/Lisbon')).toBe('2026-03-29T00:00:00.000Z');
    expect(startOfDay('2026-11-25', 'UTC')).toBe('2026-11-25T00:00:00.000Z');
  });
});

describe('what is ahead', () => {
  const now = Date.parse('2026-11-25T23:00:00Z');
  it.each([
    ['2026-11-25T23:42:00Z', 'in 42 min'],
    ['2026-11-26T02:05:00Z', 'in 3 h 5 min'],
    ['2026-11-26T00:00:00Z', 'in 1 h'],
    ['2026-11-28T23:00:00Z', 'in 3 days'],
    ['2026-11-25T22:18:00Z', '42 min ago'],
    ['2026-11-25T23:00:20Z', 'in less than a minute'],
  ])('%s is %s', (text, expected) => expect(fromNow(text, now)).toBe(expected));

  it.each([
    ['2026-11-25', 'due today'],
    ['2026-11-26', 'due tomorrow'],
    ['2026-11-28', 'due in 3 days'],
    ['2026-11-24', '1 day overdue'],
    ['2026-11-20', '5 days overdue'],
  ])('a boleto due %s is %s (at 20:00 in São Paulo, whatever the reader\'s zone)', (date, expected) => {
    useTimeZone('Asia/Tokyo');
    expect(dueFromToday(date, now)).toBe(expected);
  });

  it('the day turns in the zone, not in UTC: at 22:00 UTC it is already tomorrow in Tokyo', () => {
    expect(dueFromToday('2026-11-26', Date.parse('2026-11-25T22:00:00Z'), 'Asia/Tokyo')).toBe('due today');
  });
});
