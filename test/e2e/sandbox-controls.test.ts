// The sandbox's controls for time and faults, end to end: the built binary's `serve`, driven by the
// built CLI (`sandbox clock`, `sandbox chaos`, `sandbox scenarios`) and by plain HTTP, with postbacks
// observed at real receivers.
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../src/domain/scenarios.js';
import { boletoCharge, CARDS, cardCharge } from '../support/charges.js';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_e2e_sandbox_controls_01';
const work = mkdtempSync(join(tmpdir(), 'pinvoice-sandbox-'));
const json = (text: string) => JSON.parse(text);
const HOUR = 3_600_000;

interface Sandbox {
  server: ServeProcess;
  env: Record<string, string>;
  cli(args: string[]): ReturnType<typeof run>;
  create(body: unknown): Promise<any>;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; body: any }>;
}

async function sandbox(token: string, flags: string[] = []): Promise<Sandbox> {
  const server = await serve(['--port', '0', '--db', ':memory:', '--token', token, ...flags], tempHome());
  const env = { ...tempHome(), PINVOICE_TOKEN: token, PINVOICE_BASE_URL: server.url };
  const cli = (args: string[]) => run(args, { env });
  return {
    server,
    env,
    cli,
    async create(body: unknown) {
      const path = join(work, `charge-${Math.random()}.json`);
      writeFileSync(path, JSON.stringify(body));
      const created = await cli(['invoice', 'create', '--file', path, '--json', '--no-input']);
      expect(created.code, created.stderr).toBe(0);
      return json(created.stdout);
    },
    async api(method: string, path: string, body?: unknown) {
      const answer = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, headers: answer.headers, body: text ? json(text) : undefined };
    },
  };
}

describe('the sandbox clock', () => {
  let box: Sandbox;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    box = await sandbox(TOKEN);
  });
  afterAll(async () => {
    await box.server.stop();
    await receiver.close();
  });

  it('moves pix expiry, boleto due dates (with their grace days) and every timestamp written, and only forward', async () => {
    const shown = await box.cli(['sandbox', 'clock', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(json(shown.stdout).offset_seconds).toBe(0);
    expect(Math.abs(Date.parse(json(shown.stdout).now) - Date.now())).toBeLessThan(5000);

    const pix = await box.create(validPix({ postback_url: receiver.url }));
    const boleto = await box.create(boletoCharge());
    expect(boleto.boleto.expiresAt > `${boleto.boleto.dueDate}T`).toBe(true);

    const early = await box.cli(['sandbox', 'clock', 'advance', '59m', '--json']);
    expect(json(early.stdout).offset_seconds).toBe(59 * 60);
    expect(json((await box.cli(['invoice', 'get', String(pix.id), '--json'])).stdout).status).toBe('pending');

    const moved = json((await box.cli(['sandbox', 'clock', 'advance', '2m', '--json'])).stdout);
    expect(moved.offset_seconds).toBe(61 * 60);
    const expired = json((await box.cli(['invoice', 'get', String(pix.id), '--json'])).stdout);
    expect(expired.status).toBe('expired');
    // written in the company's time: an hour and a minute ahead of real time
    const expiredAt = Date.parse(expired.timeline.at(-1).at);
    expect(expiredAt - Date.now()).toBeGreaterThan(60 * 60_000);
    expect(Math.abs(expiredAt - Date.parse(moved.now))).toBeLessThan(5000);
    // the postback of the expiry comes at once, its created_at in company time
    await receiver.waitFor(2);
    expect(receiver.received.map((r) => r.json.event)).toEqual(['invoice.created', 'invoice.expired']);
    expect(Date.parse(receiver.received[1]?.json.created_at)).toBe(expiredAt);

    // the boleto is payable through its due date and the two grace days after it (serve's default)
    const dueEnd = Date.parse(`${boleto.boleto.dueDate}T03:00:00.000Z`) + 86_400_000;
    const untilDueEnd = Math.ceil((dueEnd - Date.parse(moved.now)) / 1000);
    await box.cli(['sandbox', 'clock', 'advance', `${untilDueEnd + 60}s`]);
    expect(json((await box.cli(['invoice', 'get', String(boleto.id), '--json'])).stdout).status).toBe('pending');
    await box.cli(['sandbox', 'clock', 'advance', '2d']);
    const late = json((await box.cli(['invoice', 'get', String(boleto.id), '--json'])).stdout);
    expect(late.status).toBe('expired');

    // a charge created now is created in the company's time
    const later = await box.create(validPix());
    const clock = json((await box.cli(['sandbox', 'clock', '--json'])).stdout);
    expect(Math.abs(Date.parse(later.createdAt) - Date.parse(clock.now))).toBeLessThan(5000);
    expect(Date.parse(later.pix.expiresAt) - Date.parse(later.createdAt)).toBe(HOUR);

    // never backwards: a 409 (exit 2) naming the clock's time; reset goes back to real time
    const back = await box.cli(['sandbox', 'clock', 'set', new Date().toISOString()]);
    expect(back.code).toBe(2);
    expect(back.stderr).toMatch(/only moves forward/);
    const set = json((await box.cli(['sandbox', 'clock', 'set', '2030-01-01T12:00:00Z', '--json'])).stdout);
    expect(set.now).toMatch(/^2030-01-01T12:00:0/);
    const reset = json((await box.cli(['sandbox', 'clock', 'reset', '--json'])).stdout);
    expect(reset.offset_seconds).toBe(0);
  });

  it('moves postback retry schedules: a retry an hour away is sent when the clock gets there', async () => {
    const slow = await sandbox('pinv_test_e2e_sandbox_controls_02', ['--postback-base-delay', String(HOUR), '--postback-attempts', '3']);
    const failing = await startReceiver((_request, index) => (index === 0 ? 500 : 200));
    try {
      const charge = await slow.create(validPix({ postback_url: failing.url }));
      await failing.waitFor(1);
      const events = json((await slow.cli(['events', 'list', String(charge.id), '--json'])).stdout);
      const next = Date.parse(events[0].next_attempt_at);
      expect(next - Date.now()).toBeGreaterThan(25 * 60_000); // half the hour at least (jitter)
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(failing.received).toHaveLength(1);
      expect((await slow.cli(['sandbox', 'clock', 'advance', '1h'])).code).toBe(0);
      await failing.waitFor(2, 5000);
      const after = await eventually(async () => {
        const list = json((await slow.cli(['events', 'list', String(charge.id), '--json'])).stdout);
        return list[0].state === 'delivered' && list[0];
      });
      expect(after.attempts.map((a: any) => a.status_code)).toEqual([500, 200]);
      // the second attempt is written in the company's time, an hour ahead
      expect(Date.parse(after.attempts[1].at) - Date.now()).toBeGreaterThan(HOUR - 60_000);
    } finally {
      await slow.server.stop();
      await failing.close();
    }
  });

  it('refuses a bad duration or time with exit 2, naming it', async () => {
    const bad = await box.cli(['sandbox', 'clock', 'advance', '2x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"2x" is not a duration/);
    const noZone = await box.cli(['sandbox', 'clock', 'set', '2030-01-01T12:00:00']);
    expect(noZone.code).toBe(2);
    const api = await box.api('POST', '/api/v2/sandbox/clock/advance', { seconds: 0 });
    expect(api.status).toBe(422);
    expect(api.body.details[0].path).toBe('seconds');
  });
});

describe('postback chaos, observed at a real receiver', () => {
  let box: Sandbox;
  let secret: string;
  beforeAll(async () => {
    box = await sandbox('pinv_test_e2e_sandbox_controls_03', ['--postback-base-delay', '100']);
    secret = (await box.cli(['webhooks', 'secret'])).stdout.trim();
  });
  afterAll(() => box.server.stop());

  const chaos = async (...flags: string[]) => {
    const set = await box.cli(['sandbox', 'chaos', 'set', ...flags, '--json']);
    expect(set.code, set.stderr).toBe(0);
    return json(set.stdout);
  };
  const eventsOf = async (id: number) => json((await box.cli(['events', 'list', String(id), '--json'])).stdout);
  const signed = (body: string) => createHmac('sha256', secret).update(body).digest('hex');

  it('duplicate: each postback arrives twice, the same event id and body, both attempts recorded', async () => {
    const receiver = await startReceiver();
    await chaos('--duplicate');
    const charge = await box.create(validPix({ postback_url: receiver.url }));
    const got = await receiver.waitFor(2);
    expect(got.map((r) => r.json.event_id)).toEqual([got[0]?.json.event_id, got[0]?.json.event_id]);
    expect(got[0]?.body).toBe(got[1]?.body);
    const [event] = await eventsOf(charge.id);
    expect(event.attempts.map((a: any) => a.injected)).toEqual([[], ['duplicate']]);
    await receiver.close();
  });

  it('reorder: a card approved at creation tells invoice.paid before invoice.created', async () => {
    const receiver = await startReceiver();
    await chaos('--reorder');
    const charge = await box.create(cardCharge(CARDS.approved, { postback_url: receiver.url }));
    const got = await receiver.waitFor(2);
    expect(got.map((r) => r.json.event)).toEqual(['invoice.paid', 'invoice.created']);
    const events = await eventsOf(charge.id);
    expect(events.map((e: any) => [e.event, e.state, e.attempts[0].injected])).toEqual([
      ['invoice.created', 'delivered', []],
      ['invoice.paid', 'delivered', ['reorder']],
    ]);
    await receiver.close();
  });

  it('drop_first and delay: the first attempts fail unsent, the next is held, and each attempt says so', async () => {
    const receiver = await startReceiver();
    await chaos('--drop-first', '2', '--delay', '700ms');
    const started = Date.now();
    const charge = await box.create(validPix({ postback_url: receiver.url }));
    await receiver.waitFor(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    const [event] = await eventually(async () => {
      const list = await eventsOf(charge.id);
      return list[0]?.state === 'delivered' && list;
    });
    expect(event.attempts.map((a: any) => [a.status_code, a.injected])).toEqual([
      [null, ['drop_first=2']],
      [null, ['drop_first=2']],
      [200, ['delay_ms=700']],
    ]);
    expect(event.attempts[0].error).toMatch(/dropped by sandbox chaos/);
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });

  it('bad_signature narrowed to one charge: its postbacks fail verification, the others verify', async () => {
    const receiver = await startReceiver();
    const other = await box.create(validPix({ postback_url: receiver.url }));
    const bad = await box.create(validPix({ postback_url: receiver.url }));
    const rule = await chaos('--bad-signature', '--invoice', bad.secureId);
    expect(rule).toMatchObject({ bad_signature: true, invoice_id: bad.secureId, active: true });
    await box.cli(['sandbox', 'pay', String(bad.id)]);
    await box.cli(['sandbox', 'pay', String(other.id)]);
    const paid = await eventually(() => {
      const got = receiver.received.filter((r) => r.json.event === 'invoice.paid');
      return got.length === 2 && got;
    });
    for (const got of paid) {
      expect(got.headers['x-webhook-signature'] === signed(got.body), got.json.invoice_id).toBe(got.json.invoice_id === other.secureId);
      // what a merchant's check says: `webhooks verify` fails the forged one (exit 9), passes the other
      const body = join(work, `body-${got.json.invoice_id}`);
      writeFileSync(body, got.body);
      const verify = await run(['webhooks', 'verify', '--body', body, '--signature', String(got.headers['pinvoice-signature'])], { env: box.env });
      expect(verify.code, verify.stderr).toBe(got.json.invoice_id === other.secureId ? 0 : 9);
    }
    const recorded = (await eventsOf(bad.id)).find((e: any) => e.event === 'invoice.paid');
    expect(recorded.attempts[0].injected).toEqual(['bad_signature']);
    await receiver.close();
  });

  it('shows and clears the rule; faithful deliveries come back', async () => {
    const shown = await box.cli(['sandbox', 'chaos']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/bad signature\s*│ on/);
    const cleared = json((await box.cli(['sandbox', 'chaos', 'clear', '--json'])).stdout);
    expect(cleared).toEqual({ duplicate: false, delay_ms: 0, reorder: false, drop_first: 0, bad_signature: false, pix_location: null, invoice_id: null, active: false });
    const receiver = await startReceiver();
    const charge = await box.create(validPix({ postback_url: receiver.url }));
    const [got] = await receiver.waitFor(1);
    expect(got?.headers['x-webhook-signature']).toBe(signed(got?.body ?? ''));
    expect((await eventsOf(charge.id))[0].attempts[0].injected).toEqual([]);
    await receiver.close();
  });

  it('refuses what it cannot do: no fault, a charge of no one, a bad value', async () => {
    const none = await box.cli(['sandbox', 'chaos', 'set']);
    expect(none.code).toBe(2);
    const unknown = await box.cli(['sandbox', 'chaos', 'set', '--duplicate', '--invoice', '99999']);
    expect(unknown.code).toBe(4);
    const api = await box.api('PUT', '/api/v2/sandbox/chaos', { delay_ms: 120_000, drop_first: -1 });
    expect(api.status).toBe(422);
    expect(api.body.details.map((d: any) => d.path)).toEqual(['delay_ms', 'drop_first']);
  });
});

describe('serve --rate-limit', () => {
  let box: Sandbox;
  beforeAll(async () => {
    box = await sandbox('pinv_test_e2e_sandbox_controls_04', ['--rate-limit', '3/s']);
  });
  afterAll(() => box.server.stop());

  it('answers 429 rate_limited with Retry-After per token, past the limit', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => box.api('GET', '/api/v2/company')));
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(limited).toHaveLength(5);
    expect(limited[0]?.body).toMatchObject({ error: 'rate_limited' });
    expect(limited[0]?.body.message).toMatch(/at most 3 a second/);
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // unauthenticated requests are not counted, nor limited
    const health = await Promise.all(Array.from({ length: 6 }, () => fetch(`${box.server.url}/health`)));
    expect(health.every((h) => h.status === 200)).toBe(true);
  });

  it('the CLI waits as Retry-After says and succeeds, instead of failing', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const runs = await Promise.all(Array.from({ length: 6 }, () => run(['company', '--json', '--debug'], { env: box.env })));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(runs.some((r) => /< 429/.test(r.stderr) && /retrying in 1 s/.test(r.stderr))).toBe(true);
  });
});

describe('sandbox scenarios', () => {
  it('lists every magic value, as the server has them', async () => {
    const box = await sandbox('pinv_test_e2e_sandbox_controls_05');
    try {
      const listed = await box.cli(['sandbox', 'scenarios', '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(json(listed.stdout)).toEqual(SCENARIOS);
      const table = await box.cli(['sandbox', 'scenarios']);
      expect(table.stdout).toContain('4000 0000 0000 3220');
      expect(table.stdout).toContain('waiting_3ds');
      const openapi = json((await box.cli(['openapi'])).stdout);
      for (const path of ['/api/v2/sandbox/clock', '/api/v2/sandbox/clock/advance', '/api/v2/sandbox/chaos', '/api/v2/sandbox/scenarios']) {
        for (const operation of Object.values(openapi.paths[path]) as any[]) expect(operation.tags, path).toEqual(['sandbox']);
      }
    } finally {
      await box.server.stop();
    }
  });
});
