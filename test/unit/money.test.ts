import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { AmountError, amountRangeProblem, centsToDecimal, formatBRL, isCents, MAX_CENTS, MIN_CENTS, parseAmount, sumCents } from '../../src/domain/money.js';

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

describe('parseAmount reads', () => {
  it.each([
    // one mark before 1 or 2 digits: the centavos
    ['12,50', 1250],
    ['12.50', 1250],
    ['12,5', 1250],
    ['1,5', 150],
    ['1.5', 150],
    ['0,5', 50],
    ['0.5', 50],
    ['0,05', 5],
    ['0,01', 1],
    ['1234,56', 123456],
    ['1234.56', 123456],
    ['1234567,8', 123456780],
    // no mark: whole reais
    ['12', 1200],
    ['0', 0],
    ['007', 700],
    ['1234567', 123456700],
    // both marks: the last separates the centavos, the other groups thousands
    ['1.234,56', 123456],
    ['1,234.56', 123456],
    ['1.234,5', 123450],
    ['1.234.567,89', 123456789],
    ['1,234,567.89', 123456789],
    ['1.000.000,00', 100000000],
    ['999.999,99', 99999999],
    // one mark used twice or more: thousands only
    ['1.234.567', 123456700],
    ['1,234,567', 123456700],
    // a space groups thousands, never separates the centavos
    ['1 234,56', 123456],
    ['1 234', 123400],
    ['12 345 678', 1234567800],
    ['1\u00a0234,56', 123456], // no-break space, as some locales format it
    // R$ in front, spaces around
    ['R$ 1.234,56', 123456],
    ['R$1.234,56', 123456],
    ['r$ 19,90', 1990],
    ['  R$   19,90  ', 1990],
    ['R$ 12', 1200],
  ])('%j as %d cents', (text, expected) => expect(parseAmount(text)).toBe(expected));
});

describe('parseAmount refuses, saying why', () => {
  it.each([
    // one mark before exactly three digits: thousands or centavos? Never guessed.
    ['12,345', /^"12,345" is ambiguous: a "," before three digits may mark the centavos or the thousands; write 12,35 or 12\.345,00$/],
    ['12.345', /^"12\.345" is ambiguous: a "\." before three digits .*; write 12,35 or 12\.345,00$/],
    ['1.234', /^"1\.234" is ambiguous: .*; write 1,23 or 1\.234,00$/],
    ['1,234', /^"1,234" is ambiguous: .*; write 1,23 or 1\.234,00$/],
    ['999,999', /ambiguous: .*; write 1\.000,00 or 999\.999,00$/],
    ['R$ 12,505', /^"R\$ 12,505" is ambiguous/],
    // more than two decimals
    ['0,999', /^"0,999" has 3 decimal places; centavos take at most 2: write 1,00$/],
    ['0.999', /^"0\.999" has 3 decimal places/],
    ['01,234', /has 3 decimal places/], // a leading 0 cannot start a thousands group
    ['1234,567', /^"1234,567" has 3 decimal places; centavos take at most 2: write 1\.234,57$/],
    ['12,3456', /^"12,3456" has 4 decimal places; .*: write 12,35$/],
    ['1.234,567', /^"1\.234,567" has 3 decimal places; .*: write 1\.234,57$/],
    ['1,234.561', /has 3 decimal places; .*: write 1\.234,56$/],
    ['1 234,567', /has 3 decimal places/],
    // thousands grouped wrong
    ['1.23,45', /^"1\.23,45" groups its thousands wrong \(three digits each\): write like 1\.234\.567,89 or 1234567,89$/],
    ['12.34.56', /^"12\.34\.56" groups its thousands wrong/],
    ['1.2.3,4', /groups its thousands wrong/],
    ['12,50,1', /groups its thousands wrong/],
    ['1234.567,89', /groups its thousands wrong/], // a first group of 4 digits
    ['0.123,45', /groups its thousands wrong/], // a first group starting with 0
    ['1.2345,67', /groups its thousands wrong/],
    ['1 23,45', /groups its thousands wrong/],
    ['1.234 567,89', /^"1\.234 567,89" mixes "\." and space between thousands/],
    ['1,234.567.890', /mixes "," and "\." between thousands/],
    // signs
    ['-5', /^"-5" is negative: type the amount without a sign \(examples: 12,50 or 1\.234,56\)$/],
    ['-R$ 0,05', /is negative/],
    ['R$ -5', /is negative/],
    ['−5', /is negative/], // U+2212 minus sign
    // not an amount at all
    ...['', '   ', 'R$', 'abc', '12a', '12,', '12.', ',50', '.50', '1..2', '1,,2', '12 ,50', '+5', '1e3', 'US$ 10', '5 R$', '١٢'].map(
      (text): [string, RegExp] => [text, /is not an amount \(examples: 12,50 or 1\.234,56\)$/],
    ),
    // too large for exact cents
    ['90071992547409,92', /^"90071992547409,92" is too large$/],
    ['99999999999999999999', /is too large/],
  ])('%j', (text, reason) => {
    expect(() => parseAmount(text)).toThrow(AmountError);
    expect(() => parseAmount(text)).toThrow(reason);
  });

  it('reads the largest exact amount', () => expect(parseAmount('90071992547409,91')).toBe(Number.MAX_SAFE_INTEGER));

  it('escapes control characters when it repeats the text', () => {
    expect(() => parseAmount('\u001b[2J5')).toThrow(/^"\\u001b\[2J5" is not an amount/);
    expect(() => parseAmount('5\u009b')).toThrow(/^"5\\u009b" is not an amount/);
  });
});

describe('amountRangeProblem', () => {
  it.each([
    [0, 'at least R$ 0,01'],
    [-1, 'at least R$ 0,01'],
    [1, undefined],
    [MAX_CENTS, undefined],
    [MAX_CENTS + 1, 'at most R$ 1.000.000,00'],
  ])('%d: %s', (cents, expected) => expect(amountRangeProblem(cents)).toBe(expected));

  it('caps at R$ 0,01 to R$ 1.000.000,00, the API limits', () => expect([MIN_CENTS, MAX_CENTS]).toEqual([1, 100_000_000]));
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

  it('parseAmount reads the US form (1,234,567.89) of every amount', () => {
    const us = (cents: number) => formatBRL(cents).slice(3).replace(/[.,]/g, (mark) => (mark === '.' ? ',' : '.'));
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => parseAmount(us(cents)) === cents), { numRuns: 1000 });
  });

  it('parseAmount never guesses a single mark before three digits', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 0, max: 999 }), fc.constantFrom(',', '.'), (whole, part, mark) => {
      expect(() => parseAmount(`${whole}${mark}${String(part).padStart(3, '0')}`)).toThrow(/is ambiguous/);
    }));
  });

  it('every amount a refusal suggests is read back', () => {
    fc.assert(fc.property(fc.stringMatching(/^\d{1,6}([.,]\d{3}){0,2}([.,]\d{1,4})?$/), (text) => {
      let message = '';
      try {
        parseAmount(text);
      } catch (error) {
        message = (error as Error).message;
      }
      const suggested = /; write (\S+)(?: or (\S+))?$/.exec(message)?.slice(1).filter((s) => s !== undefined) ?? [];
      for (const amount of suggested) expect(() => parseAmount(amount as string), `${text} suggests ${amount}`).not.toThrow();
    }), { numRuns: 2000 });
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
