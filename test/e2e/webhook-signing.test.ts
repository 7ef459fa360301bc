// Token-keyed signatures end to end: `serve company add --sign-with token`, `sandbox webhook-signing`
// and `webhooks verify|listen --signed-with token`, with the built binary against `pinvoice serve` on
// a database file; every postback checked by an HMAC the test computes with the token.
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve, start, tempHome, type ServeProcess } from '../support/cli.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_e2e_signing_first_token_01';
const work = mkdtempSync(join(tmpdir(), 'pinvoice-signing-'));
const home = tempHome();
const db = join(work, 'signing.db');
let server: ServeProcess;
let receiver: Receiver;
/** the company added with --sign-with token */
let legacy: { id: number; token: string; sign_with: string };

beforeAll(async () => {
  server = await serve(['--port', '0', '--db', db, '--token', TOKEN, '--postback-attempts', '2', '--postback-base-delay', '50'], home);
  receiver = await startReceiver();
  const added = await run(['serve', 'company', 'add', '--db', db, '--name', 'Legacy Shop', '--sign-with', 'token', '--json'], { env: home });
  expect(added.code, added.stderr).toBe(0);
  legacy = JSON.parse(added.stdout);
});
afterAll(async () => {
  await receiver.close();
  await server.stop();
});

const hmac = (key: string, body: string) => createHmac('sha256', key).update(body).digest('hex');
const as = (token: string, extra: Record<string, string> = {}) => ({ ...home, PINVOICE_TOKEN: token, PINVOICE_BASE_URL: server.url, ...extra });

/** Creates a pix charge as `token`'s company, and answers its first postback. */
async function postbackOf(token: string, url = receiver.url) {
  const before = receiver.received.length;
  const file = join(work, `pix-${Math.random()}.json`);
  writeFileSync(file, JSON.stringify(validPix({ postback_url: url })));
  const created = await run(['invoice', 'create', '--file', file, '--json'], { env: as(token) });
  expect(created.code, created.stderr).toBe(0);
  if (url !== receiver.url) return undefined;
  const got = (await receiver.waitFor(before + 1))[before];
  if (!got) throw new Error('no postback');
  return got;
}

const secretOf = async (token: string) => (await run(['webhooks', 'secret'], { env: as(token) })).stdout.trim();

describe('a company that signs with its API token', () => {
  it('serve company add --sign-with token: X-Webhook-Signature is the HMAC of the body keyed with the token printed, not the secret', async () => {
    expect(legacy.sign_with).toBe('token');
    const got = await postbackOf(legacy.token);
    expect(got?.headers['x-webhook-signature']).toBe(hmac(legacy.token, got?.body ?? ''));
    expect(got?.headers['x-webhook-signature']).not.toBe(hmac(await secretOf(legacy.token), got?.body ?? ''));
    // the first company still signs with its secret
    const first = await postbackOf(TOKEN);
    expect(first?.headers['x-webhook-signature']).toBe(hmac(await secretOf(TOKEN), first?.body ?? ''));
  });

  it('company list says who signs with a token and never shows one; serve logged none', async () => {
    const list = await run(['serve', 'company', 'list', '--db', db, '--json'], { env: home });
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ id: 1, sign_with: 'secret' }),
      expect.objectContaining({ id: legacy.id, fantasy_name: 'Legacy Shop', sign_with: 'token' }),
    ]);
    const table = await run(['serve', 'company', 'list', '--db', db], { env: home });
    expect(table.stdout).toMatch(/Legacy Shop.*signs with its token/);
    for (const text of [list.stdout, table.stdout, table.stderr, server.stdout(), server.stderr()]) expect(text).not.toContain(legacy.token);
  });

  it('webhooks verify --signed-with token checks X-Webhook-Signature with the run’s token; with the secret it does not match (exit 9)', async () => {
    const got = await postbackOf(legacy.token);
    const body = join(work, 'body.json');
    writeFileSync(body, got?.body ?? '');
    const signature = String(got?.headers['x-webhook-signature']);
    const valid = await run(['webhooks', 'verify', '--body', body, '--signature', signature, '--signed-with', 'token', '--json'], { env: as(legacy.token) });
    expect(valid.code, valid.stderr).toBe(0);
    expect(JSON.parse(valid.stdout)).toMatchObject({ valid: true });
    const bySecret = await run(['webhooks', 'verify', '--body', body, '--signature', signature], { env: as(legacy.token) });
    expect(bySecret.code).toBe(9);
    // Pinvoice-Signature stays keyed with the secret, --signed-with token or not
    const timestamped = await run(['webhooks', 'verify', '--body', body, '--signature', String(got?.headers['pinvoice-signature']), '--signed-with', 'token'], { env: as(legacy.token) });
    expect(timestamped.code, timestamped.stderr).toBe(0);
  });

  it('webhooks listen --signed-with token accepts its postbacks; without it, they are refused as badly signed', async () => {
    const listener = start(['webhooks', 'listen', '--port', '0', '--json', '--count', '1', '--timeout', '30', '--signed-with', 'token'], as(legacy.token));
    const ready = JSON.parse(await listener.waitForLine((line) => line.includes('"listening"')));
    await postbackOf(legacy.token, ready.postback_url);
    expect(await listener.exited).toBe(0);
    expect(listener.lines().map((line) => JSON.parse(line)).find((line) => line.type === 'event')).toMatchObject({ signature: 'valid' });
    const strict = start(['webhooks', 'listen', '--port', '0', '--json', '--count', '1', '--timeout', '3'], as(legacy.token));
    const url = JSON.parse(await strict.waitForLine((line) => line.includes('"listening"'))).postback_url;
    await postbackOf(legacy.token, url);
    expect(await strict.exited).toBe(8);
    expect(strict.lines().map((line) => JSON.parse(line)).find((line) => line.type === 'event')).toMatchObject({ signature: 'invalid', reason: 'signature_mismatch' });
  });
});

describe('pinvoice sandbox webhook-signing', () => {
  it('shows the choice, switches to the token it sends (not the company’s first) and back to the secret', async () => {
    const shown = await run(['sandbox', 'webhook-signing'], { env: as(legacy.token) });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/X-Webhook-Signature\W+keyed with the API token "token-\d+"/);
    const ci = JSON.parse((await run(['serve', 'token', 'add', '--db', db, '--company', '1', '--name', 'ci', '--json'], { env: home })).stdout).token as string;
    const toToken = await run(['sandbox', 'webhook-signing', 'token', '--json'], { env: as(ci) });
    expect(toToken.code, toToken.stderr).toBe(0);
    expect(JSON.parse(toToken.stdout)).toEqual({ key: 'token', token_name: 'ci', token_hint: expect.any(String), header: 'X-Webhook-Signature' });
    expect(toToken.stderr).toMatch(/keyed with the token in PINVOICE_TOKEN/);
    expect(toToken.stdout + toToken.stderr).not.toContain(ci);
    const signed = await postbackOf(TOKEN);
    expect(signed?.headers['x-webhook-signature']).toBe(hmac(ci, signed?.body ?? ''));
    const back = await run(['sandbox', 'webhook-signing', 'secret'], { env: as(TOKEN) });
    expect(back.stdout).toMatch(/X-Webhook-Signature\W+keyed with the webhook secret/);
    const again = await postbackOf(TOKEN);
    expect(again?.headers['x-webhook-signature']).toBe(hmac(await secretOf(TOKEN), again?.body ?? ''));
  });

  it('a wrong word is a usage error naming the choices (exit 2)', async () => {
    const bad = await run(['sandbox', 'webhook-signing', 'apikey'], { env: as(TOKEN) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/show, token, secret/);
    const badFlag = await run(['serve', 'company', 'add', '--db', db, '--sign-with', 'apikey'], { env: home });
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/--sign-with/);
  });
});
