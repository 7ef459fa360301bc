// Tokens per person: named, some read-only; every change records the token that made it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, cardCharge, refund, sandbox, threeDS } from '../support/charges.js';
import { request, startTestServer, validPix, type TestServer } from '../support/server.js';

let server: TestServer;
const ALICE = 'pinv_test_alice_token_0123456789';
const SUPPORT = 'pinv_test_support_token_0123456789';
const REVOKED = 'pinv_test_revoked_token_0123456789';

beforeAll(async () => {
  server = await startTestServer({ pixExpirySeconds: 30, expiryCheckMs: 0 });
  const now = new Date().toISOString();
  await server.store.transaction(async (tx) => {
    await tx.companies.addToken(1, ALICE, now, { name: 'alice' });
    await tx.companies.addToken(1, SUPPORT, now, { name: 'support', readOnly: true });
    const gone = await tx.companies.addToken(1, REVOKED, now, { name: 'gone' });
    await tx.companies.revokeToken(1, gone.id, now);
  });
});
afterAll(() => server.close());

const create = async (token: string, body: unknown = validPix({ postback_url: '' })) => request(server, 'POST', '/api/v2/invoices', { body, token });

describe('named tokens', () => {
  it('each change names the token whose request made it; what the server does by itself names none', async () => {
    const made = (await create(ALICE)).body.data;
    const paid = await request(server, 'POST', `/api/v2/sandbox/invoices/${made.id}/pay`);
    expect(paid.status).toBe(200);
    const after = (await refund(server, made.id, { amount_cents: 100 })).body;
    expect(after.timeline.map((t: any) => [t.status, t.by])).toEqual([['pending', 'alice'], ['paid', 'token-1'], ['paid', 'token-1']]);
    const left = (await create(ALICE)).body.data;
    // past its expiry by the sandbox clock, not by sleeping: a loaded machine cannot make the first charge expire before it is paid
    expect((await request(server, 'POST', '/api/v2/sandbox/clock/advance', { body: { seconds: 31 } })).status).toBe(200);
    const expired = (await request(server, 'GET', `/api/v2/invoices/${left.id}`, { token: SUPPORT })).body;
    expect(expired.timeline.map((t: any) => [t.status, t.by])).toEqual([['pending', 'alice'], ['expired', null]]);
    expect((await request(server, 'DELETE', '/api/v2/sandbox/clock')).status).toBe(200);
  });

  it('a revoked token is refused like an unknown one', async () => {
    const answer = await request(server, 'GET', '/api/v2/company', { token: REVOKED });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('unauthorized');
  });

  it('a second token of one name is refused by the store', async () => {
    await expect(server.store.transaction((tx) => tx.companies.addToken(1, 'pinv_test_alice_again_0123456789', new Date().toISOString(), { name: 'alice' }))).rejects.toThrow('already has a token named "alice"');
  });
});

describe('read-only tokens', () => {
  it('look up charges, their events and the company', async () => {
    const made = (await create(ALICE)).body.data;
    for (const path of [`/api/v2/invoices/${made.id}`, `/api/v2/invoices?id=${made.secureId}`, `/api/v2/invoices/${made.id}/events`, '/api/v2/company']) {
      expect((await request(server, 'GET', path, { token: SUPPORT })).status, path).toBe(200);
    }
  });

  it('are refused, 403 forbidden in the contract error body, everything that changes a charge or reveals the webhook secret', async () => {
    const made = (await create(ALICE)).body.data;
    const card = (await create(ALICE, cardCharge(CARDS.requires3ds, { postback_url: '' }))).body.data;
    const event = (await request(server, 'GET', `/api/v2/invoices/${made.id}/events`)).body.data[0].id;
    const attempts: [string, string, unknown][] = [
      ['POST', '/api/v2/invoices', validPix()],
      ['POST', `/api/v2/invoices/${made.id}/refund`, {}],
      ['POST', `/api/v2/invoices/${card.id}/3ds`, {}],
      ['POST', `/api/v2/sandbox/invoices/${made.id}/pay`, undefined],
      ['POST', `/api/v2/sandbox/invoices/${made.id}/cancel`, undefined],
      ['POST', `/api/v2/events/${event}/resend`, undefined],
      ['GET', '/api/v2/webhooks/secret', undefined],
    ];
    for (const [method, path, body] of attempts) {
      const answer = await request(server, method, path, { token: SUPPORT, ...(body !== undefined && { body }) });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body).toEqual({ error: 'forbidden', message: expect.stringMatching(/^This token is read-only: .+ is not open to it/) });
    }
    // nothing changed
    expect((await request(server, 'GET', `/api/v2/invoices/${made.id}`)).body.status).toBe('pending');
    expect((await threeDS(server, card.id)).status).toBe(200);
    expect((await sandbox(server, made.id, 'pay')).status).toBe(200);
  });
});
