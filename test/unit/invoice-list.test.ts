// invoice list: its flags as the listing's query, named by flag when wrong; CSV a spreadsheet reads safely.
import { describe, expect, it } from 'vitest';
import { csvField, csvRow, CSV_HEADER } from '../../src/cli/render/charge-list.js';
import { useTimeZone } from '../../src/cli/render/time.js';
import { readTransaction } from '../../src/client/read/transaction.js';
import { listQuery } from '../../src/commands/invoice/list-query.js';
import { pixTransaction } from '../support/fixtures.js';

describe('the flags as a query', () => {
  it('maps each flag, in reais and the user\'s own dates', () => {
    useTimeZone('America/Sao_Paulo');
    expect(listQuery({ status: 'paid, refunded', method: 'pix', payer: '529.982.247-25', externalId: 'pedido-1', since: '2026-11-01', until: '2026-11-30T12:00:00-03:00', min: '10,00', max: '99.90' })).toEqual({
      status: 'paid,refunded', method: 'pix', payer_document: '52998224725', external_id: 'pedido-1',
      created_from: '2026-11-01T03:00:00.000Z', created_to: '2026-11-30T15:00:00.000Z', amount_min: '1000', amount_max: '9990',
    });
    expect(listQuery({ payer: 'Maria@Example.com' })).toEqual({ payer_email: 'Maria@Example.com' });
  });

  it.each([
    [{ status: 'payed' }, '--status: "payed" is not one of pending'],
    [{ method: 'cash' }, '--method: "cash" is not one of pix, credit_card, boleto'],
    [{ payer: '123.456.789-00' }, '--payer: "123.456.789-00" is neither an e-mail nor a valid CPF or CNPJ'],
    [{ since: 'yesterday' }, '--since: "yesterday" is not a date'],
    [{ until: '2026-11-25T10:00:00' }, '--until: "2026-11-25T10:00:00" is not a date'],
    [{ min: '10,5,0' }, '--min:'],
    [{ since: '2026-11-30', until: '2026-11-01' }, '--since must be before --until'],
    [{ min: '50', max: '10' }, '--min must not be more than --max'],
  ])('%j is refused naming its flag', (flags, message) => expect(() => listQuery(flags)).toThrow(message));
});

describe('CSV', () => {
  it('quotes what needs quoting, and keeps a spreadsheet from running a formula', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"\nbye')).toBe('"say ""hi""\nbye"');
    expect(['=1+1', '+55 11', '-3', '@SUM(A1)'].map(csvField)).toEqual(["'=1+1", "'+55 11", "'-3", "'@SUM(A1)"]);
  });

  it('a row per charge: amounts in reais with a dot, ISO times as the API wrote them', () => {
    const tx = pixTransaction();
    const cells = csvRow(readTransaction(tx)).split(',');
    expect(cells).toHaveLength(CSV_HEADER.length);
    expect(Object.fromEntries(CSV_HEADER.map((name, i) => [name, cells[i]]))).toMatchObject({
      id: String(tx.id), secure_id: tx.secureId, created_at: tx.createdAt, status: tx.status, amount_brl: (tx.amount / 100).toFixed(2), refunded_brl: '0.00',
    });
  });
});
