import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { jsonPath, validateCreateRequest } from '../../src/api/validate.js';

type Body = Record<string, unknown> & { payer: Record<string, unknown> };

const NOW = new Date('2026-11-22T00:00:00Z');

const pix = (): Body => ({
  method: 'pix',
  total_price_cents: 1990,
  payer: { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25' },
  items: [{ name: 'Camiseta', quantity: 1, unit_price: 1990 }],
});

const ADDRESS = {
  address_zip: '01310-100',
  address_line: 'Avenida Paulista',
  address_number: '1000',
  address_city: 'São Paulo',
  address_state: 'SP',
};

const boleto = (): Body => {
  const body = pix();
  return { ...body, method: 'boleto', payer: { ...body.payer, ...ADDRESS } };
};

const CARD = {
  number: '4111 1111 1111 1111',
  first_name: 'Fulano',
  last_name: 'de Tal',
  month: '11',
  year: '2026',
  security_code: '123',
  installment: 1,
};

const card = (overrides: Record<string, unknown> = {}): Body => ({ ...pix(), method: 'credit_card', card: { ...CARD, ...overrides } });

const withPayer = (fields: Record<string, unknown>, base: Body = pix()): Body => ({ ...base, payer: { ...base.payer, ...fields } });

const without = (object: Record<string, unknown>, key: string): Record<string, unknown> => {
  const copy = { ...object };
  delete copy[key];
  return copy;
};

function details(body: unknown, now: Date = NOW) {
  const result = validateCreateRequest(body, now);
  return result.ok ? [] : result.details;
}

const paths = (body: unknown, now: Date = NOW) => details(body, now).map((detail) => detail.path);

describe('jsonPath', () => {
  it.each([
    [['items', 0, 'unit_price'], 'items[0].unit_price'],
    [['payer', 'cpf_cnpj'], 'payer.cpf_cnpj'],
    [['items', 12], 'items[12]'],
    [['total_price_cents'], 'total_price_cents'],
    [[0, 'a'], '[0].a'],
    [[], ''],
    [['a', 1, 2, 'b'], 'a[1][2].b'],
  ] as [PropertyKey[], string][])('jsonPath(%j) is %j', (path, expected) => expect(jsonPath(path)).toBe(expected));
});

describe('valid bodies', () => {
  it('accepts the pix body and returns its value', () => {
    const result = validateCreateRequest(pix(), NOW);
    expect(result).toEqual({ ok: true, value: pix() });
  });

  it.each<[string, Body]>([
    ['boleto with the address', boleto()],
    ['boleto with a CEP without hyphen and a lower-case UF', withPayer({ address_zip: '01310100', address_state: 'sp' }, boleto())],
    ['credit card with every field', card()],
    ['credit card with a two-digit year', card({ year: '26' })],
    ['credit card valid through the current month', card({ month: '11', year: '2026' })],
    ['credit card with installment 12', card({ installment: 12 })],
    ['credit card with only a token', { ...pix(), method: 'credit_card', card: { token: 'tok_4f2a9c' } }],
    ['credit card with a token and installments', { ...pix(), method: 'credit_card', card: { token: 'tok_4f2a9c', installment: 3 } }],
    ['a 4-digit security code', card({ number: '378282246310005', security_code: '1234' })],
    ['an empty postback_url', { ...pix(), postback_url: '' }],
    ['an https postback_url', { ...pix(), postback_url: 'https://example.com/hook' }],
    ['an http postback_url', { ...pix(), postback_url: 'http://localhost:8080/hook?x=1' }],
    ['an IPv4 ip_payer', { ...pix(), ip_payer: '192.168.0.1' }],
    ['an IPv6 ip_payer', { ...pix(), ip_payer: '2001:db8::1' }],
    ['the IPv6 loopback', { ...pix(), ip_payer: '::1' }],
    ['an alphanumeric CNPJ payer', withPayer({ cpf_cnpj: '12.ABC.345/01DE-35' })],
    ['a numeric CNPJ payer', withPayer({ cpf_cnpj: '11.222.333/0001-81' })],
    ['a CPF without punctuation', withPayer({ cpf_cnpj: '52998224725' })],
    ['a payer name of 255 characters', withPayer({ name: 'a'.repeat(255) })],
    ['an item name of 255 characters', { ...pix(), items: [{ name: 'b'.repeat(255), quantity: 1, unit_price: 1990 }] }],
    ['100 items', { ...pix(), total_price_cents: 199_000, items: Array.from({ length: 100 }, () => ({ name: 'x', quantity: 1, unit_price: 1990 })) }],
    ['several items whose sum is the total', { ...pix(), total_price_cents: 5 * 300 + 2 * 245, items: [{ name: 'a', quantity: 5, unit_price: 300 }, { name: 'b', quantity: 2, unit_price: 245 }] }],
    ['the maximum total', { ...pix(), total_price_cents: 100_000_000, items: [{ name: 'x', quantity: 1, unit_price: 100_000_000 }] }],
    ['no items (the total is then free)', without(pix(), 'items') as Body],
    ['product_fisical as a boolean', { ...pix(), product_fisical: true }],
  ])('accepts %s', (_label, body) => {
    expect(details(body)).toEqual([]);
    expect(validateCreateRequest(body, NOW).ok).toBe(true);
  });
});

describe('one violation per row', () => {
  const item = (fields: Record<string, unknown>) => ({ ...pix(), items: [{ name: 'Camiseta', quantity: 1, unit_price: 1990, ...fields }] });

  it.each<[string, unknown, string[], RegExp]>([
    ['method not allowed', { ...pix(), method: 'bitcoin' }, ['method'], /must be one of pix, credit_card, boleto/],
    ['method missing', without(pix(), 'method'), ['method'], /^is required$/],
    ['method null', { ...pix(), method: null }, ['method'], /^is required \(null is no value\)$/],
    ['total missing', without(pix(), 'total_price_cents'), ['total_price_cents'], /^is required$/],
    ['total a string', { ...pix(), total_price_cents: '19.90' }, ['total_price_cents'], /must be a whole number from 1 to 100000000/],
    ['method in capitals', { ...pix(), method: 'PIX' }, ['method'], /must be one of/],
    ['total 0', { ...pix(), total_price_cents: 0 }, ['total_price_cents'], /at least 1/],
    ['total negative', { ...pix(), total_price_cents: -1990 }, ['total_price_cents'], /at least 1/],
    // 17 * 5 882 353 = 100 000 001, so only the upper bound is broken
    ['total 100000001', { ...pix(), total_price_cents: 100_000_001, items: [{ name: 'x', quantity: 17, unit_price: 5_882_353 }] }, ['total_price_cents'], /at most 100000000/],
    ['total 10.5', { ...pix(), total_price_cents: 10.5 }, ['total_price_cents'], /whole number/],
    ['total "1990"', { ...pix(), total_price_cents: '1990' }, ['total_price_cents'], /whole number/],
    ['total missing', without(pix(), 'total_price_cents'), ['total_price_cents'], /./],
    ['total not the sum of the items', { ...pix(), total_price_cents: 1991 }, ['total_price_cents'], /must equal the sum .*\(1990\), not 1991/],
    ['total not the sum of several items', { ...pix(), total_price_cents: 1990, items: [{ name: 'a', quantity: 2, unit_price: 1000 }] }, ['total_price_cents'], /\(2000\)/],
    ['items []', { ...pix(), items: [] }, ['items'], /1 to 100 items/],
    ['101 items', { ...pix(), total_price_cents: 1990 * 101, items: Array.from({ length: 101 }, () => ({ name: 'x', quantity: 1, unit_price: 1990 })) }, ['items'], /1 to 100 items/],
    ['items not an array', { ...pix(), items: 'Camiseta' }, ['items'], /array/],
    ['an item that is null', { ...pix(), items: [null] }, ['items[0]'], /object/],
    ['quantity 0', item({ quantity: 0 }), ['items[0].quantity'], /at least 1/],
    ['quantity 1.5', item({ quantity: 1.5 }), ['items[0].quantity'], /whole number/],
    ['quantity 1000001', { ...item({ quantity: 1_000_001, unit_price: 1 }), total_price_cents: 1_000_001 }, ['items[0].quantity'], /at most 1000000/],
    ['unit_price 0', item({ unit_price: 0 }), ['items[0].unit_price'], /at least 1/],
    ['unit_price "1990"', item({ unit_price: '1990' }), ['items[0].unit_price'], /whole number/],
    ['item name missing', { ...pix(), items: [{ quantity: 1, unit_price: 1990 }] }, ['items[0].name'], /is required/],
    ['item name empty', item({ name: '' }), ['items[0].name'], /is required/],
    ['second item broken', { ...pix(), total_price_cents: 3980, items: [{ name: 'a', quantity: 1, unit_price: 1990 }, { name: 'b', quantity: 0, unit_price: 1990 }] }, ['items[1].quantity'], /at least 1/],
    ['payer missing', without(pix(), 'payer'), ['payer'], /is required/],
    ['payer.name missing', { ...pix(), payer: without(pix().payer, 'name') }, ['payer.name'], /is required/],
    ['payer.name empty', withPayer({ name: '' }), ['payer.name'], /is required/],
    ['payer.name of 256 characters', withPayer({ name: 'a'.repeat(256) }), ['payer.name'], /at most 255 characters/],
    ['item name of 256 characters', item({ name: 'b'.repeat(256) }), ['items[0].name'], /at most 255 characters/],
    ['payer.phone of 256 characters', withPayer({ phone: '9'.repeat(256) }), ['payer.phone'], /at most 255 characters/],
    ['payer.email missing', { ...pix(), payer: without(pix().payer, 'email') }, ['payer.email'], /./],
    ['payer.email invalid', withPayer({ email: 'fulano.example.com' }), ['payer.email'], /e-mail/],
    ['payer.email without domain', withPayer({ email: 'fulano@' }), ['payer.email'], /e-mail/],
    ['payer.cpf_cnpj missing', { ...pix(), payer: without(pix().payer, 'cpf_cnpj') }, ['payer.cpf_cnpj'], /is required/],
    ['payer.cpf_cnpj with a wrong check digit', withPayer({ cpf_cnpj: '529.982.247-24' }), ['payer.cpf_cnpj'], /^is not a valid CPF: the check digits do not match$/],
    ['payer.cpf_cnpj CNPJ with a wrong check digit', withPayer({ cpf_cnpj: '12.ABC.345/01DE-36' }), ['payer.cpf_cnpj'], /^is not a valid CNPJ: the check digits do not match$/],
    ['payer.cpf_cnpj of repeated digits', withPayer({ cpf_cnpj: '111.111.111-11' }), ['payer.cpf_cnpj'], /^is not a valid CPF: all its digits are equal/],
    ['payer.cpf_cnpj of zeros', withPayer({ cpf_cnpj: '000.000.000-00' }), ['payer.cpf_cnpj'], /^is not a valid CPF: all its digits are equal/],
    ['payer.cpf_cnpj CNPJ of zeros', withPayer({ cpf_cnpj: '00.000.000/0000-00' }), ['payer.cpf_cnpj'], /^is not a valid CNPJ: all its digits are equal/],
    ['payer.cpf_cnpj of the wrong length', withPayer({ cpf_cnpj: '1234' }), ['payer.cpf_cnpj'], /^is not a CPF \(11 digits\) or a CNPJ \(14 characters\)/],
    ['postback_url ftp://x', { ...pix(), postback_url: 'ftp://x' }, ['postback_url'], /absolute http or https URL/],
    ['postback_url "not a url"', { ...pix(), postback_url: 'not a url' }, ['postback_url'], /absolute http or https URL/],
    ['postback_url relative', { ...pix(), postback_url: '/hook' }, ['postback_url'], /absolute http or https URL/],
    ['postback_url javascript:', { ...pix(), postback_url: 'javascript:alert(1)' }, ['postback_url'], /absolute http or https URL/],
    ['ip_payer 1.2.3', { ...pix(), ip_payer: '1.2.3' }, ['ip_payer'], /IPv4 or IPv6/],
    ['ip_payer 256.1.1.1', { ...pix(), ip_payer: '256.1.1.1' }, ['ip_payer'], /IPv4 or IPv6/],
    ['ip_payer a host name', { ...pix(), ip_payer: 'localhost' }, ['ip_payer'], /IPv4 or IPv6/],
    ['boleto with a bad CEP', withPayer({ address_zip: '1310-100' }, boleto()), ['payer.address_zip'], /CEP of 8 digits/],
    ['boleto with a CEP of 9 digits', withPayer({ address_zip: '01310-1000' }, boleto()), ['payer.address_zip'], /CEP of 8 digits/],
    ['boleto with a CEP of 7 digits', withPayer({ address_zip: '0131010' }, boleto()), ['payer.address_zip'], /CEP of 8 digits/],
    ['boleto with a CEP of letters', withPayer({ address_zip: 'ABCDE-FGH' }, boleto()), ['payer.address_zip'], /CEP of 8 digits/],
    ['boleto with a state of 3 letters', withPayer({ address_state: 'SPX' }, boleto()), ['payer.address_state'], /two-letter state code/],
    ['boleto with a state with a digit', withPayer({ address_state: 'S1' }, boleto()), ['payer.address_state'], /two-letter state code/],
    ['boleto with a blank city', withPayer({ address_city: '   ' }, boleto()), ['payer.address_city'], /required for boleto/],
    ['credit_card without card', { ...pix(), method: 'credit_card' }, ['card'], /required for credit_card/],
    ['card number failing Luhn', card({ number: '4111 1111 1111 1112' }), ['card.number'], /Luhn/],
    ['card number too short', card({ number: '4111' }), ['card.number'], /Luhn/],
    ['card number missing', card({ number: undefined }), ['card.number'], /required for credit_card without a card token/],
    ['security_code missing', card({ security_code: undefined }), ['card.security_code'], /required for credit_card without a card token/],
    ['security_code of 2 digits', card({ security_code: '12' }), ['card.security_code'], /3 or 4 digits/],
    ['security_code with a letter', card({ security_code: '12a' }), ['card.security_code'], /3 or 4 digits/],
    ['first_name missing', card({ first_name: undefined }), ['card.first_name'], /required/],
    ['last_name blank', card({ last_name: ' ' }), ['card.last_name'], /required/],
    ['expired card (last month)', card({ month: '10', year: '2026' }), ['card.year'], /expired/],
    ['expired card (two-digit year)', card({ month: '12', year: '25' }), ['card.year'], /expired/],
    ['month 13', card({ month: '13' }), ['card.month'], /1 to 12/],
    ['month 0', card({ month: '0' }), ['card.month'], /1 to 12/],
    ['year of 3 digits', card({ year: '026' }), ['card.year'], /YY or YYYY/],
    ['installment 13', card({ installment: 13 }), ['card.installment'], /at most 12/],
    ['installment 0', card({ installment: 0 }), ['card.installment'], /at least 1/],
    ['installment 1.5', card({ installment: 1.5 }), ['card.installment'], /whole number/],
    ['token-only card with installment 13', { ...pix(), method: 'credit_card', card: { token: 'tok_1', installment: 13 } }, ['card.installment'], /at most 12/],
  ])('%s', (_label, body, expectedPaths, message) => {
    const found = details(body);
    expect(found.map((detail) => detail.path)).toEqual(expectedPaths);
    for (const detail of found) expect(detail.message).toMatch(message);
    expect(validateCreateRequest(body, NOW).ok).toBe(false);
  });
});

describe('boleto address', () => {
  it('lists every missing address field', () => {
    expect(paths({ ...pix(), method: 'boleto' })).toEqual([
      'payer.address_zip',
      'payer.address_line',
      'payer.address_number',
      'payer.address_city',
      'payer.address_state',
    ]);
  });

  it.each(Object.keys(ADDRESS))('reports %s alone when only it is missing', (field) => {
    const body = boleto();
    expect(paths({ ...body, payer: without(body.payer, field) })).toEqual([`payer.${field}`]);
  });

  it('does not ask pix or credit card payers for an address', () => {
    expect(paths(pix())).toEqual([]);
    expect(paths(card())).toEqual([]);
  });

  it('reports a bad CEP and a bad state together', () => {
    expect(paths(withPayer({ address_zip: '123', address_state: 'São Paulo' }, boleto()))).toEqual(['payer.address_zip', 'payer.address_state']);
  });
});

describe('credit card', () => {
  it('an expiry is judged against the given now', () => {
    const body = card({ month: '11', year: '2026' });
    expect(paths(body, new Date('2026-11-30T23:59:59.999Z'))).toEqual([]);
    expect(paths(body, new Date('2026-12-01T00:00:00.000Z'))).toEqual(['card.year']);
  });

  it('an empty card object lists the six required fields', () => {
    expect(paths({ ...pix(), method: 'credit_card', card: {} })).toEqual([
      'card.number',
      'card.first_name',
      'card.last_name',
      'card.month',
      'card.year',
      'card.security_code',
    ]);
  });

  it('a blank token does not stand for a card', () => {
    expect(paths({ ...pix(), method: 'credit_card', card: { token: '  ' } })).toHaveLength(6);
  });

  it('pix and boleto bodies ignore the card rules', () => {
    expect(paths({ ...pix(), card: {} })).toEqual([]);
  });
});

describe('blank required strings count as missing', () => {
  it.each([
    ['payer.cpf_cnpj', { cpf_cnpj: '   ' }],
    ['payer.name', { name: '   ' }],
  ])('rejects %s made of spaces', (path, patch) => {
    expect(paths(withPayer(patch))).toEqual([path]);
  });

  it('rejects an item name made of spaces', () => {
    expect(paths({ ...pix(), items: [{ name: ' ', quantity: 1, unit_price: 1990 }] })).toEqual(['items[0].name']);
  });

  it('reports a bad card month and a bad card year together', () => {
    const body = { ...pix(), method: 'credit_card', card: { number: '4111111111111111', first_name: 'A', last_name: 'B', month: '13', year: '2x', security_code: '123' } };
    expect(paths(body)).toEqual(['card.month', 'card.year']);
  });

  it('reports a card of the wrong type once', () => {
    expect(paths({ ...pix(), method: 'credit_card', card: null })).toEqual(['card']);
  });
});

describe('several violations', () => {
  it('reports all of them', () => {
    const body = {
      method: 'bitcoin',
      total_price_cents: 0,
      postback_url: 'ftp://x',
      ip_payer: '1.2.3',
      payer: { name: '', email: 'nope', cpf_cnpj: '529.982.247-24' },
      items: [{ quantity: 0, unit_price: 0 }],
    };
    const found = paths(body);
    expect(found).toHaveLength(10);
    expect([...found].sort()).toEqual([
      'ip_payer',
      'items[0].name',
      'items[0].quantity',
      'items[0].unit_price',
      'method',
      'payer.cpf_cnpj',
      'payer.email',
      'payer.name',
      'postback_url',
      'total_price_cents',
    ]);
  });

  it('reports the field rules and the cross-field rules together', () => {
    const body = { ...withPayer({ email: 'x', cpf_cnpj: '000.000.000-01' }, boleto()), total_price_cents: 1000 };
    const b = body as Body;
    b.payer = without(b.payer, 'address_city');
    expect(paths(body)).toEqual(['payer.email', 'total_price_cents', 'payer.cpf_cnpj', 'payer.address_city']);
  });

  it('reports every card problem at once', () => {
    const body = card({ number: '4111', first_name: undefined, security_code: '1', installment: 13 });
    expect([...paths(body)].sort()).toEqual(['card.first_name', 'card.installment', 'card.number', 'card.security_code']);
  });

  it('a total above the maximum is reported once, not also as "not the sum"', () => {
    expect(paths({ ...pix(), total_price_cents: 100_000_001 })).toEqual(['total_price_cents']);
  });
});

describe('a body that is not an object', () => {
  it.each([null, [], 'x', 42, true, undefined])('%j gives one detail at (body)', (body) => {
    const found = details(body);
    expect(found).toHaveLength(1);
    expect(found[0]?.path).toBe('(body)');
    expect(found[0]?.message).toMatch(body === undefined ? /is required/ : /^must be a JSON object, not (null|array|string|number|boolean)$/);
  });
});

describe('properties', () => {
  it('any valid total split into items is accepted', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ quantity: fc.integer({ min: 1, max: 100 }), unit_price: fc.integer({ min: 1, max: 10_000 }) }), { minLength: 1, maxLength: 100 }),
        (lines) => {
          const items = lines.map((line, i) => ({ name: `item ${i}`, ...line }));
          const total = lines.reduce((sum, line) => sum + line.quantity * line.unit_price, 0);
          expect(paths({ ...pix(), total_price_cents: total, items })).toEqual([]);
          expect(paths({ ...pix(), total_price_cents: total + 1, items })).toEqual(['total_price_cents']);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('strings up to 255 characters are accepted and longer ones rejected', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), (length) => {
        const found = paths(withPayer({ name: 'n'.repeat(length) }));
        expect(found).toEqual(length <= 255 ? [] : ['payer.name']);
      }),
      { numRuns: 100 },
    );
  });
});
