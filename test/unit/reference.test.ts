import { describe, expect, it } from 'vitest';
import { buildBarcode, barcodeToDigitableLine, formatDigitableLine } from '../../src/domain/boleto.js';
import { buildPixCode } from '../../src/domain/pix.js';
import { classifyReference, pixCandidates } from '../../src/domain/reference.js';

const pix = buildPixCode({ merchantName: 'Loja', merchantCity: 'Sao Paulo', amountCents: 1990, url: 'pix.example.com/qr/v2/abcDEF1234567890abcdef123456' });
const barcode = buildBarcode({ bankCode: '001', dueDate: '2026-12-01', amountCents: 4990, freeField: '0'.repeat(25) });
const line = barcodeToDigitableLine(barcode);

describe('what a support agent was given', () => {
  it.each([
    ['42', { kind: 'id', value: '42' }],
    [' 42 ', { kind: 'id', value: '42' }],
    ['INV-20261126-000009-9219', { kind: 'secureId', value: 'INV-20261126-000009-9219' }],
    ['pedido-1042', { kind: 'external', value: 'pedido-1042' }],
    ['http://127.0.0.1:4010/checkout/AbCdEf0123456789AbCdEf0123456789', { kind: 'checkout', value: 'AbCdEf0123456789AbCdEf0123456789' }],
    ['AbCdEf0123456789AbCdEf0123456789', { kind: 'checkout', value: 'AbCdEf0123456789AbCdEf0123456789' }],
    ['https://shop.example/orders/77', { kind: 'external', value: 'https://shop.example/orders/77' }],
    [line, { kind: 'boleto', value: line, form: 'line' }],
    [formatDigitableLine(line), { kind: 'boleto', value: line, form: 'line' }],
    [barcode, { kind: 'boleto', value: barcode, form: 'barcode' }],
  ])('%j is %j', (text, expected) => expect(classifyReference(text)).toEqual(expected));

  it('a pix code, also pasted across lines, with its location and no txid (***)', () => {
    const wrapped = `${pix.slice(0, 40)}\n${pix.slice(40, 90)} ${pix.slice(90)}`;
    expect(classifyReference(wrapped)).toEqual({ kind: 'pix', value: pix, txid: null, location: 'pix.example.com/qr/v2/abcDEF1234567890abcdef123456' });
  });

  it('the ids a pix code holds, for a gateway without search: an INV- id, the txid, the location\'s last segment', () => {
    const reference = classifyReference(pix);
    expect(reference.kind === 'pix' && pixCandidates(reference)).toEqual(['abcDEF1234567890abcdef123456']);
    expect(pixCandidates({ kind: 'pix', value: '000201…INV-20261126-000009-9219…', txid: 'TX123', location: null })).toEqual(['INV-20261126-000009-9219', 'TX123']);
  });
});
