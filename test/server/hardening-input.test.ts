// Hostile request bodies: control characters, foreign charsets, bytes that are not UTF-8, compressed
// bodies and deep nesting are refused with the contract's error body, never stored, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, cardCharge, chargeIn, create, SAMPLE_3DS } from '../support/charges.js';
import { request, startTestServer, validPix, type TestServer, sql } from '../support/server.js';

let server: TestServer;
const errors: unknown[] = [];
beforeAll(async () => {
  server = await startTestServer({ logError: (error) => errors.push(error) });
});
afterAll(() => server.close());

const json = { 'content-type': 'application/json' };
const post = (raw: string | Buffer, headers: Record<string, string> = json, path = '/api/v2/invoices') =>
  request(server, 'POST', path, { raw, headers });
const invoiceCount = async () => (await sql<{ n: number }>(server, 'SELECT COUNT(*) AS n FROM invoices'))[0] ?? { n: -1 };

describe('control characters in request strings', () => {
  const payer = validPix().payer;
  it.each([
    ['ESC in the payer name', { payer: { ...payer, name: 'Ana\u001b[2J' } }, 'payer.name', 'U+001B at position 4'],
    ['BEL in an item name', { items: [{ name: 'Bola\u0007', quantity: 1, unit_price: 1990 }] }, 'items[0].name', 'U+0007 at position 5'],
    ['a tab in the e-mail', { payer: { ...payer, email: 'a\t@example.com' } }, 'payer.email', 'U+0009 at position 2'],
    ['a newline in external_id', { external_id: 'order\n42' }, 'external_id', 'U+000A at position 6'],
    ['DEL in the phone', { payer: { ...payer, phone: '\u007f11999998888' } }, 'payer.phone', 'U+007F at position 1'],
    ['C1 CSI in a description', { items: [{ name: 'X', description: 'a\u009b2J', quantity: 1, unit_price: 1990 }] }, 'items[0].description', 'U+009B at position 2'],
    ['a right-to-left override in the name', { payer: { ...payer, name: 'abc\u202Egpj.exe' } }, 'payer.name', 'U+202E at position 4'],
    ['a first-strong isolate in a metadata value', { metadata: { order: '12\u2068' } }, 'metadata.order', 'U+2068 at position 3'],
    ['NUL in a metadata key', { metadata: { 'ord\u0000er': '12' } }, 'metadata', 'U+0000 at position 4 of key 1'],
    ['a tab in the postback URL', { postback_url: 'https://\tmerchant.example.com/' }, 'postback_url', 'U+0009 at position 9'],
    ['ESC in the postback URL', { postback_url: 'https://merchant.example.com/\u001b[2J' }, 'postback_url', 'U+001B at position 30'],
    ['ESC after an astral character', { payer: { ...payer, name: '😀\u001b' } }, 'payer.name', 'U+001B at position 2'],
  ])('refuses %s with 422 naming the path', async (_, overrides, path, where) => {
    const before = (await invoiceCount()).n;
    const reply = await request(server, 'POST', '/api/v2/invoices', { body: validPix(overrides) });
    expect(reply.status).toBe(422);
    expect(reply.body.details).toContainEqual({ path, message: `${path === 'metadata' ? 'keys ' : ''}must not contain control characters (${where})` });
    expect((await invoiceCount()).n).toBe(before);
  });

  it('a metadata key is never echoed raw in a path', async () => {
    const reply = await request(server, 'POST', '/api/v2/invoices', { body: validPix({ metadata: { 'k\u001b': 5 } }) });
    expect(reply.status).toBe(422);
    expect(reply.body.details).toContainEqual({ path: 'metadata.k\\u001b', message: expect.any(String) });
    expect(reply.body.message).not.toContain('\u001b');
    expect(reply.body.details.map((d: { path: string }) => d.path).join()).not.toContain('\u001b');
  });

  it('accepts accents, emoji and other printable characters', async () => {
    const name = 'José Ção Ñandú — 😀 «ok»';
    const record = await create(server, validPix({ payer: { ...payer, name } }));
    expect(record.client.name).toBe(name);
  });

  it('refuses them in the refund reason and in every 3-D Secure value', async () => {
    const paid = await chargeIn(server, 'paid');
    const refund = await request(server, 'POST', `/api/v2/invoices/${paid.id}/refund`, { body: { reason: 'ok\u001b]0;pwned\u0007' } });
    expect(refund.status).toBe(422);
    expect(refund.body.details).toEqual([{ path: 'reason', message: 'must not contain control characters (U+001B at position 3)' }]);
    const waiting = await create(server, cardCharge(CARDS.requires3ds));
    const threeDS = await request(server, 'POST', `/api/v2/invoices/${waiting.id}/3ds`, { body: { ...SAMPLE_3DS, xid: '\u0085x' } });
    expect(threeDS.status).toBe(422);
    expect(threeDS.body.details).toEqual([{ path: 'xid', message: 'must not contain control characters (U+0085 at position 1)' }]);
  });
});

describe('charsets, encodings and UTF-8', () => {
  const body = JSON.stringify(validPix({ payer: { ...validPix().payer, name: 'José' } }));

  it.each(['iso-8859-1', 'latin1', 'windows-1252', 'utf-16'])('answers 415 naming a declared charset %s', async (charset) => {
    const reply = await post(Buffer.from(body, 'latin1'), { 'content-type': `application/json; charset=${charset}` });
    expect(reply.status).toBe(415);
    expect(reply.body).toEqual({ error: 'unsupported_media_type', message: expect.stringContaining(`"${charset}"`) });
  });

  it.each(['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json; charset="utf-8"', 'application/json; charset=utf8'])(
    'accepts UTF-8 declared as %s', async (type) => {
      const reply = await post(body, { 'content-type': type });
      expect(reply.status).toBe(200);
      expect(reply.body.data.client.name).toBe('José');
    },
  );

  it('answers 400 invalid_json for a body that is not UTF-8 (Latin-1 bytes), and stores nothing', async () => {
    const before = (await invoiceCount()).n;
    const reply = await post(Buffer.from(body, 'latin1'));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'invalid_json', message: expect.stringMatching(/not valid UTF-8/) });
    expect((await invoiceCount()).n).toBe(before);
  });

  it.each(['gzip', 'deflate', 'br'])('answers 415 for a %s-encoded body, not invalid_json', async (encoding) => {
    const reply = await post(body, { ...json, 'content-encoding': encoding });
    expect(reply.status).toBe(415);
    expect(reply.body).toEqual({ error: 'unsupported_media_type', message: `Content-Encoding "${encoding}" is not supported; send the body uncompressed.` });
  });
});

describe('nesting depth', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('answers 400 for a body nested 4,000 levels deep, with or without an Idempotency-Key; nothing reaches a 500', async () => {
    for (const headers of [json, { ...json, 'idempotency-key': 'deep-1' }]) {
      const reply = await post(`{"method":"pix","payer":${nested(4000)}}`, headers);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ error: 'invalid_json', message: 'The body nests objects and arrays deeper than 32 levels.' });
    }
    for (const path of ['/api/v2/invoices/1/refund', '/api/v2/invoices/1/3ds']) {
      expect((await post(`{"reason":${nested(4000)}}`, { ...json, 'idempotency-key': 'deep-2' }, path)).status).toBe(400);
    }
    expect(errors).toEqual([]);
  });

  it('accepts 32 levels, and brackets inside strings do not count', async () => {
    const deepest = JSON.stringify(validPix()).replace(/}$/, `,"extra":${nested(31)}}`);
    expect((await post(deepest, { ...json, 'idempotency-key': 'deep-3' })).status).toBe(200);
    expect((await post(deepest.replace('"extra":[', '"extra":[['))).status).toBe(400);
    const inString = JSON.stringify(validPix({ external_id: `[{\\"${'['.repeat(200)}` }));
    expect((await post(inString)).status).toBe(200);
  });
});
