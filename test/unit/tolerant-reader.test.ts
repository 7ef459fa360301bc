// The client reads any gateway's answers: the view it takes from a record, whatever its shape, and
// the renderers that show that view, never throwing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTimeZone } from '../../src/cli/render/time.js';
import { parseTimestamp } from '../../src/base/timestamp.js';
import { createPalette } from '../../src/cli/render/colour.js';
import { renderCompany } from '../../src/cli/render/company.js';
import { amount, dateTime } from '../../src/cli/render/format.js';
import { renderTransaction } from '../../src/cli/render/transaction.js';
import { readCompany } from '../../src/client/read/company.js';
import { toApiError } from '../../src/client/read/error-body.js';
import { isWholeRecord, readTransaction } from '../../src/client/read/transaction.js';
import { cents } from '../../src/client/read/values.js';
import { boletoTransaction, cardTransaction, enterprise, pixTransaction } from '../support/fixtures.js';

const plain = createPalette(false);
useTimeZone('UTC');

describe('timestamps as gateways write them', () => {
  it.each([
    ['2026-11-25T23:38:17Z', '2026-11-25T23:38:17.000Z'],
    ['2026-11-25T23:38:17.4Z', '2026-11-25T23:38:17.400Z'],
    ['2026-11-25T23:38:17.443211Z', '2026-11-25T23:38:17.443Z'],
    ['2026-11-25T23:38:17.443211987Z', '2026-11-25T23:38:17.443Z'],
    ['2026-11-25T20:38:17.443211-03:00', '2026-11-25T23:38:17.443Z'],
    ['2026-11-25T20:38:17-0300', '2026-11-25T23:38:17.000Z'],
    ['2026-11-26T02:38:17+03', '2026-11-25T23:38:17.000Z'],
    ['2026-11-25 23:38:17', '2026-11-25T23:38:17.000Z'],
    ['2026-11-25T23:38', '2026-11-25T23:38:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
  ])('%s is %s', (text, iso) => expect(new Date(parseTimestamp(text)!).toISOString()).toBe(iso));

  it.each(['2026-02-30T00:00:00Z', '2026-11-25T24:00:00Z', '2026-13-01 00:00:00', '2026-11-25', 'yesterday', '2026-11-25T23:38:17.1234567890Z', ''])(
    '%j is not a timestamp', (text) => expect(parseTimestamp(text)).toBeUndefined(),
  );

  it('shows each in UTC, and anything else as given', () => {
    expect(dateTime('2026-11-25 23:38:17')).toBe('2026-11-25 23:38:17 UTC');
    expect(dateTime('2026-11-25T20:38:17.443211-03:00')).toBe('2026-11-25 23:38:17 UTC');
    expect([dateTime('next week'), dateTime(null), dateTime(undefined), dateTime(' ')]).toEqual(['next week', '—', '—', '—']);
  });
});

describe('amounts', () => {
  it.each([
    [1990, 1990], ['1990', 1990], [' 1990 ', 1990], [-500, -500], [0, 0],
    [19.9, { asSent: '19.9' }], ['19,90', { asSent: '19,90' }], ['R$ 19,90', { asSent: 'R$ 19,90' }],
    [null, undefined], [true, undefined], [{ value: 1990 }, undefined], ['', undefined],
  ])('%j is read as %j: whole cents, or as sent, never guessed', (value, expected) => expect(cents(value)).toEqual(expected));

  it('shows what is not whole cents as sent, saying so', () => {
    expect([amount(1990), amount({ asSent: '19.90' }), amount(undefined)]).toEqual(['R$ 19,90', '19.90 (as sent; not whole cents)', '—']);
  });
});

describe('our own records', () => {
  it.each([['pix', pixTransaction], ['card', cardTransaction], ['boleto', boletoTransaction]])('a %s record of ours holds no field the reader does not know', (_name, make) => {
    const tx = make();
    const view = readTransaction(tx);
    expect(view.others).toEqual([]);
    expect(view).toMatchObject({ id: String(tx.id), secureId: tx.secureId, ref: String(tx.id), status: tx.status, method: tx.paymentMethod, amount: tx.amount });
    expect(view.raw).toBe(tx);
  });

  it('so does our company', () => expect(readCompany(enterprise()).others).toEqual([]));
});

describe('production records', () => {
  const production = () => ({
    id: 4242, secureId: 'INV-1-4242', status: 'in_analysis', paymentMethod: 'credit_card', amount: '15990', createdAt: '2026-11-25T23:38:17.443211Z',
    card: { brand: 'visa', first_six: '411111', last_four: '1111', holder_name: 'MARIA SILVA', exp: '12/2030', network_token: 'nt_1' },
    refusedReason: { code: 'X1', message: 'Cartão recusado' },
    customer: { name: 'Maria', document: { number: '52998224725' }, address: null },
    timeline: [{ status: 'pending', created_at: '2026-11-25 23:38:17' }, 'weird'],
    items: [{ name: 'Curso', quantity: '2', price: 995 }],
    antifraud: { score: 12, rules: ['velocity', 'bin'] },
    invoice: { invoice_id: 'INV-1-4242', nsu: '000123' },
  });

  it('takes each value from where production puts it', () => {
    const view = readTransaction(production());
    expect(view).toMatchObject({
      id: '4242', status: 'in_analysis', method: 'credit_card', amount: 15990, refusedReason: 'Cartão recusado',
      card: { brand: 'visa', firstDigits: '411111', lastDigits: '1111', holder: 'MARIA SILVA', validThru: '12/2030' },
      payer: { name: 'Maria', document: '52998224725', documentType: 'cpf' },
      timeline: [{ status: 'pending', at: '2026-11-25 23:38:17' }, { note: 'weird' }],
      items: [{ title: 'Curso', quantity: 2, unitPrice: 995 }],
    });
  });

  it('keeps what it does not know, with its path', () => {
    expect(readTransaction(production()).others).toEqual([
      ['card.network_token', 'nt_1'],
      ['refusedReason.code', 'X1'],
      ['refusedReason.message', 'Cartão recusado'],
      ['timeline[1]', 'weird'],
      ['antifraud.score', '12'],
      ['antifraud.rules[0]', 'velocity'],
      ['antifraud.rules[1]', 'bin'],
      ['invoice.nsu', '000123'],
    ]);
  });

  it('renders it: the unknown status said to be unknown, the rest under Other fields', () => {
    const output = renderTransaction(readTransaction(production()), { palette: plain, width: 120 });
    expect(output).toContain('in_analysis (unknown status)');
    expect(output).toMatch(/Other fields\n[^]*antifraud\.rules\[1\]\s+│ bin/);
    expect(output).toContain('411111 •••• 1111');
  });

  it('tells a whole record from a create answer that only names the charge', () => {
    expect(isWholeRecord(production())).toBe(true);
    expect(isWholeRecord({ invoice_id: 'INV-1', qr_code_pix: '000201…', status: 'pending' })).toBe(false);
    expect(readTransaction({ invoice_id: 'INV-1', qr_code_pix: '000201x', status: 'pending' })).toMatchObject({ secureId: 'INV-1', ref: 'INV-1', pix: { code: '000201x' } });
  });
});

describe('no shape of an answer makes the CLI refuse it', () => {
  /** A fixture changed somewhere: a field dropped, retyped, nulled or added, at any depth. */
  const mutated = (value: unknown) =>
    fc.tuple(fc.nat(), fc.constantFrom('extra', 'drop', 'retype', 'null'), fc.jsonValue()).map(([seed, change, junk]) => {
      const copy = JSON.parse(JSON.stringify(value));
      const objects: Record<string, unknown>[] = [];
      const walk = (node: unknown) => {
        if (node && typeof node === 'object') {
          if (!Array.isArray(node)) objects.push(node as Record<string, unknown>);
          Object.values(node).forEach(walk);
        }
      };
      walk(copy);
      const target = objects[seed % objects.length]!;
      const key = Object.keys(target)[seed % Math.max(Object.keys(target).length, 1)] ?? 'x';
      if (change === 'extra') target[`extra${seed}`] = junk;
      else if (change === 'drop') delete target[key];
      else if (change === 'retype') target[key] = junk;
      else target[key] = null;
      return copy;
    });

  it.each([['pix', pixTransaction], ['card', cardTransaction], ['boleto', boletoTransaction]])('a %s record changed anywhere is still read and rendered', (_name, make) => {
    fc.assert(fc.property(mutated(make()), (value) => {
      expect(typeof renderTransaction(readTransaction(value), { palette: plain, width: 80 })).toBe('string');
    }), { numRuns: 300 });
  });

  it('any JSON value at all is read and rendered, as a charge and as a company', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(typeof renderTransaction(readTransaction(value), { palette: plain, width: 80 })).toBe('string');
      expect(typeof renderCompany(readCompany(value), { palette: plain, width: 80 })).toBe('string');
    }), { numRuns: 300 });
  });
});

describe('error answers of every shape', () => {
  const url = 'https://gw.example/api/v2/invoices';
  it.each([
    ['ours', 422, '{"error":"validation_failed","message":"The request is not valid.","details":[{"path":"payer.cpf_cnpj","message":"is not a valid CPF"}]}',
      'The request is not valid. (HTTP 422 validation_failed)\n  payer.cpf_cnpj: is not a valid CPF'],
    ['Laravel', 422, '{"message":"The given data was invalid.","errors":{"payer.cpf_cnpj":["is required.","must be digits."],"items.0.name":["is required."]}}',
      'The given data was invalid. (HTTP 422)\n  payer.cpf_cnpj: is required.\n  payer.cpf_cnpj: must be digits.\n  items.0.name: is required.'],
    ['{message}', 409, '{"message":"Transaction already refunded."}', 'Transaction already refunded. (HTTP 409)'],
    ['{error: sentence}', 400, '{"error":"Invalid token format"}', 'Invalid token format (HTTP 400)'],
    ['{error: code}', 404, '{"error":"not_found"}', 'HTTP 404 Not Found from https://gw.example: not_found'],
    ['{error: {message, code}}', 400, '{"error":{"message":"Card expired.","code":"card_expired"}}', 'Card expired. (HTTP 400 card_expired)'],
    ['an HTML page', 502, '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 'HTTP 502 Bad Gateway from https://gw.example'],
    ['an empty body', 503, '', 'HTTP 503 Service Unavailable from https://gw.example'],
    ['JSON of no known shape', 500, '[1,2,3]', 'HTTP 500 Internal Server Error from https://gw.example'],
  ])('%s', (_name, status, body, expected) => {
    const texts: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found', 409: 'Conflict', 422: 'Unprocessable Content', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };
    const error = toApiError(status, texts[status]!, body, url);
    expect(error.describe()).toBe(expected);
    expect(error.status).toBe(status);
  });

  it('cuts a message that is a whole page', () => {
    expect(toApiError(500, '', JSON.stringify({ message: 'x'.repeat(5000) }), url).message).toHaveLength(501);
  });
});
