import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { AmountError, centsToDecimal, formatBRL, isCents, parseAmount, sumCents } from '../../src/domain/money.js';

describe('isCents', () => {
  it.each([
    [0, true],
    [1990, true],
    [-5, true],
    [Number.MAX_SAFE_INTEGER, true],
    [Number.MAX_SAFE_INTEGER + 1, false],
    [1.5, false],
    [NaN, false],
    [Infinity, false],
    ['1990', false],
    [null, false],
    [undefined, false],
  ])('isCents(%s) is %s', (value, expected) => expect(isCents(value)).toBe(expected));
});

describe('formatBRL', () => {
  it.each([
    [0, 'R$ 0,00'],
    [5, 'R$ 0,05'],
    [50, 'R$ 0,50'],
    [99, 'R$ 0,99'],
    [100, 'R$ 1,00'],
    [1990, 'R$ 19,90'],
    [99999, 'R$ 999,99'],
    [100000, 'R$ 1.000,00'],
    [123456, 'R$ 1.234,56'],
    [12345678, 'R$ 123.456,78'],
    [100000000, 'R$ 1.000.000,00'],
    [10000000000, 'R$ 100.000.000,00'],
    [Number.MAX_SAFE_INTEGER, 'R$ 90.071.992.547.409,91'],
  ])('formatBRL(%d) is %s', (cents, expected) => expect(formatBRL(cents)).toBe(expected));

  it.each([
    [-5, '-R$ 0,05'],
    [-1990, '-R$ 19,90'],
    [-123456, '-R$ 1.234,56'],
    [-100000000, '-R$ 1.000.000,00'],
  ])('formatBRL(%d) is %s (leading minus)', (cents, expected) => expect(formatBRL(cents)).toBe(expected));

  it('formats -0 without a sign', () => expect(formatBRL(-0)).toBe('R$ 0,00'));

  it.each([1.5, 0.1, -0.5, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 1])('throws AmountError for %s', (value) => {
    expect(() => formatBRL(value)).toThrow(AmountError);
  });
});

describe('centsToDecimal', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [50, '0.50'],
    [1250, '12.50'],
    [1990, '19.90'],
    [123456, '1234.56'],
    [100000000, '1000000.00'],
  ])('centsToDecimal(%d) is %s', (cents, expected) => expect(centsToDecimal(cents)).toBe(expected));

  it.each([-1, -1990, 1.5, NaN, Infinity])('throws AmountError for %s', (value) => {
    expect(() => centsToDecimal(value)).toThrow(AmountError);
  });
});

describe('parseAmount', () => {
  it.each([
    ['12,50', 1250],
    ['12.50', 1250],
    ['12', 1200],
    ['0', 0],
    ['0,5', 50],
    ['0.5', 50],
    ['0,05', 5],
    ['12,5', 1250],
    ['R$ 1.234,56', 123456],
    ['R$1.234,56', 123456],
    ['r$ 19,90', 1990],
    ['  R$   19,90  ', 1990],
    ['1,234.56', 123456],
    ['1.234.567,89', 123456789],
    ['1,234,567.89', 123456789],
    ['1234,56', 123456],
    ['1234567', 123456700],
    ['1 234,56', 123456],
    ['1.000.000,00', 100000000],
    // Three digits after the only separator: documented as a thousands group, not a decimal part.
    ['12,345', 1234500],
    ['12.345', 1234500],
    ['1.234', 123400],
    ['1,234', 123400],
    ['12,505', 1250500],
    ['1.234,567', 123456700], // every separator followed by three digits groups thousands
  ])('parseAmount(%j) is %d', (text, expected) => expect(parseAmount(text)).toBe(expected));

  it.each([
    '',
    '   ',
    'R$',
    'abc',
    '12a',
    '1.2.3,4',
    '12,',
    '12.',
    ',50',
    '12,50,1',
    '1234.567,89', // a group of 4 digits before a thousands separator
    '12,3456',
    '-5',
    '-R$ 0,05',
    '+5',
    '1e3',
    'US$ 10',
    '١٢', // Arabic-Indic digits
  ])('parseAmount(%j) throws AmountError', (text) => {
    expect(() => parseAmount(text)).toThrow(AmountError);
  });

  it('throws AmountError for an amount beyond the safe integers', () => {
    expect(parseAmount('90071992547409,91')).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => parseAmount('90071992547409,92')).toThrow(AmountError);
    expect(() => parseAmount('99999999999999999999')).toThrow(AmountError);
  });

  it('names the rejected text in the error message', () => {
    expect(() => parseAmount('abc')).toThrow(/"abc" is not an amount/);
  });
});

describe('sumCents', () => {
  it.each([
    [[], 0],
    [[1990], 1990],
    [[1, 2, 3], 6],
    [[1000, -250], 750],
  ])('sumCents(%j) is %d', (values, expected) => expect(sumCents(values)).toBe(expected));
});

describe('properties', () => {
  it('parseAmount(formatBRL(c)) === c for c in 0..10^10', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => parseAmount(formatBRL(cents)) === cents), { numRuns: 1000 });
  });

  it('parseAmount(centsToDecimal(c)) === c for c in 0..10^10', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => parseAmount(centsToDecimal(cents)) === cents), { numRuns: 1000 });
  });

  it('formatBRL(-c) is "-" + formatBRL(c) for c > 0', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (cents) => formatBRL(-cents) === `-${formatBRL(cents)}`));
  });

  it('formatBRL and centsToDecimal agree on the digits', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (cents) => {
      const fromBrl = formatBRL(cents).slice(3).replace(/\./g, '').replace(',', '.');
      return fromBrl === centsToDecimal(cents);
    }));
  });

  it('centsToDecimal matches a BigInt reference', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (cents) => {
      const big = BigInt(cents);
      return centsToDecimal(cents) === `${big / 100n}.${String(big % 100n).padStart(2, '0')}`;
    }));
  });
});
