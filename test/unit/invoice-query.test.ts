// The query of Search Transaction as the server reads it: what each parameter becomes, and the
// cursor's round trip. The 422s a person meets are tested over HTTP in test/server/list.test.ts.
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/api/cursor.js';
import { parseInvoiceQuery } from '../../src/api/invoice-query.js';
import { barcodeToDigitableLine, buildBarcode, formatDigitableLine } from '../../src/domain/boleto.js';
import { buildPixCode, locationTxid } from '../../src/domain/pix.js';

const parsed = (query: Record<string, unknown>) => {
  const result = parseInvoiceQuery(query);
  if (!result.ok) throw new Error(JSON.stringify(result.details));
  return result.value;
};

describe('the cursor', () => {
  const position = { created_at: '2026-03-10T12:00:00.000Z', id: 1042 };

  it('gives back the position it was made from', () => {
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  /** The same bytes, another text: the last character's lowest bit is padding, which decoding ignores. */
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const cursor = encodeCursor(position);
  const repadded = cursor.slice(0, -1) + ALPHABET[ALPHABET.indexOf(cursor.at(-1) as string) ^ 1];

  it.each([
    ['another text of the same bytes (its padding bits changed)', repadded],
    ['an altered character', `${encodeCursor(position).slice(0, -1)}x`],
    ['base64 with padding', `${encodeCursor(position)}=`],
    ['characters base64url does not have', 'a+b/c'],
    ['other text, well encoded', Buffer.from('2026-03-10 1042').toString('base64url')],
    ['a time that is no time', Buffer.from('2026-13-10T12:00:00.000Z 1').toString('base64url')],
    ['nothing', ''],
  ])('refuses %s', (_, cursor) => {
    expect(decodeCursor(cursor)).toBeUndefined();
  });
});

describe('parseInvoiceQuery', () => {
  it('lists 50 of everything, newest first, when nothing is given', () => {
    expect(parsed({})).toEqual({ kind: 'list', filter: {}, limit: 50, after: null });
  });

  it('keeps id as given: the lookup trims it, as the path form does', () => {
    expect(parsed({ id: ' INV-1 ' })).toEqual({ kind: 'id', id: ' INV-1 ' });
  });

  it('normalises filters as the create request stores them', () => {
    expect(parsed({ status: 'paid, refunded,paid', payer_document: '529.982.247-25', payer_email: ' Fulano@Example.COM ', external_id: ' order-1 ', amount_min: '0' })).toEqual({
      kind: 'list',
      filter: { statuses: ['paid', 'refunded'], payer_document: '52998224725', payer_email: 'fulano@example.com', external_id: 'order-1', amount_min: 0 },
      limit: 50,
      after: null,
    });
  });

  it.each([
    ['a date: its midnight UTC', '2026-03-10', '2026-03-10T00:00:00.000Z'],
    ['an offset: the same instant in UTC', '2026-03-10T09:00:00-03:00', '2026-03-10T12:00:00.000Z'],
    ['digits beyond the millisecond: rounded up', '2026-03-10T12:00:00.0001Z', '2026-03-10T12:00:00.001Z'],
    ['zeros beyond the millisecond: as they are', '2026-03-10T12:00:00.123000Z', '2026-03-10T12:00:00.123Z'],
  ])('reads created_from given %s', (_, value, stored) => {
    expect(parsed({ created_from: value })).toMatchObject({ filter: { created_from: stored } });
  });

  it('reads the page: limit and cursor', () => {
    const after = { created_at: '2026-03-10T12:00:00.000Z', id: 7 };
    expect(parsed({ limit: '500', cursor: encodeCursor(after) })).toEqual({ kind: 'list', filter: {}, limit: 500, after });
  });

  it('reads a boleto line or barcode as its barcode', () => {
    const barcode = buildBarcode({ bankCode: '001', amountCents: 1990, dueDate: '2026-03-13', freeField: '1'.repeat(25) });
    const search = { kind: 'search', search: { by: 'boleto_line', barcode } };
    expect(parsed({ boleto_line: formatDigitableLine(barcodeToDigitableLine(barcode)) })).toEqual(search);
    expect(parsed({ boleto_line: barcode })).toEqual(search);
  });

  it('reads a pix code without its whitespace, with the txid of its location', () => {
    const code = buildPixCode({ merchantName: 'Loja de Teste', merchantCity: 'Sao Paulo', amountCents: 1990, url: 'pix.example.com/qr/v2/TXID0123456789abcdefghijklmnopqr' });
    expect(parsed({ pix_code: `${code.slice(0, 30)}\n${code.slice(30)}` })).toEqual({
      kind: 'search', search: { by: 'pix_code', code: code.replace(/ /g, ''), txid: 'TXID0123456789abcdefghijklmnopqr' },
    });
  });
});

describe('locationTxid', () => {
  const url = 'pix.example.com/qr/v2/TXID0123456789abcdefghijklmnopqr';
  const dynamic = buildPixCode({ merchantName: 'Loja de Teste', merchantCity: 'Sao Paulo', amountCents: 1990, url });

  it('is the last segment of a dynamic code’s location', () => {
    expect(locationTxid(dynamic)).toBe('TXID0123456789abcdefghijklmnopqr');
  });

  it('reads the code’s head only: spaces lost from the merchant’s name do not matter', () => {
    expect(locationTxid(dynamic.replace(/ /g, ''))).toBe('TXID0123456789abcdefghijklmnopqr');
  });

  it('is null for a static code (a key, no location) and for text that is no code', () => {
    expect(locationTxid(buildPixCode({ merchantName: 'Loja', merchantCity: 'Recife', amountCents: 100, key: 'fulano@example.com' }))).toBeNull();
    expect(locationTxid('hello')).toBeNull();
    expect(locationTxid('000201')).toBeNull();
  });
});
