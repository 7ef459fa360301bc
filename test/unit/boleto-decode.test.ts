import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barcodeToDigitableLine, BoletoError, buildBarcode, dueDateFactor, formatDigitableLine, sandboxFreeField } from '../../src/domain/boleto.js';
import { boletoDigits, decodeBoleto, dueDateOfFactor } from '../../src/domain/boleto-decode.js';

// Published examples. Banco do Brasil, from FEBRABAN layout guides: R$ 1,00, factor 3737 (2007-12-31).
const BB_LINE = '00190500954014481606906809350314337370000000100';
// Caixa, from the test suite of boleto-utils (npm): R$ 214,03, due 2022-05-10.
const CAIXA_LINE = '10492006506100010004200997263900989810000021403';
const CAIXA_BARCODE = '10499898100000214032006561000100040099726390';
// Bradesco credit-card bill, same suite: neither amount nor due date in the barcode.
const BRADESCO_CARD_LINE = '23794150099001980167035000211405700000000000000';
// Santander, a line published in an open-source boleto decoder, dots where its author put them: factor 1137, after the reset.
const SANTANDER_TYPED = '033991614.0 0700000191.2 8155600101.4 4 11370000038936';
// Ours (test/support/fixtures.ts): Banco do Brasil, R$ 49,90, due 2026-11-25.
const OURS_LINE = '00190000090281234567200000123174216410000004990';
const OURS_BARCODE = '00192164100000049900000002812345670000012317';

const TODAY = '2026-11-22';
const rules = (text: string, today = TODAY) => decodeBoleto(text, today).problems.map((problem) => problem.rule);
/** `text` with the digit at `at` changed to the next one. */
const bump = (text: string, at: number) => text.slice(0, at) + String((Number(text[at]) + 1) % 10) + text.slice(at + 1);

describe('decodeBoleto on valid lines and barcodes', () => {
  it('reads our fixture line: bank, currency, amount, factor, due date, free field, the barcode', () =>
    expect(decodeBoleto(formatDigitableLine(OURS_LINE), TODAY)).toEqual({
      valid: true, given: 'line', bank: { code: '001', name: 'Banco do Brasil' }, currency: '9', amount_cents: 4990,
      factor: 1641, due_date: '2026-11-25', free_field: '0000002812345670000012317', line: OURS_LINE, barcode: OURS_BARCODE, problems: [],
    }));

  it('reads the barcode the same, and gives the line', () =>
    expect(decodeBoleto(OURS_BARCODE, TODAY)).toMatchObject({ valid: true, given: 'barcode', line: OURS_LINE, barcode: OURS_BARCODE, amount_cents: 4990, due_date: '2026-11-25' }));

  it.each([
    ['Banco do Brasil (FEBRABAN)', BB_LINE, '2008-01-01', { bank: { code: '001', name: 'Banco do Brasil' }, amount_cents: 100, factor: 3737, due_date: '2007-12-31' }],
    ['Caixa (line)', CAIXA_LINE, '2022-05-01', { bank: { code: '104', name: 'Caixa Econômica Federal' }, amount_cents: 21403, due_date: '2022-05-10', barcode: CAIXA_BARCODE }],
    ['Caixa (barcode)', CAIXA_BARCODE, '2022-05-01', { line: CAIXA_LINE, due_date: '2022-05-10' }],
    ['Bradesco card bill', BRADESCO_CARD_LINE, TODAY, { bank: { code: '237', name: 'Bradesco' }, amount_cents: 0, factor: 0, due_date: null }],
    ['Santander, after the reset', SANTANDER_TYPED, TODAY, { bank: { code: '033', name: 'Santander' }, amount_cents: 38936, factor: 1137, due_date: '2025-07-09' }],
  ])('reads the published %s example', (_name, text, today, expected) =>
    expect(decodeBoleto(text, today)).toMatchObject({ valid: true, problems: [], ...expected }));

  it('names a bank it does not know by its code only', () => {
    const barcode = buildBarcode({ bankCode: '123', amountCents: 100, dueDate: TODAY, freeField: '1'.repeat(25) });
    expect(decodeBoleto(barcode, TODAY).bank).toEqual({ code: '123', name: null });
  });

  const days = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

  it('every boleto buildBarcode makes decodes to what it was made of, from either form, and each form gives back the other', () =>
    fc.assert(fc.property(
      fc.constantFrom('001', '104', '237', '341', '999'), fc.integer({ min: 0, max: 9_999_999_999 }), fc.integer({ min: 0, max: 18_000 }),
      fc.integer({ min: -4400, max: 4400 }), fc.integer({ min: 1, max: 99_999 }),
      (bankCode, amountCents, offset, drift, id) => {
        const dueDate = days('2000-07-03', offset);
        const freeField = sandboxFreeField(id, '0001', '123456');
        const barcode = buildBarcode({ bankCode, amountCents, dueDate, freeField });
        const line = barcodeToDigitableLine(barcode);
        const expected = { valid: true, amount_cents: amountCents, due_date: dueDate, factor: Number(dueDateFactor(dueDate)), free_field: freeField, line, barcode };
        expect(decodeBoleto(formatDigitableLine(line), days(dueDate, drift))).toMatchObject({ ...expected, given: 'line' });
        expect(decodeBoleto(barcode, days(dueDate, drift))).toMatchObject({ ...expected, given: 'barcode' });
      },
    ), { numRuns: 300 }));
});

describe('each check digit broken alone names its field', () => {
  it.each([[9, 'field1'], [20, 'field2'], [31, 'field3'], [32, 'general']])('the digit at %i of the line: %s', (at, rule) => {
    const decoded = decodeBoleto(bump(OURS_LINE, at), TODAY);
    expect(decoded.valid).toBe(false);
    expect(decoded.problems.map((problem) => problem.rule)).toEqual([rule]);
  });

  it('says what the field was and which digit it expected', () =>
    expect(decodeBoleto(bump(OURS_LINE, 20), TODAY).problems[0]?.message)
      .toBe('field 2 (02812.345673) ends in check digit 3, but modulo 10 of its digits gives 2: a digit of field 2 was misread'));

  it('the general check digit of a barcode (position 5)', () =>
    expect(decodeBoleto(bump(OURS_BARCODE, 4), TODAY).problems).toEqual([{
      rule: 'general', message: 'the general check digit (field 4 of the line, position 5 of the barcode) is 3, but modulo 11 of the barcode gives 2',
    }]));

  it('a digit misheard inside field 2 fails field 2 and the general check digit', () => expect(rules(bump(OURS_LINE, 15))).toEqual(['field2', 'general']));

  it('a digit misheard in the amount fails only the general check digit', () => expect(rules(bump(OURS_LINE, 45))).toEqual(['general']));
});

describe('the due date factor, before and after the 2025 reset', () => {
  it.each([
    [1000, '2001-01-01', '2000-07-03'],
    [3737, '2008-01-01', '2007-12-31'],
    [9999, '2025-02-01', '2025-02-21'],
    [1000, '2025-02-01', '2025-02-22'],
    [1000, '2013-01-01', '2025-02-22'],
    [1000, '2012-01-01', '2000-07-03'],
    [1641, TODAY, '2026-11-25'],
    [9999, '2049-01-01', '2049-10-13'],
    [999, TODAY, '2000-07-02'],
    [0, TODAY, null],
  ])('factor %i seen on %s is %s', (factor, today, date) => expect(dueDateOfFactor(factor, today)).toBe(date));

  it('agrees with dueDateFactor, which issues them', () => {
    for (const date of ['2000-07-03', '2025-02-21', '2025-02-22', '2026-11-25', '2049-10-13', '2049-10-14']) {
      expect(dueDateOfFactor(Number(dueDateFactor(date)), date)).toBe(date);
    }
  });

  it('refuses a today that is not a date', () => expect(() => dueDateOfFactor(1000, '22/11/2026')).toThrow(RangeError));
});

describe('what is not a bank boleto', () => {
  it.each([
    ['1234', /a typeable line has 47 digits and a barcode 44; this has 4/],
    [`${OURS_LINE}1`, /this has 48/],
    [OURS_LINE.replace('9', 'x'), /holds digits only .* this holds "x"/],
    ['83860000005096000190000008017823000034306271', /utility or tax slip \(arrecadação/],
    ['83860000005-0 09600019000-9 00080178230-9 00034306271-2', /utility or tax slip/],
  ])('%s', (text, message) => expect(() => boletoDigits(text)).toThrow(message));

  it('throws BoletoError', () => expect(() => decodeBoleto('1234', TODAY)).toThrow(BoletoError));
});
