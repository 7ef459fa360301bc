import { describe, expect, it } from 'vitest';
import { passesLuhn } from '../../src/domain/card.js';
import { cardOutcome, check3ds, detectBrand, maskCard, SAMPLE_3DS_VALUES, TEST_CARDS, tokenOutcome } from '../../src/domain/card-outcome.js';

describe('test cards and brands', () => {
  it.each(TEST_CARDS.map((c) => [c.number, c.description, c.outcome] as const))('%s (%s) passes Luhn and decides its outcome', (number, _, outcome) => {
    expect(passesLuhn(number)).toBe(true);
    expect(cardOutcome(number)).toEqual(outcome);
  });

  it.each([
    ['4111111111111111', 'visa'], ['5555555555554444', 'mastercard'], ['2221000000000009', 'mastercard'], ['378282246310005', 'amex'],
    ['6362970000457013', 'elo'], ['4011780000000000', 'elo'], ['5067000000000000', 'elo'], ['6062825624254001', 'hipercard'],
    ['30569309025904', 'diners'], ['6011111111111117', 'discover'], ['3530111333300000', 'jcb'], ['9999999999999995', 'unknown'],
  ])('%s is %s', (number, brand) => expect(detectBrand(number)).toBe(brand));

  it('any other valid number is approved; masks keep 6 + 4 digits', () => {
    expect(cardOutcome('5105105105105100')).toEqual({ kind: 'approved' });
    expect(maskCard('4111111111111111')).toEqual({ firstDigits: '411111', lastDigits: '1111' });
  });

  it('tokens behave like the test card they name, others are approved', () => {
    expect(tokenOutcome('tok_4000000000009995')).toMatchObject({ outcome: { kind: 'declined', reason: 'insufficient_funds' }, brand: 'visa', lastDigits: '9995' });
    expect(tokenOutcome('tok_anything')).toEqual({ outcome: { kind: 'approved' }, brand: 'unknown', firstDigits: '', lastDigits: '' });
  });
});

describe('3-D Secure', () => {
  it.each([
    ['05', true], ['02', true], ['06', true], ['01', true], ['07', false], ['00', false],
  ])('eci %s authenticates: %s', (eci, ok) => expect(check3ds({ ...SAMPLE_3DS_VALUES, eci }, 'visa').authenticated).toBe(ok));

  it('rejects blank values, a bad version and a malformed cavv', () => {
    expect(check3ds({ ...SAMPLE_3DS_VALUES, xid: ' ' }, 'visa').authenticated).toBe(false);
    expect(check3ds({ ...SAMPLE_3DS_VALUES, version: '3.0' }, 'visa').authenticated).toBe(false);
    expect(check3ds({ ...SAMPLE_3DS_VALUES, cavv: 'short' }, 'visa')).toEqual({ authenticated: false, reason: 'invalid_cavv' });
    expect(check3ds({ ...SAMPLE_3DS_VALUES, cavv: 'a'.repeat(40) }, 'visa').authenticated).toBe(true);
  });
});
