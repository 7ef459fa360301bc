// The summary a merchant confirms before sending a charge: every field of the request as it will go,
// the known ones in the merchant's terms, the unknown ones under their JSON path.
import { describe, expect, it } from 'vitest';
import type { CreateInvoiceRequest } from '../../src/api/schemas.js';
import { CardInput, CreateInvoiceRequest as CreateSchema, Payer, RequestItem } from '../../src/api/schemas.js';
import { createPalette } from '../../src/cli/render/colour.js';
import { renderRequestSummary, requestRows } from '../../src/cli/render/request.js';

const plain = createPalette(false);
const render = (request: unknown) => renderRequestSummary(request as CreateInvoiceRequest, plain, 200);
/** "label: value" per row, for exact checks. */
const rows = (request: unknown) => requestRows(request, plain).map(([label, value]) => `${label}: ${typeof value === 'string' ? value : value.content}`);

const PAYER = { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '52998224725' };
const ADDRESS = { address_zip: '01310100', address_line: 'Avenida Paulista', address_number: '1000', address_complement: 'sala 4', address_neighborhood: 'Bela Vista', address_city: 'São Paulo', address_state: 'SP' };
const FULL = {
  method: 'credit_card',
  total_price_cents: 4480,
  items: [{ name: 'Camiseta', quantity: 2, unit_price: 1990, description: 'azul, M' }, { name: 'Meia', quantity: 1, unit_price: 500 }],
  payer: { ...PAYER, phone: '+5511999998888', ...ADDRESS },
  card: { number: '4111 1111 1111 1111', first_name: 'Fulano', last_name: 'de Tal', month: '3', year: '2027', security_code: '987', installment: 4, cavv: 'AAABBEg0VhI0VniQEjRWAAAAAAA=', eci: '05' },
  postback_url: 'https://shop.example/hook',
  external_id: 'pedido-1042',
  metadata: { order: '1042', channel: 'loja' },
  ip_payer: '203.0.113.7',
  product_fisical: true,
  currency: 'BRL',
  country: 'BR',
};

describe('renderRequestSummary', () => {
  it('shows every field of a full request, in reais and in the merchant\'s terms', () => {
    expect(rows(FULL)).toEqual([
      'method: credit card',
      'amount: R$ 44,80',
      'item: 2 × Camiseta @ R$ 19,90 = R$ 39,80 (azul, M)',
      'item: 1 × Meia @ R$ 5,00 = R$ 5,00',
      'payer: Fulano de Tal',
      'CPF/CNPJ: 529.982.247-25',
      'e-mail: fulano@example.com',
      'phone: +5511999998888',
      'address: Avenida Paulista, 1000, sala 4 · Bela Vista · São Paulo/SP · CEP 01310-100',
      'card: •••• 1111',
      'cardholder: Fulano de Tal',
      'expiry: 03/2027',
      'security code: •••',
      'installments: 4x',
      'postback URL: https://shop.example/hook',
      'external id: pedido-1042',
      'metadata: order = 1042',
      'metadata: channel = loja',
      'payer IP: 203.0.113.7',
      'physical goods: yes',
      'currency: BRL',
      'country: BR',
      'card.cavv: AAABBEg0VhI0VniQEjRWAAAAAAA=',
      'card.eci: 05',
    ]);
  });

  it('never shows the security code or the whole card number', () => {
    const shown = render(FULL);
    expect(shown).not.toContain('987');
    expect(shown.replace(/\s/g, '')).not.toContain('4111111111111111');
  });

  it('lists a field it does not know under its JSON path, at any depth, as JSON unless it is text', () => {
    const request = {
      method: 'pix', total_price_cents: 1990, payer: { ...PAYER, emial: 'typo@example.com' },
      items: [{ name: 'Camiseta', quantity: 1, unit_price: 1990, sku: 'CAM-AZ-M' }],
      postback: 'https://shop.example/hook', card: { extra: { deep: [1, true] } }, flags: {}, none: null,
    };
    expect(rows(request).slice(-7)).toEqual([
      'payer.emial: typo@example.com',
      'items[0].sku: CAM-AZ-M',
      'postback: https://shop.example/hook',
      'card.extra.deep[0]: 1',
      'card.extra.deep[1]: true',
      'flags: {}',
      'none: null',
    ]);
  });

  it('shows a value of the wrong type for a known field as it is, not as if it were right', () => {
    expect(rows({ method: 'pix', total_price_cents: '19,90', payer: PAYER, items: [{ name: 'X', quantity: 1.5, unit_price: 100 }] })).toEqual(expect.arrayContaining([
      'total_price_cents: 19,90',
      'items[0].name: X',
      'items[0].quantity: 1.5',
    ]));
  });

  it('names every field the create schema knows: none is left to chance', () => {
    // A field added to the schema is either presented or listed under its path: never dropped.
    const leaves: [string, Record<string, unknown>][] = [
      ...Object.keys(CreateSchema.shape).filter((key) => !['payer', 'card', 'items', 'metadata'].includes(key)).map((key): [string, Record<string, unknown>] => [key, { [key]: 'x-marker' }]),
      ...Object.keys(Payer.shape).map((key): [string, Record<string, unknown>] => [`payer.${key}`, { payer: { [key]: 'x-marker' } }]),
      ...Object.keys(CardInput.shape).map((key): [string, Record<string, unknown>] => [`card.${key}`, { card: { [key]: 'x-marker' } }]),
      ...Object.keys(RequestItem.shape).map((key): [string, Record<string, unknown>] => [`items[0].${key}`, { items: [{ [key]: 'x-marker' }] }]),
    ];
    const masked = ['card.number', 'card.security_code'];
    for (const [path, request] of leaves) {
      const shown = rows(request);
      expect(shown, path).toHaveLength(1);
      if (!masked.includes(path)) expect(shown[0], path).toContain('x-marker');
    }
  });

  it('says how many installments a card charge gets when none is sent, and what "" as postback URL means', () => {
    expect(rows({ method: 'credit_card', card: { token: 'tok_4f2a' }, postback_url: '' })).toEqual([
      'method: credit card',
      'card token: tok_4f2a',
      "installments: 1x (not sent: the gateway's default)",
      'postback URL: none ("": no postbacks)',
    ]);
  });

  it('shows a boleto address without a complement or neighbourhood on one line', () => {
    const { address_complement: _c, address_neighborhood: _n, ...boleto } = ADDRESS;
    expect(render({ method: 'boleto', total_price_cents: 100, payer: { ...PAYER, ...boleto } })).toContain('Avenida Paulista, 1000 · São Paulo/SP · CEP 01310-100');
  });
});
