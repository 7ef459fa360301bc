import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { isExpired, normalizeCardNumber, passesLuhn } from '../../src/domain/card.js';

// Published test card numbers (Stripe / PayPal / Adyen test-card lists).
const VALID = [
  '4111111111111111', // Visa
  '5555555555554444', // Mastercard
  '378282246310005', // American Express
  '6011111111111117', // Discover
  '4012888888881881', // Visa
  '5105105105105100', // Mastercard
  '371449635398431', // American Express
  '30569309025904', // Diners Club, 14 digits
  '3566002020360505', // JCB
  '6011000990139424', // Discover
  '4222222222222', // Visa, 13 digits
];

/** Luhn check digit of a payload, written independently of the implementation. */
function luhnCheckDigit(payload: string): string {
  let sum = 0;
  [...payload].reverse().forEach((char, i) => {
    const d = Number(char) * (i % 2 === 0 ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  });
  return String((10 - (sum % 10)) % 10);
}

describe('passesLuhn', () => {
  it.each(VALID)('%s is valid', (number) => expect(passesLuhn(number)).toBe(true));

  it.each([
    '4111111111111112', // last digit changed
    '4111111111111121', // second-to-last digit changed
    '5555555555554445',
    '5555555555564444',
    '378282246310006',
    '378282246310015',
    '6011111111111118',
    '7011111111111117', // first digit changed
    '4111111111111110',
  ])('%s (one digit changed) is invalid', (number) => expect(passesLuhn(number)).toBe(false));

  it.each([
    ['', 'empty'],
    ['4111 1111 1111 1111', 'spaces'],
    ['4111-1111-1111-1111', 'dashes'],
    ['411111111111111a', 'a letter'],
    [' 4111111111111111', 'a leading space'],
    ['4111111111111111 ', 'a trailing space'],
    ['4111111111111111\n', 'a trailing newline'],
    ['-4111111111111111', 'a sign'],
    ['４１１１１１１１１１１１１１１１', 'full-width digits'],
    ['00000000000', '11 digits (too short, Luhn-valid)'],
    ['42424242', '8 digits'],
    ['00004111111111111111', '20 digits (too long, Luhn-valid)'],
  ])('%j (%s) is false', (input) => expect(passesLuhn(input)).toBe(false));

  it.each([
    ['000000000000', '12 digits'],
    ['0004111111111111111', '19 digits'],
    ['0000000000000000000', '19 zeros'],
  ])('%s (%s) is accepted at the length bounds', (input) => expect(passesLuhn(input)).toBe(true));

  const payloads = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 11, maxLength: 18 });

  it('a payload with its Luhn check digit passes', () => {
    fc.assert(fc.property(payloads, (payload) => passesLuhn(payload + luhnCheckDigit(payload))));
  });

  it('changing any single digit of a valid number makes it fail', () => {
    fc.assert(
      fc.property(payloads, fc.nat(), fc.integer({ min: 1, max: 9 }), (payload, at, delta) => {
        const number = payload + luhnCheckDigit(payload);
        const index = at % number.length;
        const changed = number.slice(0, index) + String((Number(number[index]) + delta) % 10) + number.slice(index + 1);
        expect(passesLuhn(changed)).toBe(false);
      }),
    );
  });

  it('exactly one check digit out of ten passes', () => {
    fc.assert(
      fc.property(payloads, (payload) => {
        const passing = [...'0123456789'].filter((digit) => passesLuhn(payload + digit));
        expect(passing).toEqual([luhnCheckDigit(payload)]);
      }),
    );
  });
});

describe('normalizeCardNumber', () => {
  it.each([
    ['4111 1111 1111 1111', '4111111111111111'],
    ['4111-1111-1111-1111', '4111111111111111'],
    [' 4111 1111-1111 1111 ', '4111111111111111'],
    ['4111\t1111\n1111\u00a01111', '4111111111111111'],
    ['3782 822463 10005', '378282246310005'],
    ['4111111111111111', '4111111111111111'],
    ['', ''],
    ['4111.1111.1111.1111', '4111.1111.1111.1111'], // only whitespace and dashes are removed
    ['4111/1111', '4111/1111'],
  ])('normalizeCardNumber(%j) is %j', (input, expected) => expect(normalizeCardNumber(input)).toBe(expected));

  it('normalized published numbers pass Luhn', () => {
    expect(passesLuhn(normalizeCardNumber('4111 1111 1111 1111'))).toBe(true);
    expect(passesLuhn(normalizeCardNumber('5555-5555-5555-4444'))).toBe(true);
  });
});

describe('isExpired', () => {
  it.each([
    // month, year, now, expired
    ['11', '2026', '2026-11-30T23:59:59.999Z', false], // valid through the last day of its month
    ['11', '2026', '2026-11-01T00:00:00.000Z', false],
    ['11', '2026', '2026-10-31T23:59:59.999Z', false],
    ['11', '2026', '2026-12-01T00:00:00.000Z', true],
    ['11', '2026', '2027-01-15T00:00:00.000Z', true],
    ['11', '26', '2026-11-30T23:59:59.999Z', false], // two-digit year is 20YY
    ['11', '26', '2026-12-01T00:00:00.000Z', true],
    ['12', '2026', '2026-12-31T23:59:59.999Z', false],
    ['12', '2026', '2027-01-01T00:00:00.000Z', true],
    ['1', '2027', '2026-12-31T00:00:00.000Z', false],
    ['01', '27', '2027-01-31T12:00:00.000Z', false],
    ['01', '27', '2027-02-01T00:00:00.000Z', true],
    ['2', '2024', '2024-02-29T23:59:59.999Z', false], // leap day
    ['2', '2024', '2024-03-01T00:00:00.000Z', true],
    ['12', '2025', '2026-11-22T00:00:00.000Z', true],
    ['10', '2026', '2026-11-22T00:00:00.000Z', true],
    ['12', '99', '2026-11-22T00:00:00.000Z', false], // 2099
    ['1', '2100', '2026-11-22T00:00:00.000Z', false],
  ])('month %s year %s on %s: expired %s', (month, year, now, expected) => {
    expect(isExpired(month, year, new Date(now))).toBe(expected);
  });

  it('uses UTC: 2026-12-01 00:30 UTC is already December even at 21:30 in São Paulo', () => {
    expect(isExpired('11', '2026', new Date('2026-11-30T21:30:00-03:00'))).toBe(true);
    expect(isExpired('11', '2026', new Date('2026-11-30T20:59:59-03:00'))).toBe(false);
  });

  it.each([
    ['0', '2030'],
    ['00', '2030'],
    ['13', '2030'],
    ['-1', '2030'],
    ['1.5', '2030'],
    ['abc', '2030'],
    ['', '2030'],
    ['NaN', '2030'],
    ['12', 'abcd'],
    ['12', 'ab'],
    ['12', '20.5'],
  ])('month %j year %j counts as expired', (month, year) => {
    expect(isExpired(month, year, new Date('2026-11-22T00:00:00Z'))).toBe(true);
  });

  it('agrees with a month count for every month and year', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 2000, max: 2099 }),
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.boolean(),
        (month, year, now, twoDigits) => {
          const expected = year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1);
          const yearText = twoDigits ? String(year % 100).padStart(2, '0') : String(year);
          expect(isExpired(String(month), yearText, now)).toBe(expected);
          expect(isExpired(String(month).padStart(2, '0'), yearText, now)).toBe(expected);
        },
      ),
    );
  });
});
