// Token-keyed signatures: a company may key its postbacks' X-Webhook-Signature with one of its API
// tokens, as handlers written for production verify it with their API key. Each delivery is checked
// here with an HMAC computed by the test (node:crypto), never with the server's own signing code.
import { createHmac } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { addCompany } from '../../src/server/seed.js';
import { create, sandbox } from '../support/charges.js';
import { startReceiver, type Received, type Receiver } from '../support/receiver.js';
import { request, sql, startTestServer, validPix, type TestServer } from '../support/server.js';

const FAST = { attempts: 2, baseDelayMs: 40, timeoutMs: 2000 };
const BOB = 'pinv_test_bob_signs_postbacks_0123456789';
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

interface Setup {
  s: TestServer;
  r: Receiver;
  secret: string;
  logged: unknown[];
}

async function setup(): Promise<Setup> {
  const logged: unknown[] = [];
  const s = await startTestServer({ postbacks: FAST, logError: (error) => logged.push(error) });
  open.push(s);
  const r = await startReceiver();
  open.unshift(r);
  const secret = (await request(s, 'GET', '/api/v2/webhooks/secret')).body.webhook_secret as string;
  return { s, r, secret, logged };
}

const hmac = (key: string, body: string) => createHmac('sha256', key).update(body).digest('hex');
const signWith = (s: TestServer, key: string, token?: string) => request(s, 'PUT', '/api/v2/sandbox/webhook-signing', { body: { key }, ...(token && { token }) });

/** The next postback's X-Webhook-Signature: which of the keys given made it (undefined: none). */
async function keyOf(s: TestServer, r: Receiver, keys: Record<string, string>): Promise<{ key: string | undefined; got: Received }> {
  const before = r.received.length;
  await create(s, validPix({ postback_url: r.url }));
  const got = (await r.waitFor(before + 1))[before] as Received;
  const signature = got.headers['x-webhook-signature'];
  return { key: Object.keys(keys).find((name) => hmac(keys[name] as string, got.body) === signature), got };
}

/** Pinvoice-Signature's v1, recomputed over "t.body" with the key. */
const timestampedMatches = (got: Received, key: string) => {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got.headers['pinvoice-signature'])) ?? [];
  return v1 !== undefined && hmac(key, `${t}.${got.body}`) === v1;
};

describe('X-Webhook-Signature keyed with the API token', () => {
  it('signs with the token the switch was sent with, not the secret; Pinvoice-Signature stays on the secret', async () => {
    const { s, r, secret } = await setup();
    expect((await keyOf(s, r, { secret, token: s.token })).key).toBe('secret');
    const switched = await signWith(s, 'token');
    expect(switched.status).toBe(200);
    expect(switched.body).toEqual({ key: 'token', token_name: 'token-1', token_hint: expect.any(String), header: 'X-Webhook-Signature' });
    const { key, got } = await keyOf(s, r, { secret, token: s.token });
    expect(key).toBe('token');
    expect(timestampedMatches(got, secret)).toBe(true);
    expect(timestampedMatches(got, s.token)).toBe(false);
  });

  it('with several tokens, the one that asked signs; "secret" switches back and the copy is forgotten', async () => {
    const { s, r, secret } = await setup();
    await s.store.transaction((tx) => tx.companies.addToken(1, BOB, new Date().toISOString(), { name: 'bob' }));
    expect((await signWith(s, 'token', BOB)).body).toMatchObject({ key: 'token', token_name: 'bob' });
    expect((await keyOf(s, r, { secret, first: s.token, bob: BOB })).key).toBe('bob');
    const [stored] = await sql(s, 'SELECT signing_token FROM companies WHERE id = 1');
    expect(stored.signing_token).toBe(BOB);
    const back = await signWith(s, 'secret');
    expect(back.body).toEqual({ key: 'secret', token_name: null, token_hint: null, header: 'X-Webhook-Signature' });
    expect((await request(s, 'GET', '/api/v2/sandbox/webhook-signing')).body.key).toBe('secret');
    expect((await keyOf(s, r, { secret, first: s.token, bob: BOB })).key).toBe('secret');
    expect(await sql(s, 'SELECT signing_token, signing_token_id FROM companies WHERE id = 1')).toEqual([{ signing_token: null, signing_token_id: null }]);
  });

  it('revoking the token that signs brings the secret back and forgets the copy', async () => {
    const { s, r, secret } = await setup();
    const bob = await s.store.transaction((tx) => tx.companies.addToken(1, BOB, new Date().toISOString(), { name: 'bob' }));
    await signWith(s, 'token', BOB);
    await s.store.transaction((tx) => tx.companies.revokeToken(1, bob.id, new Date().toISOString()));
    expect((await request(s, 'GET', '/api/v2/sandbox/webhook-signing')).body.key).toBe('secret');
    expect((await keyOf(s, r, { secret, bob: BOB })).key).toBe('secret');
    expect((await sql(s, 'SELECT signing_token FROM companies WHERE id = 1'))[0].signing_token).toBeNull();
  });

  it('a company created to sign with its token does so from its first postback; another company is not touched', async () => {
    const { s, r, secret } = await setup();
    const legacy = 'pinv_test_legacy_shop_token_0123456789';
    await addCompany(s.store, { token: legacy, fantasyName: 'Legacy Shop', signWith: 'token' }, (n) => randomBytes(n), new Date());
    const legacySecret = (await request(s, 'GET', '/api/v2/webhooks/secret', { token: legacy })).body.webhook_secret as string;
    const before = r.received.length;
    await create(s, validPix({ postback_url: r.url }), legacy);
    const got = (await r.waitFor(before + 1))[before] as Received;
    expect(got.headers['x-webhook-signature']).toBe(hmac(legacy, got.body));
    expect(got.headers['x-webhook-signature']).not.toBe(hmac(legacySecret, got.body));
    expect((await request(s, 'GET', '/api/v2/sandbox/webhook-signing', { token: legacy })).body).toMatchObject({ key: 'token', token_name: 'token-2' });
    expect((await keyOf(s, r, { secret, token: s.token })).key).toBe('secret');
  });

  it('chaos bad_signature spoils the token-keyed signature too', async () => {
    const { s, r, secret } = await setup();
    await signWith(s, 'token');
    await request(s, 'PUT', '/api/v2/sandbox/chaos', { body: { bad_signature: true } });
    const { key, got } = await keyOf(s, r, { secret, token: s.token });
    expect(key).toBeUndefined();
    expect(timestampedMatches(got, secret)).toBe(false);
  });

  it('the token is never shown: not in any answer, the delivery history, the postback or the error log', async () => {
    const { s, r, secret, logged } = await setup();
    await signWith(s, 'token');
    const { got } = await keyOf(s, r, { secret, token: s.token });
    const charge = got.json.id as string;
    await sandbox(s, charge, 'pay');
    await r.waitFor(2);
    const answers = await Promise.all(
      ['/api/v2/sandbox/webhook-signing', '/api/v2/company', '/api/v2/webhooks/secret', `/api/v2/invoices/${charge}`, `/api/v2/invoices/${charge}/events`, '/openapi.json']
        .map((path) => request(s, 'GET', path)),
    );
    const shown = JSON.stringify([answers.map((a) => a.body), (await signWith(s, 'token')).body, r.received.map((x) => [x.body, x.headers['pinvoice-signature']])]);
    expect(shown).toContain('token-1');
    expect(shown).not.toContain(s.token);
    expect(shown).not.toContain(s.token.slice(-12));
    expect(logged).toEqual([]);
    expect((await s.store.companies.get(1))).not.toHaveProperty('signing_token');
    expect(JSON.stringify(await s.store.companies.list())).not.toContain(s.token);
  });

  it('a read-only token may read the choice but not make it; a bad key names the member', async () => {
    const { s } = await setup();
    const support = 'pinv_test_support_reader_0123456789';
    await s.store.transaction((tx) => tx.companies.addToken(1, support, new Date().toISOString(), { name: 'support', readOnly: true }));
    expect((await request(s, 'GET', '/api/v2/sandbox/webhook-signing', { token: support })).status).toBe(200);
    const refused = await signWith(s, 'token', support);
    expect(refused.status).toBe(403);
    expect((await sql(s, 'SELECT signing_token FROM companies WHERE id = 1'))[0].signing_token).toBeNull();
    const bad = await signWith(s, 'api_key');
    expect(bad.status).toBe(422);
    expect(bad.body.details).toEqual([expect.objectContaining({ path: 'key' })]);
    expect((await request(s, 'PUT', '/api/v2/sandbox/webhook-signing', { body: {} })).body.details).toEqual([expect.objectContaining({ path: 'key' })]);
  });
});
