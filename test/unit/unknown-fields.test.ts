// The fields a request schema does not know, found against the real schemas of src/api, what each was
// probably meant to be, and the Pinvoice-Ignored-Fields header that names them.
import { describe, expect, it } from 'vitest';
import { editDistance, suggestField } from '../../src/api/did-you-mean.js';
import { headerPath, IGNORED_FIELDS_MAX_BYTES, ignoredFieldsValue, readIgnoredFields } from '../../src/api/ignored-fields.js';
import { ChaosRequest } from '../../src/api/sandbox.js';
import { CreateInvoiceRequest, RefundRequest, ThreeDSRequest } from '../../src/api/schemas.js';
import { findUnknownFields, ignoredFieldsHeader, unknownFieldDetails, withUnknownFields } from '../../src/api/unknown-fields.js';
import { validateCreateRequest } from '../../src/api/validate.js';

const PIX = {
  method: 'pix',
  total_price_cents: 1990,
  payer: { name: 'Fulano de Tal', email: 'f@example.com', cpf_cnpj: '529.982.247-25' },
  items: [{ name: 'Camiseta', quantity: 1, unit_price: 1990 }],
};
/** Every field a production integration may send, aliases included: none of them is unknown. */
const EVERYTHING = {
  ...PIX,
  product_fisical: true, ip_payer: '203.0.113.7', postback_url: null, external_id: 'pedido-1', currency: 'BRL', country: 'BR',
  metadata: { 'any key at all': 'x', emial: 'y' },
  payer: { ...PIX.payer, phone: '1', address_zip: '1', address_line: '1', address_number: '1', address_complement: null, address_neighborhood: 'Centro', address_city: '1', address_state: 'SP' },
  card: { token: 't', installment: 2, number: '4', first_name: 'a', last_name: 'b', month: '1', year: '30', security_code: '123', cavv: '', xid: '', eci: '', version: '', referenceid: '' },
  items: [{ name: 'a', description: null, quantity: 1, unit_price: 1990 }],
};
const paths = (schema: Parameters<typeof findUnknownFields>[0], body: unknown) => findUnknownFields(schema, body).map((field) => field.path);
const details = (body: unknown) => unknownFieldDetails(findUnknownFields(CreateInvoiceRequest, body));

describe('the unknown fields of a create request', () => {
  it('are none in a request using every field the server accepts, metadata keys included', () => {
    expect(paths(CreateInvoiceRequest, EVERYTHING)).toEqual([]);
    expect(validateCreateRequest({ ...EVERYTHING, card: undefined }).ok).toBe(true);
  });

  it('are found at any depth, in document order: top level, payer, card, items[i]', () => {
    const body = { postback: 'x', ...PIX, payer: { ...PIX.payer, emial: 'x' }, card: { cvv: '1' }, items: [PIX.items[0], { name: 'b', qty: 2, unit_price: 1 }] };
    // (items comes before card: a spread keeps a key where it first was)
    expect(paths(CreateInvoiceRequest, body)).toEqual([['postback'], ['payer', 'emial'], ['items', 1, 'qty'], ['card', 'cvv']]);
  });

  it('are not looked into, and a known field of the wrong type is left to the schema', () => {
    expect(paths(CreateInvoiceRequest, { ...PIX, extra: { deeper: { still: 1 } }, payer: 'Fulano', items: { qty: 1 } })).toEqual([['extra']]);
    expect(paths(CreateInvoiceRequest, [1, 2])).toEqual([]);
    expect(paths(CreateInvoiceRequest, null)).toEqual([]);
  });

  it('stop at the limit asked for', () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`extra_${i}`, i]));
    expect(findUnknownFields(CreateInvoiceRequest, { ...PIX, ...many }, 21)).toHaveLength(21);
  });

  it('come with the names known where they were found, read from the schema', () => {
    const [field] = findUnknownFields(CreateInvoiceRequest, { ...PIX, payer: { ...PIX.payer, emial: 'x' } });
    expect(field?.known).toEqual(Object.keys(CreateInvoiceRequest.shape.payer.shape));
  });

  it('are found for the other bodies too: refund, 3ds, sandbox chaos', () => {
    expect(paths(RefundRequest, { amount_cents: 1, amount: 2 })).toEqual([['amount']]);
    expect(paths(ThreeDSRequest, { cavv: 'a', cavv2: 'b' })).toEqual([['cavv2']]);
    expect(paths(ChaosRequest, { duplicate: true, invoice: 3 })).toEqual([['invoice']]);
  });
});

describe('did you mean', () => {
  it.each([
    ['postback', 'postback_url'], ['postbackUrl', 'postback_url'], ['POSTBACK-URL', 'postback_url'], ['emial', 'email'], ['nmae', 'name'],
    ['qty', 'quantity'], ['unitPrice', 'unit_price'], ['price', 'unit_price'], ['cvv', 'security_code'], ['zip', 'address_zip'],
    ['adress_zip', 'address_zip'], ['neighbourhood', 'address_neighborhood'], ['installments', 'installment'], ['externalRef', 'external_id'],
  ])('%s -> %s', (name, meant) => {
    const everywhere = [...Object.keys(CreateInvoiceRequest.shape), ...Object.keys(CreateInvoiceRequest.shape.payer.shape), 'quantity', 'unit_price', 'description', 'security_code', 'installment', 'month'];
    expect(suggestField(name, everywhere)).toBe(meant);
  });

  it('suggests nothing far off, short, or ambiguous', () => {
    const payer = Object.keys(CreateInvoiceRequest.shape.payer.shape);
    expect(suggestField('banana', payer)).toBeUndefined();
    expect(suggestField('nm', payer)).toBeUndefined(); // 3 letters or fewer: no typo allowed
    expect(suggestField('addr', payer)).toBeUndefined(); // a prefix of several address_* fields
    expect(suggestField('emial', [])).toBeUndefined();
    expect(suggestField('email', ['emaill', 'emails'])).toBeUndefined(); // two at the same distance
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('emial', 'email')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('is told with the whole path, in the CLI\'s JSON path form', () => {
    expect(details({ postback: 'x', ...PIX, payer: { ...PIX.payer, emial: 'x' }, items: [{ qty: 1 }], banana: 1 })).toEqual([
      { path: 'postback', message: 'is not a field of this request; did you mean postback_url?' },
      { path: 'payer.emial', message: 'is not a field of this request; did you mean payer.email?' },
      { path: 'items[0].qty', message: 'is not a field of this request; did you mean items[0].quantity?' },
      { path: 'banana', message: 'is not a field of this request' },
    ]);
  });
});

describe('--allow-unknown-fields', () => {
  it('puts the unknown fields back into the checked request, where they were', () => {
    const raw = { ...PIX, postback: 'x', payer: { ...PIX.payer, name: '  Fulano de Tal  ', emial: 'y' } };
    const checked = validateCreateRequest(raw);
    if (!checked.ok) throw new Error('not valid');
    const sent = withUnknownFields(CreateInvoiceRequest, checked.value, raw) as Record<string, any>;
    expect(sent.postback).toBe('x');
    expect(sent.payer).toEqual({ ...PIX.payer, name: 'Fulano de Tal', emial: 'y' });
    expect(checked.value).not.toHaveProperty('postback'); // the checked value itself is left alone
  });

  it('keeps the order of the fields as they came, so the gateway names them in the file\'s order', () => {
    const raw = { postback: 'x', ...PIX, payer: { emial: 'y', ...PIX.payer } };
    const checked = validateCreateRequest(raw);
    if (!checked.ok) throw new Error('not valid');
    const sent = withUnknownFields(CreateInvoiceRequest, checked.value, raw) as Record<string, any>;
    expect(Object.keys(sent)).toEqual(Object.keys(raw));
    expect(Object.keys(sent.payer)).toEqual(Object.keys(raw.payer));
  });

  it('puts back a key named __proto__ as a key, not as a prototype', () => {
    const raw = JSON.parse(`{"method":"pix","payer":{"__proto__":{"polluted":1}}}`);
    const sent = withUnknownFields(CreateInvoiceRequest, { method: 'pix', payer: {} }, raw) as { payer: Record<string, unknown> };
    expect(Object.keys(sent.payer)).toEqual(['__proto__']);
    expect((sent.payer as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('the Pinvoice-Ignored-Fields header', () => {
  it('names the paths, ", " between them; nothing for none', () => {
    expect(ignoredFieldsHeader(CreateInvoiceRequest, { postback: 'x', ...PIX, payer: { ...PIX.payer, emial: 'x' } })).toBe('postback, payer.emial');
    expect(ignoredFieldsHeader(CreateInvoiceRequest, PIX)).toBeUndefined();
  });

  it('percent-encodes what is not a token character in a key, the dot and % included', () => {
    expect(headerPath(['payer', 'nome do cliente'])).toBe('payer.nome%20do%20cliente');
    expect(headerPath(['a.b', 'c,d', '100%', 'ção', '\n\u202e'])).toBe('a%2Eb.c%2Cd.100%25.%C3%A7%C3%A3o.%0A%E2%80%AE');
    expect(headerPath(['items', 3, "x!#$&'*+-^_`|~"])).toBe("items[3].x!#$&'*+-^_`|~");
    expect(headerPath(['...'])).toBe('%2E%2E%2E');
  });

  it('holds at most 20 paths, then ", ..."', () => {
    const many = Array.from({ length: 30 }, (_, i) => [`f${i}`]);
    const value = ignoredFieldsValue(many) ?? '';
    expect(value.split(', ')).toHaveLength(21);
    expect(value.endsWith(', f19, ...')).toBe(true);
    expect(ignoredFieldsValue(many.slice(0, 20))?.endsWith('f19')).toBe(true);
  });

  it('holds at most 1 KB, visible ASCII only', () => {
    const long = Array.from({ length: 10 }, (_, i) => [`${i}${'é'.repeat(60)}`]);
    const value = ignoredFieldsValue(long) ?? '';
    expect(value.length).toBeLessThanOrEqual(IGNORED_FIELDS_MAX_BYTES);
    expect(value).toMatch(/^[\x20-\x7e]+, \.\.\.$/);
    expect(ignoredFieldsValue([['x'.repeat(2000)]])).toBe('...');
  });

  it('reads back as the list of paths', () => {
    expect(readIgnoredFields('postback, payer.emial, ...')).toEqual(['postback', 'payer.emial', '...']);
    expect(readIgnoredFields(undefined)).toEqual([]);
    expect(readIgnoredFields('')).toEqual([]);
  });
});
