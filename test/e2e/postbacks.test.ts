// Postbacks end to end: the built binary's `serve` delivering to `webhooks listen` and to test
// receivers, a kill and restart with retries due, `webhooks verify`, and `events list|resend`.
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from '../../src/domain/signature.js';
import { run, serve, start, tempHome, type ServeProcess } from '../support/cli.js';
import { closedPort, eventually, startReceiver, type Received } from '../support/receiver.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_e2e_postbacks_token_01';
const FAST = ['--postback-attempts', '6', '--postback-base-delay', '150', '--postback-timeout', '500'];
const work = mkdtempSync(join(tmpdir(), 'pinvoice-postbacks-'));
let server: ServeProcess;
let env: Record<string, string>;

beforeAll(async () => {
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN, ...FAST], tempHome());
  env = { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
});
afterAll(() => server.stop());

const cli = (args: string[], options: { env?: Record<string, string>; input?: string } = {}) =>
  run(args, { env: { ...env, ...options.env }, input: options.input });
const json = (text: string) => JSON.parse(text);
const file = (name: string, body: string) => {
  const path = join(work, name);
  writeFileSync(path, body);
  return path;
};
async function createPix(postbackUrl: string, base = env): Promise<any> {
  const created = await run(['invoice', 'create', '--file', file(`pix-${Math.random()}.json`, JSON.stringify(validPix({ postback_url: postbackUrl }))), '--json'], { env: base });
  expect(created.code, created.stderr).toBe(0);
  return json(created.stdout);
}

describe('webhooks listen', () => {
  it('prints the postback_url, then one JSON line per signed event, and exits after --count', async () => {
    const listener = start(['webhooks', 'listen', '--port', '0', '--json', '--count', '2', '--timeout', '30'], env);
    const ready = json(await listener.waitForLine((line) => line.includes('"listening"')));
    expect(ready.postback_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const charge = await createPix(ready.postback_url);
    expect((await cli(['sandbox', 'pay', String(charge.id)])).code).toBe(0);
    expect(await listener.exited).toBe(0);
    const events = listener.lines().map((line) => json(line)).filter((line) => line.type === 'event');
    expect(events.map((e) => [e.event, e.signature, e.invoice_id])).toEqual([
      ['invoice.created', 'valid', charge.secureId],
      ['invoice.paid', 'valid', charge.secureId],
    ]);
    // the body exactly as received: the production payload, extended, with the event id beside the charge's
    expect(events[1].payload).toMatchObject({ id: charge.secureId, invoice_id: charge.secureId, event: 'invoice.paid', status: 'paid', total: 1990 });
    expect(events[1].payload.transaction.status).toBe('paid');
    expect(events.map((e) => e.event_id)).toEqual(events.map((e) => e.payload.event_id));
    expect(events[0].event_id).toMatch(/^evt_[0-9a-f]{24}$/);
  });

  it('prints the body exactly as it came, and checks an X-Webhook-Signature alone', async () => {
    const secret = (await cli(['webhooks', 'secret'])).stdout.trim();
    const listener = start(['webhooks', 'listen', '--port', '0', '--json', '--count', '1', '--timeout', '30'], env);
    const ready = json(await listener.waitForLine((line) => line.includes('"listening"')));
    // a body as another sender might write it: spacing, key order and a number format JSON.stringify would change
    const body = '{ "total": 1.50e3, "id": "INV-1", "event": "invoice.paid", "nested": {"a": [1, 2]} }';
    const signature = createHmac('sha256', secret).update(body).digest('hex');
    const answer = await fetch(ready.url, { method: 'POST', body, headers: { 'x-webhook-signature': signature } });
    expect(answer.status).toBe(200);
    expect(await listener.exited).toBe(0);
    const line = listener.lines().find((l) => l.includes('"type":"event"')) ?? '';
    expect(line.endsWith(`"payload":${body.trim()}}`)).toBe(true);
    expect(json(line)).toMatchObject({ signature: 'valid', invoice_id: 'INV-1', event: 'invoice.paid', total: 1500, event_id: null });
  });

  it('prints a line per event for people, and `invoice get` shows the deliveries', async () => {
    const listener = start(['webhooks', 'listen', '--port', '0', '--count', '1'], env);
    const url = (await listener.waitForLine((line) => line.startsWith('postback_url: '))).slice('postback_url: '.length);
    const charge = await createPix(url);
    expect(await listener.exited).toBe(0);
    expect(listener.lines().at(-1)).toMatch(new RegExp(`invoice\\.created  ${charge.secureId}  pending  R\\$ 19,90  evt_[0-9a-f]{24}  signature ok$`));
    const shown = await eventually(async () => {
      const got = await cli(['invoice', 'get', String(charge.id), '--no-qr']);
      return /invoice\.created.*delivered.*HTTP 200/.test(got.stdout) && got.stdout;
    });
    expect(shown).toContain('Postbacks');
  });

  it('answers 400 to a wrong signature and does not count it', async () => {
    const listener = start(['webhooks', 'listen', '--port', '0', '--json', '--count', '1', '--timeout', '3'], { ...env, PINVOICE_WEBHOOK_SECRET: 'whsec_not_the_one' });
    const ready = json(await listener.waitForLine((line) => line.includes('"listening"')));
    const body = JSON.stringify({ id: 'INV-forged', event: 'invoice.paid', event_id: 'evt_forged' });
    const answer = await fetch(ready.url, { method: 'POST', body, headers: { 'pinvoice-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` } });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toBe('invalid_signature');
    expect(await listener.exited).toBe(8);
    expect(listener.lines().map((line) => json(line)).find((line) => line.type === 'event')).toMatchObject({ signature: 'invalid', reason: 'signature_mismatch', event_id: 'evt_forged' });
    expect(listener.stderr()).toMatch(/received 0 of 1 events before --timeout/);
  });

  it('forwards each event untouched to the app and answers the server with the app’s answer', async () => {
    const app = await startReceiver((_request, index) => (index === 0 ? 500 : 200));
    // the app's URL exactly as given, trailing slash included (some frameworks route on it)
    const target = `${app.url}/`;
    const listener = start(['webhooks', 'listen', '--port', '0', '--json', '--count', '2', '--forward-to', target, '--timeout', '30'], env);
    const ready = json(await listener.waitForLine((line) => line.includes('"listening"')));
    expect(ready.forward_to).toBe(target);
    const charge = await createPix(ready.postback_url);
    expect(await listener.exited).toBe(0);
    const lines = listener.lines().map((line) => json(line)).filter((line) => line.type === 'event');
    expect(lines.map((line) => line.forward.status)).toEqual([500, 200]);
    const secret = (await cli(['webhooks', 'secret'])).stdout.trim();
    for (const got of app.received) {
      expect(got.path).toBe('/postbacks/');
      const headers = { timestamped: String(got.headers['pinvoice-signature']), body: String(got.headers['x-webhook-signature']) };
      expect(verifySignature({ secret, body: got.body, headers }).valid).toBe(true);
    }
    const listed = json((await cli(['events', 'list', String(charge.id), '--json'])).stdout);
    expect(listed[0].attempts.map((a: any) => a.status_code)).toEqual([500, 200]);
    await app.close();
  });

  it('says when the port is taken (exit 5), a bad --forward-to is a usage error (exit 2), no secret is exit 3', async () => {
    const taken = await startReceiver();
    const busy = await cli(['webhooks', 'listen', '--port', String(taken.port)]);
    expect(busy.code).toBe(5);
    expect(busy.stderr).toMatch(/already in use/);
    await taken.close();
    const bad = await cli(['webhooks', 'listen', '--forward-to', 'ftp://nowhere']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--forward-to/);
    const noSecret = await run(['webhooks', 'listen'], { env: tempHome() });
    expect(noSecret.code).toBe(3);
    expect(noSecret.stderr).toMatch(/not logged in .*--secret-file or PINVOICE_WEBHOOK_SECRET/);
  });
});

describe('webhooks verify', () => {
  let saved: Received;
  let secret: string;
  beforeAll(async () => {
    const receiver = await startReceiver();
    await createPix(receiver.url);
    [saved] = (await receiver.waitFor(1)) as [Received];
    await receiver.close();
    secret = (await cli(['webhooks', 'secret'])).stdout.trim();
  });
  const verify = (body: string, signature: string, extra?: Record<string, string>, args: string[] = []) =>
    cli(['webhooks', 'verify', '--body', file(`body-${Math.random()}.json`, body), '--signature', signature, ...args], { env: extra ?? { PINVOICE_WEBHOOK_SECRET: secret } });

  it('accepts the real body and header, with the secret from the environment, a file or the profile', async () => {
    const header = String(saved.headers['pinvoice-signature']);
    const fromEnv = await verify(saved.body, header);
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stdout).toMatch(/^valid: signed at /);
    expect((await verify(saved.body, header, {}, ['--secret-file', file('secret.txt', `${secret}\n`)])).code).toBe(0);
    const fromProfile = await verify(saved.body, `Pinvoice-Signature: ${header}`, {}, ['--json']);
    expect(json(fromProfile.stdout)).toMatchObject({ valid: true });
  });

  it('accepts the X-Webhook-Signature too, pasted with or without its name; it has no time to check', async () => {
    const signature = String(saved.headers['x-webhook-signature']);
    const plain = await verify(saved.body, signature);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^valid: signed over \d+ bytes\n$/);
    expect(json((await verify(saved.body, `X-Webhook-Signature: ${signature}`, undefined, ['--json'])).stdout)).toEqual({ valid: true, signed_at: null });
    const changed = await verify(saved.body.replace('"total":1990', '"total":1991'), signature);
    expect(changed.code).toBe(9);
    expect(changed.stderr).toMatch(/invalid signature: the signature does not match/);
  });

  it('rejects a changed body, a changed timestamp and a wrong secret with exit 9', async () => {
    const header = String(saved.headers['pinvoice-signature']);
    const t = Number(/t=(\d+)/.exec(header)?.[1]);
    const cases = [
      await verify(saved.body.replace('"total":1990', '"total":1991'), header),
      await verify(saved.body, header.replace(`t=${t}`, `t=${t + 1}`)),
      await verify(saved.body, header, { PINVOICE_WEBHOOK_SECRET: `${secret}x` }),
    ];
    for (const result of cases) {
      expect(result.code).toBe(9);
      expect(result.stderr).toMatch(/invalid signature: the signature does not match/);
    }
    // an old signature is still a true one; --tolerance is what rejects it as a possible replay
    const old = signatureHeader(secret, Math.floor(Date.now() / 1000) - 3600, saved.body);
    expect((await verify(saved.body, old)).code).toBe(0);
    const stale = await verify(saved.body, old, undefined, ['--tolerance', '300']);
    expect(stale.code).toBe(9);
    expect(stale.stderr).toMatch(/outside the tolerance/);
    const garbled = await verify(saved.body, 'not a header');
    expect(garbled.code).toBe(9);
    expect(garbled.stderr).toMatch(/neither "t=<unix seconds>,v1=<64 hex digits>" \(Pinvoice-Signature\) nor 64 hex digits \(X-Webhook-Signature\)/);
    const missing = await cli(['webhooks', 'verify', '--signature', header]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--body/);
  });
});

describe('events list and resend', () => {
  it('list the history of a charge and resend one event to its URL', async () => {
    const port = await closedPort();
    const charge = await createPix(`http://127.0.0.1:${port}/hook`);
    const failed = await eventually(async () => {
      const got = json((await cli(['events', 'list', charge.secureId, '--json'])).stdout);
      return got[0].state === 'failed' && got;
    }, 15_000, 'the event to fail');
    expect(failed[0].attempts).toHaveLength(6);
    const table = await cli(['events', 'list', String(charge.id)]);
    expect(table.stdout).toContain('connection refused');
    expect(table.stdout).toContain('failed');
    const receiver = await startReceiver(undefined, port);
    const resent = await cli(['events', 'resend', failed[0].id, '--json']);
    expect(resent.code, resent.stderr).toBe(0);
    expect(json(resent.stdout)).toMatchObject({ id: failed[0].id, state: 'pending' });
    const [got] = await receiver.waitFor(1);
    expect(got?.json).toMatchObject({ id: charge.secureId, event_id: failed[0].id });
    await receiver.close();
    const unknown = await cli(['events', 'resend', 'evt_000000000000000000000000']);
    expect(unknown.code).toBe(4);
  });
});

// The kill may land while an attempt is under way: that event's claim then runs out first (the
// postback timeout plus 5 s, docs/api.md "Several processes"), so these servers cut a receiver off
// after 1 s and a claim lasts 6 s.
const LEASE_MS = 1000 + 5000;

describe('a server killed while retries are due', () => {
  it('delivers everything after a restart on the same file, each event to its own URL', async () => {
    const db = join(work, 'kill.db');
    const home = tempHome();
    const [portA, portB] = [await closedPort(), await closedPort()];
    const args = ['--port', '0', '--db', db, '--token', TOKEN, '--postback-attempts', '8', '--postback-base-delay', '300', '--postback-timeout', '1000'];
    const first = await serve(args, home);
    const base = { ...home, PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: first.url };
    const a = await createPix(`http://127.0.0.1:${portA}/a`, base);
    const b = await createPix(`http://127.0.0.1:${portB}/b`, base);
    expect((await run(['sandbox', 'pay', String(a.id)], { env: base })).code).toBe(0);
    await eventually(async () => {
      const got = json((await run(['events', 'list', String(b.id), '--json'], { env: base })).stdout);
      return got[0].attempts.length >= 1;
    }, 10_000, 'a failed attempt');
    first.child.kill('SIGKILL');
    await first.exited;
    const [receiverA, receiverB] = [await startReceiver(undefined, portA), await startReceiver(undefined, portB)];
    const second = await serve(args, home);
    try {
      await receiverA.waitFor(2, 15_000);
      await receiverB.waitFor(1, 15_000);
      const after = { ...base, PINVOICE_BASE_URL: second.url };
      const list = async (id: number) => json((await run(['events', 'list', String(id), '--json'], { env: after })).stdout) as any[];
      await eventually(async () => (await list(a.id)).every((e) => e.state === 'delivered') && (await list(b.id)).every((e) => e.state === 'delivered'));
      expect(receiverA.received.map((got) => [got.path, got.json.invoice_id, got.json.event])).toEqual([
        ['/a', a.secureId, 'invoice.created'],
        ['/a', a.secureId, 'invoice.paid'],
      ]);
      expect(receiverB.received.map((got) => [got.path, got.json.invoice_id, got.json.event])).toEqual([['/b', b.secureId, 'invoice.created']]);
    } finally {
      await second.stop();
      await receiverA.close();
      await receiverB.close();
    }
  }, 30_000);

  it('sends an event cut off in flight once its claim has run out, and counts the lost attempt nowhere', async () => {
    const db = join(work, 'kill-in-flight.db');
    const home = tempHome();
    const arrived: number[] = [];
    const receiver = await startReceiver((_request, index) => {
      arrived.push(Date.now());
      return index === 0 ? 'hang' : 200;
    });
    const args = ['--port', '0', '--db', db, '--token', TOKEN, '--postback-timeout', '1000'];
    const first = await serve(args, home);
    const base = { ...home, PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: first.url };
    const charge = await createPix(receiver.url, base);
    await receiver.waitFor(1);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await serve(args, home);
    try {
      await receiver.waitFor(2, LEASE_MS + 10_000);
      // not before the claim ran out: sent at once, it could be a second delivery of an attempt still under way elsewhere
      expect(arrived[1]! - arrived[0]!).toBeGreaterThan(LEASE_MS - 1000);
      expect(receiver.received.map((got) => [got.json.event, got.json.event_id])).toEqual([
        ['invoice.created', receiver.received[0]!.json.event_id],
        ['invoice.created', receiver.received[0]!.json.event_id],
      ]);
      const after = { ...base, PINVOICE_BASE_URL: second.url };
      const events = await eventually(async () => {
        const got = json((await run(['events', 'list', charge.secureId, '--json'], { env: after })).stdout);
        return got[0].state === 'delivered' && got;
      }, 10_000, 'the event to be delivered');
      expect(events[0].attempts.map((attempt: any) => attempt.status_code)).toEqual([200]);
    } finally {
      await second.stop();
      await receiver.close();
    }
  }, 30_000);
});
