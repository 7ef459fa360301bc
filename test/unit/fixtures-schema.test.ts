// The fixtures file's format: the JSON Schema shipped in schemas/ is the one the validator's zod schemas
// make (run this test with -u after changing them), the example file passes both, and a bad file is
// refused whole, each problem named by its JSON path.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FixturesError, fixturesJsonSchema, readFixtures } from '../../src/server/fixtures.js';
import { suggestState } from '../../src/server/fixtures/schema.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const example = JSON.parse(readFileSync(new URL('../../examples/fixtures.json', import.meta.url), 'utf8'));
const NOW = new Date('2026-06-01T12:00:00.000Z');

/** The details of the FixturesError a file is refused with, as "path: message" lines. */
function refusal(file: unknown): string[] {
  try {
    readFixtures(file, NOW);
  } catch (error) {
    if (error instanceof FixturesError) return error.details.map((d) => `${d.path}: ${d.message}`);
    throw error;
  }
  throw new Error('the file was accepted');
}

const pix = (extra: Record<string, unknown> = {}) => ({ external_id: 'a', state: 'paid', method: 'pix', amount: 1000, ...extra });

describe('fixtures file', () => {
  it('schemas/fixtures.schema.json is generated from the zod schemas (run this test with -u after changing them)', async () => {
    await expect(`${JSON.stringify(fixturesJsonSchema(), null, 2)}\n`).toMatchFileSnapshot('../../schemas/fixtures.schema.json');
  });

  it('examples/fixtures.json passes the shipped JSON Schema and the validator, and puts a charge in every state', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const shipped = JSON.parse(readFileSync(new URL('../../schemas/fixtures.schema.json', import.meta.url), 'utf8'));
    expect(ajv.validate(shipped, example), JSON.stringify(ajv.errors)).toBe(true);
    const fixtures = readFixtures(example, NOW);
    expect(new Set(fixtures.charges.map((c) => c.state))).toEqual(new Set(['pending', 'paid', 'partially_refunded', 'refunded', 'expired', 'canceled', 'waiting_3ds', 'refused', 'chargedback']));
  });

  it('names a misspelt state and the state meant', () => {
    expect(refusal({ charges: [pix(), pix({ external_id: 'b' }), pix({ external_id: 'c' }), pix({ external_id: 'd', state: 'payed' })] })).toEqual(['charges[3].state: "payed" is not a state; did you mean paid?']);
    expect(suggestState('cancelled')).toBe('canceled');
    expect(suggestState('partialy_refunded')).toBe('partially_refunded');
    expect(suggestState('zzz')).toBeUndefined();
  });

  it('takes names of Object.prototype for the words they are ("constructor"), not for what they hold', () => {
    expect(refusal({ charges: [pix({ state: 'constructor', constructor: 1 })] })).toEqual([
      'charges[0].constructor: is not a field of a fixtures file',
      'charges[0].state: "constructor" is not a state; one of pending, paid, partially_refunded, refunded, expired, canceled, waiting_3ds, refused, chargedback',
    ]);
  });

  it('names every bad path of a file at once, unknown fields with the field probably meant', () => {
    const file = {
      companies: [{ token: 'short', webhok_secret: 'whsec_0123456789abcdef', cnpj: '11.222.333/0001-80' }],
      charges: [
        pix({ amont: 5 }),
        { external_id: 'b', state: 'refused', method: 'pix', amount: 1000 },
        { state: 'paid', company: 'shop', request: { method: 'pix', total_price_cents: 0, payer: { name: 'X', email: 'x@example.com', cpf_cnpj: '123' } } },
        { external_id: 'c', state: 'refunded', method: 'boleto', amount: 1000, payer: { name: 'X', email: 'x@example.com', cpf_cnpj: '52998224725' }, refunds: [{ amount_cents: 400 }] },
      ],
      extra: true,
    };
    expect(refusal(file)).toEqual([
      'extra: is not a field of a fixtures file',
      'companies[0].webhok_secret: is not a field of a fixtures file; did you mean companies[0].webhook_secret?',
      'companies[0].token: must be at least 16 printable characters without spaces',
      'companies[0].cnpj: is not a valid CNPJ: the check digits do not match',
      'charges[0].amont: is not a field of a fixtures file; did you mean charges[0].amount?',
      'charges[1].state: a pix charge is never refused: waiting_3ds and refused are for credit_card',
      'charges[2].request.total_price_cents: must be at least 1',
      'charges[3].payer.address_zip: is required for boleto',
      'charges[3].payer.address_line: is required for boleto',
      'charges[3].payer.address_number: is required for boleto',
      'charges[3].payer.address_city: is required for boleto',
      'charges[3].payer.address_state: is required for boleto',
    ]);
  });

  it('refuses what no operation leads to: a card refused at creation made paid, refunds beyond the amount, one external_id twice', () => {
    const refused = { number: '4000000000000002', first_name: 'A', last_name: 'B', month: '12', year: '2031', security_code: '123' };
    expect(refusal({ charges: [{ external_id: 'a', state: 'paid', method: 'credit_card', amount: 1000, card: refused }] }))
      .toEqual(['charges[0].card: is refused at creation, so the charge cannot become paid; leave the card out for a test card that leads there']);
    expect(refusal({ charges: [pix({ state: 'partially_refunded', refunds: [{ amount_cents: 600 }, { amount_cents: 600 }] })] }))
      .toEqual(['charges[0].refunds[1].amount_cents: must be at most 400 (R$ 4,00 left to refund)']);
    expect(refusal({ charges: [pix({ state: 'refunded', refunds: [{ amount_cents: 600 }] })] }))
      .toEqual(['charges[0].refunds: refund R$ 6,00 of R$ 10,00, but a refunded charge is refunded in full (leave amount_cents out of the last refund for the rest)']);
    expect(refusal({ charges: [pix({ state: 'pending', refunds: [{}] })] }))
      .toEqual(['charges[0].refunds: only a partially_refunded, refunded or chargedback charge has refunds, not a pending one']);
    expect(refusal({ charges: [pix(), pix()] })).toEqual(['charges[1].external_id: "a" is the external_id of charges[0] too, in the same company: it names one charge']);
    expect(refusal({ charges: [{ state: 'paid', request: { method: 'pix', total_price_cents: 100, payer: { name: 'X', email: 'x@example.com', cpf_cnpj: '52998224725' } } }] }))
      .toEqual(['charges[0].request.external_id: is required in a fixture: it names the charge, and a second start skips a charge whose external_id its company has']);
  });

  it('names a company a charge gives that the file does not have, and a token given twice', () => {
    const token = 'pinv_test_fixture_0000000000000';
    expect(refusal({ companies: [{ key: 'shop', token }, { key: 'other', token }], charges: [pix({ company: 'shpo' })] })).toEqual([
      'companies[1].token: is the token of companies[0] too: each company needs its own',
      'charges[0].company: "shpo" is not the key of a company of this file; did you mean shop?',
    ]);
  });

  it('refuses text that is not JSON, and JSON that is not an object', () => {
    expect(refusal('{"charges": [')[0]).toMatch(/^\(file\): is not valid JSON: /);
    expect(refusal([])).toEqual(['(file): must be a JSON object: { "companies": [...], "charges": [...] }']);
  });
});
