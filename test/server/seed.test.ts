// startServer/createApp({ seed }): what `serve --seed` and `startSandbox({ seed })` stand on (both
// engines). The same requests to two servers of one seed answer the same bytes; the clock stands at
// SEEDED_START unless one is given.
import { describe, expect, it } from 'vitest';
import { startServer, type ServeOptions } from '../../src/server/serve.js';
import { boletoCharge, CARDS, cardCharge } from '../support/charges.js';
import { engineDb } from '../support/engine.js';
import { request, startTestServer, validPix } from '../support/server.js';

/** Charges of each method, one paid by the sandbox and one refunded in part: the token and every answer's body. */
async function answers(options: Pick<ServeOptions, 'seed' | 'clock'>): Promise<string[]> {
  // the codes name the location's host and port: fixed, so that port 0 does not differ between runs
  const server = await startServer({ host: '127.0.0.1', port: 0, db: await engineDb(':memory:'), version: 'test', postbacks: false, publicHost: 'sandbox.pinvoice.test', ...options });
  try {
    const token = server.seeded?.token ?? '';
    const out = [token];
    const send = async (method: string, path: string, body?: unknown) => {
      const headers = { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) };
      const text = await (await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) })).text();
      out.push(text);
      return JSON.parse(text);
    };
    const pix = (await send('POST', '/api/v2/invoices', validPix())).data.id;
    const card = (await send('POST', '/api/v2/invoices', cardCharge(CARDS.approved))).data.id;
    await send('POST', '/api/v2/invoices', boletoCharge());
    await send('POST', `/api/v2/sandbox/invoices/${pix}/pay`);
    await send('POST', `/api/v2/invoices/${card}/refund`, { amount_cents: 100 });
    await send('GET', `/api/v2/invoices/${pix}/events`);
    await send('GET', `/api/v2/invoices/${card}/events`);
    await send('GET', '/api/v2/webhooks/secret');
    return out;
  } finally {
    await server.close();
  }
}

describe('createApp({ seed })', () => {
  it('stands its clock at SEEDED_START and draws its ids from the seed, without startServer', async () => {
    const secureIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const server = await startTestServer({ seed: 9 });
      try {
        const created = await request(server, 'POST', '/api/v2/invoices', { body: validPix() });
        expect(created.body.data.createdAt).toBe('2026-01-01T12:00:00.000Z');
        secureIds.push(created.body.data.secureId);
      } finally {
        await server.close();
      }
    }
    expect(secureIds[1]).toBe(secureIds[0]);
  });
});

describe('startServer({ seed })', () => {
  it('two servers of one seed answer the same requests with the same bytes, times standing at SEEDED_START', async () => {
    const first = await answers({ seed: 'unit' });
    expect(first[0]).toMatch(/^pinv_test_\w{40}$/);
    expect(await answers({ seed: 'unit' })).toEqual(first);
    expect(first[1]).toContain('"createdAt":"2026-01-01T12:00:00.000Z"');
    expect(first.join('')).toMatch(/"id":"evt_019b796dd600[0-9a-f]{12}"/); // the event id's time part is SEEDED_START's
    const other = await answers({ seed: 'other' });
    expect(other[0]).not.toBe(first[0]);
    expect(other[1]).not.toBe(first[1]);
  });

  it('a clock given is the clock: the seed draws the ids only', async () => {
    const at = '2029-03-04T05:06:07.089Z';
    const [, created] = await answers({ seed: 'unit', clock: () => new Date(at) });
    expect(created).toContain(`"createdAt":"${at}"`);
    expect(created).toContain('"secureId":"INV-20290304-000001-');
  });
});
