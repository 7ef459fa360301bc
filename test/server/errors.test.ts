import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestServer, validPix, type TestServer, sql } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('401 unauthorized', () => {
  it.each([
    ['no Authorization header', null, undefined, 'Bearer realm="pinvoice"'],
    ['another scheme', null, { authorization: 'Basic dXNlcjpwYXNz' }, 'Bearer realm="pinvoice", error="invalid_token"'],
    ['a wrong token', 'pinv_test_not_a_real_token', undefined, 'Bearer realm="pinvoice", error="invalid_token"'],
    ['an empty bearer', null, { authorization: 'Bearer ' }, 'Bearer realm="pinvoice", error="invalid_token"'],
  ])('answers 401 with WWW-Authenticate for %s', async (_, token, headers, challenge) => {
    for (const [method, path] of [['GET', '/api/v2/invoices?id=1'], ['POST', '/api/v2/invoices'], ['GET', '/api/v2/company']]) {
      const reply = await request(server, method as string, path as string, { token, headers, body: method === 'POST' ? validPix() : undefined });
      expect(reply.status).toBe(401);
      expect(reply.body.error).toBe('unauthorized');
      expect(reply.headers.get('www-authenticate')).toBe(challenge);
    }
  });

  it('checks the token before the body: a bad token with a broken body is still 401', async () => {
    const reply = await request(server, 'POST', '/api/v2/invoices', { token: 'nope-nope-nope', raw: '{oops', headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(401);
  });
});

describe('Pinvoice-Serve', () => {
  it('names the server on every answer of the API, errors included (the CLI asks serve-only resources of it alone)', async () => {
    const created = await request(server, 'POST', '/api/v2/invoices', { body: validPix() });
    const answers = [
      created,
      await request(server, 'GET', `/api/v2/invoices/${created.body.data.id}`),
      await request(server, 'GET', '/api/v2/invoices/999999'),
      await request(server, 'GET', '/api/v2/company', { token: 'pinv_test_not_a_real_token' }),
      await request(server, 'POST', '/api/v2/invoices', { raw: '{oops', headers: { 'content-type': 'application/json' } }),
    ];
    expect(answers.map((reply) => reply.status)).toEqual([200, 200, 404, 401, 400]);
    // (the test server's version is "test")
    for (const reply of answers) expect(reply.headers.get('pinvoice-serve')).toBe('test');
  });
});

describe('400, 413, 415', () => {
  it.each([
    ['malformed JSON', '{"method": "pix",'],
    ['an empty body', ''],
    ['a __proto__ key', '{"__proto__": {"polluted": true}}'],
  ])('answers 400 invalid_json for %s', async (_, raw) => {
    const reply = await request(server, 'POST', '/api/v2/invoices', { raw, headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('invalid_json');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers 413 payload_too_large over 1 MiB', async () => {
    const raw = JSON.stringify({ ...validPix(), filler: 'x'.repeat(1024 * 1024) });
    const reply = await request(server, 'POST', '/api/v2/invoices', { raw, headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(413);
    expect(reply.body.error).toBe('payload_too_large');
  });

  it('accepts a body just under 1 MiB (unknown fields are ignored)', async () => {
    const body = validPix({ filler: 'x'.repeat(1024 * 1024 - 1000) });
    const reply = await request(server, 'POST', '/api/v2/invoices', { body });
    expect(reply.status).toBe(200);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded'])('answers 415 for a %s body', async (type) => {
    const reply = await request(server, 'POST', '/api/v2/invoices', { raw: 'method=pix', headers: { 'content-type': type } });
    expect(reply.status).toBe(415);
    expect(reply.body.error).toBe('unsupported_media_type');
  });

  it('answers 404 not_found for an unknown route and 400 bad_request for a broken URL', async () => {
    expect((await request(server, 'GET', '/api/v1/invoices')).status).toBe(404);
    const broken = await request(server, 'GET', '/api/v2/invoices/%E0%A4%A');
    expect([400, 404]).toContain(broken.status);
  });
});

describe('422 validation_failed', () => {
  it('lists every violated field with its JSON path', async () => {
    const body = {
      method: 'cash',
      total_price_cents: 10.5,
      postback_url: 'ftp://example.com',
      ip_payer: '1.2.3',
      payer: { name: '', email: 'not-an-email', cpf_cnpj: '529.982.247-26' },
      items: [{ name: 'A', quantity: 0, unit_price: 5 }, { quantity: 1, unit_price: -1 }],
    };
    const reply = await request(server, 'POST', '/api/v2/invoices', { body });
    expect(reply.status).toBe(422);
    expect(reply.body.error).toBe('validation_failed');
    const paths = reply.body.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual([
      'ip_payer', 'items[0].quantity', 'items[1].name', 'items[1].unit_price', 'method', 'payer.cpf_cnpj',
      'payer.email', 'payer.name', 'postback_url', 'total_price_cents',
    ]);
  });

  it('rejects a total that is not the sum of the items', async () => {
    const reply = await request(server, 'POST', '/api/v2/invoices', { body: validPix({ total_price_cents: 2000 }) });
    expect(reply.status).toBe(422);
    expect(reply.body.details).toEqual([{ path: 'total_price_cents', message: expect.stringContaining('1990') }]);
  });

  it('names the body itself when it is not an object', async () => {
    for (const body of [[], 'pix', 42, null]) {
      const reply = await request(server, 'POST', '/api/v2/invoices', { raw: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      expect(reply.status).toBe(422);
      expect(reply.body.details[0].path).toBe('(body)');
    }
  });

  it('stores nothing for a rejected request', async () => {
    const [before] = await sql<{ n: number }>(server, 'SELECT COUNT(*) AS n FROM invoices');
    await request(server, 'POST', '/api/v2/invoices', { body: validPix({ total_price_cents: 0 }) });
    const [after] = await sql<{ n: number }>(server, 'SELECT COUNT(*) AS n FROM invoices');
    expect(after?.n).toBe(before?.n);
  });
});

describe('robustness', () => {
  /** A key the server's JSON parser refuses as prototype poisoning, anywhere in the value. */
  const isPoisoned = (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null) return false;
    return Object.entries(value).some(([key, inner]) =>
      key === '__proto__' || (key === 'constructor' && typeof inner === 'object' && inner !== null && 'prototype' in inner) || isPoisoned(inner));
  };

  it('never answers 500 to arbitrary JSON bodies, and keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const reply = await request(server, 'POST', '/api/v2/invoices', { raw: JSON.stringify(value), headers: { 'content-type': 'application/json' } });
        expect([200, 400, 422]).toContain(reply.status);
      }),
      { numRuns: 150 },
    );
    await fc.assert(
      fc.asyncProperty(fc.object({ values: [fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null)] }), async (payer) => {
        const reply = await request(server, 'POST', '/api/v2/invoices', { body: validPix({ payer, card: payer, items: [payer] }) });
        // fast-check sometimes makes a "__proto__" key (or constructor.prototype), at any depth, which the
        // server refuses as invalid JSON (documented)
        const poisoned = isPoisoned(payer);
        expect(reply.status).toBe(poisoned ? 400 : 422);
        if (poisoned) expect(reply.body.error).toBe('invalid_json');
      }),
      // the counterexample a fresh clone met (seed 1204366995), always tried first
      {
        numRuns: 100,
        examples: [[JSON.parse('{"__proto__":{}}') as Record<string, unknown>], [JSON.parse('{"":{"":{"__proto__":null}}}') as Record<string, unknown>]],
      },
    );
    expect((await request(server, 'GET', '/health', { token: null })).status).toBe(200);
  });

  it('never answers 500 to arbitrary ids', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40 }), async (id) => {
        const reply = await request(server, 'GET', `/api/v2/invoices?id=${encodeURIComponent(id)}`);
        // a short numeric id may well name one of this company's invoices
        expect([200, 404, 422]).toContain(reply.status);
      }),
      { numRuns: 150 },
    );
  });
});
