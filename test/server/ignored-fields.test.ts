// A request with fields the server does not know is accepted as before (production integrations send
// them), the fields are not kept, and the answer names them in Pinvoice-Ignored-Fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, cardCharge, chargeIn, refund, SAMPLE_3DS, threeDS } from '../support/charges.js';
import { request, startTestServer, validPix, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const MARK = 'ignored-value-4f1c9a';
const HEADER = 'pinvoice-ignored-fields';
const createWith = (body: unknown, headers: Record<string, string> = {}) => request(server, 'POST', '/api/v2/invoices', { body, headers });
/** A create body with unknown fields at the top, in payer and in an item, in this document order. */
const misspelt = () => {
  const base = validPix();
  return { postback: `https://merchant.example.com/${MARK}`, ...base, payer: { ...base.payer, emial: MARK }, items: [{ ...base.items[0], qty: MARK }] };
};

describe('Pinvoice-Ignored-Fields', () => {
  it('a create with unknown fields answers 200 as before, naming them in document order; they are not kept', async () => {
    const reply = await createWith(misspelt());
    expect(reply.status).toBe(200);
    expect(reply.headers.get(HEADER)).toBe('postback, payer.emial, items[0].qty');
    const stored = await request(server, 'GET', `/api/v2/invoices/${reply.body.data.id}`);
    expect(JSON.stringify(stored.body)).not.toContain(MARK);
    expect(JSON.stringify(reply.body)).not.toContain(MARK);
    expect(stored.body.postbackUrl).toBe('https://merchant.example.com/postbacks');
  });

  it('is absent when every field is known, aliases and metadata keys included', async () => {
    const body = validPix({ postback_url: null, external_id: 'pedido-1', currency: 'BRL', country: 'BR', metadata: { emial: 'x', 'free key': 'y' } });
    const reply = await createWith({ ...body, payer: { ...body.payer, address_neighborhood: 'Centro' } });
    expect(reply.status).toBe(200);
    expect(reply.headers.has(HEADER)).toBe(false);
  });

  it('is absent from a refusal: nothing was ignored, the request was not taken (422)', async () => {
    const { payer, ...noPayer } = misspelt();
    const reply = await createWith({ ...noPayer, payer: { emial: payer.emial } });
    expect(reply.status).toBe(422);
    expect(reply.headers.has(HEADER)).toBe(false);
  });

  it('holds at most 20 paths, then ", ..."', async () => {
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`extra_${i}`, i]));
    const reply = await createWith({ ...validPix(), ...many });
    expect(reply.status).toBe(200);
    const value = reply.headers.get(HEADER) ?? '';
    expect(value.split(', ')).toEqual([...Array.from({ length: 20 }, (_, i) => `extra_${i}`), '...']);
  });

  it('holds at most 1 KB, and a key from the body is percent-encoded into visible ASCII', async () => {
    const long = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`${i}:${'ç'.repeat(40)}`, 1]));
    const reply = await createWith({ ...validPix(), 'nome do\tcliente, é.x': 1, ...long });
    expect(reply.status).toBe(200);
    const value = reply.headers.get(HEADER) ?? '';
    expect(value.startsWith('nome%20do%09cliente%2C%20%C3%A9%2Ex, 0%3A%C3%A7')).toBe(true);
    expect(value.length).toBeLessThanOrEqual(1024);
    expect(value).toMatch(/^[\x21-\x7e ]+, \.\.\.$/);
  });

  it('is answered again with an idempotent replay', async () => {
    const headers = { 'idempotency-key': `ignored-${Date.now()}` };
    const first = await createWith(misspelt(), headers);
    const again = await createWith(misspelt(), headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(first.headers.get(HEADER)).toBe('postback, payer.emial, items[0].qty');
    expect(again.headers.get(HEADER)).toBe(first.headers.get(HEADER));
  });

  it('names the unknown fields of a refund and of a 3ds body too', async () => {
    const paid = await chargeIn(server, 'paid');
    const refunded = await refund(server, paid.id, { amount_cents: 100, amount: 5, reason: 'x' });
    expect(refunded.status).toBe(200);
    expect(refunded.headers.get(HEADER)).toBe('amount');
    expect((await refund(server, paid.id, { amount_cents: 100 })).headers.has(HEADER)).toBe(false);

    const waiting = (await createWith(cardCharge(CARDS.requires3ds))).body.data;
    expect(waiting.status).toBe('waiting_3ds');
    const done = await threeDS(server, waiting.id, { ...SAMPLE_3DS, cavv2: 'x' });
    expect(done.status).toBe(200);
    expect(done.headers.get(HEADER)).toBe('cavv2');
  });

  it('names the unknown fields of a sandbox control body', async () => {
    const reply = await request(server, 'PUT', '/api/v2/sandbox/chaos', { body: { duplicate: false, dupliacte: true } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get(HEADER)).toBe('dupliacte');
    await request(server, 'DELETE', '/api/v2/sandbox/chaos');
  });

  it('is documented on the answer of every operation that reads a body', async () => {
    const doc = (await request(server, 'GET', '/openapi.json')).body;
    for (const [path, method] of [['/api/v2/invoices', 'post'], ['/api/v2/invoices/{id}/refund', 'post'], ['/api/v2/invoices/{id}/3ds', 'post'], ['/api/v2/sandbox/chaos', 'put']] as const) {
      expect(doc.paths[path][method].responses['200'].headers['Pinvoice-Ignored-Fields'].description).toMatch(/percent-encoded/);
    }
    // a GET reads no body: its answer names only the server (Pinvoice-Serve, as every answer does)
    expect(Object.keys(doc.paths['/api/v2/invoices/{id}'].get.responses['200'].headers)).toEqual(['Pinvoice-Serve']);
  });
});
