// The charge a location answers, held against its code: amounts compared as written, in whole cents.
import { describe, expect, it } from 'vitest';
import { decodePix } from '../../src/domain/pix-decode.js';
import { checkAmount, checkStatus, checkTxid, decimalCents } from '../../src/domain/pix-location.js';
import { buildPixCode } from '../../src/domain/pix.js';

const fields = (amountCents: number) =>
  decodePix(buildPixCode({ merchantName: 'LOJA', merchantCity: 'CAMPINAS', amountCents, url: 'psp.example/qr/v2/abc' })).fields;
const payload = (original: unknown, extra: Record<string, unknown> = {}) => ({ txid: 'A'.repeat(26), valor: { original }, status: 'ATIVA', ...extra });

describe('decimalCents', () => {
  it.each([['159.90', 15990], ['0.30', 30], ['1000000.01', 100000001], ['0.07', 7]])('%s is %i cents', (text, cents) => expect(decimalCents(text)).toBe(cents));
  it.each(['159.9', '159', '1e2', '-1.00', ' 1.00', '1,00', '12345678901.00'])('%s is not an amount as the API Pix writes it', (text) => expect(decimalCents(text)).toBeNull());
});

describe('the payload against the code', () => {
  it('0.1 + 0.2 reais: the cents that a float would miss are equal', () => expect(checkAmount(fields(30), payload('0.30')).ok).toBe(true));
  it('an amount one cent off is refused, both named', () =>
    expect(checkAmount(fields(15990), payload('159.89'))).toMatchObject({ ok: false, message: "the payload's valor.original 159.89 is not the code's amount 159.90" }));
  it('a valor.original that is a number, not text, is refused', () => expect(checkAmount(fields(15990), payload(159.9)).ok).toBe(false));
  it('a txid the code leaves to the location (***) is the payload\'s', () => expect(checkTxid(fields(100), payload('1.00')).ok).toBe(true));
  it('a payload without txid is refused', () => expect(checkTxid(fields(100), { valor: { original: '1.00' } }).ok).toBe(false));
  it.each([['CONCLUIDA', 'CONCLUIDA: already paid'], ['REMOVIDA_PELO_PSP', 'REMOVIDA_PELO_PSP: removed by the PSP (expired or canceled)'], ['OUTRA', 'OUTRA: not open to payment']])(
    'status %s is refused, named with its meaning', (status, message) => expect(checkStatus({ status })).toEqual({ ok: false, status, message }),
  );
});
