import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  barcodeToDigitableLine, BoletoError, buildBarcode, digitableLineToBarcode, dueDateFactor, formatDigitableLine, mod10, mod11, sandboxFreeField,
} from '../../src/domain/boleto.js';

// Banco do Brasil example widely published in FEBRABAN layout guides: R$ 1,00, factor 3737.
const BB_BARCODE = '00193373700000001000500940144816060680935031';
const BB_LINE = '00190500954014481606906809350314337370000000100';

describe('boleto', () => {
  it('turns the published Banco do Brasil barcode into its typeable line and back', () => {
    expect(barcodeToDigitableLine(BB_BARCODE)).toBe(BB_LINE);
    expect(digitableLineToBarcode(formatDigitableLine(BB_LINE))).toBe(BB_BARCODE);
    expect(formatDigitableLine(BB_LINE)).toBe('00190.50095 40144.816069 06809.350314 3 37370000000100');
  });

  it('computes the check digits of the published example', () => {
    expect(mod11(BB_BARCODE.slice(0, 4) + BB_BARCODE.slice(5))).toBe(3);
    expect(mod10('001905009')).toBe(5);
    expect(mod10('4014481606')).toBe(9);
    expect(mod10('0680935031')).toBe(4);
  });

  it.each([
    ['2000-07-03', '1000'],
    ['2025-02-21', '9999'],
    ['2025-02-22', '1000'],
    ['2026-11-22', '1638'],
  ])('due date %s has factor %s', (date, factor) => expect(dueDateFactor(date)).toBe(factor));

  it('rejects dates before the first factor and malformed ones', () => {
    expect(() => dueDateFactor('2000-07-02')).toThrow(RangeError);
    expect(() => dueDateFactor('22/11/2026')).toThrow(RangeError);
  });

  it('builds barcodes whose line parses back, carrying the amount and factor', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), fc.integer({ min: 1, max: 99_999 }), (amount, id) => {
      const barcode = buildBarcode({ bankCode: '001', amountCents: amount, dueDate: '2026-11-25', freeField: sandboxFreeField(id, '0001', '123456') });
      expect(barcode).toMatch(/^\d{44}$/);
      expect(barcode.slice(5, 9)).toBe('1641');
      expect(Number(barcode.slice(9, 19))).toBe(amount);
      expect(digitableLineToBarcode(barcodeToDigitableLine(barcode))).toBe(barcode);
    }));
  });

  it('any single changed digit of a line is caught', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 46 }), fc.integer({ min: 1, max: 9 }), (at, delta) => {
      const changed = BB_LINE.slice(0, at) + String((Number(BB_LINE[at]) + delta) % 10) + BB_LINE.slice(at + 1);
      expect(() => digitableLineToBarcode(changed)).toThrow(BoletoError);
    }));
  });
});
