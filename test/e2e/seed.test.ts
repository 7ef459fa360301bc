// `serve --seed N`: a CI failure reproduces. Two fresh servers with the same seed, sent the same
// requests, answer the same bytes (ids, secure ids, txids, checkout tokens, pix codes, boleto lines,
// event ids, times); another seed answers other ids; the standing clock moves only when told, and
// expiry and postback retries follow it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boletoCharge, CARDS, cardCharge } from '../support/charges.js';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { startReceiver } from '../support/receiver.js';
import { validPix } from '../support/server.js';
import { verifySignature } from '../../src/domain/signature.js';

const tokenOf = (server: ServeProcess) => /\n {2}(pinv_test_\w+)\n/.exec(server.stderr())?.[1] ?? '';

async function call(url: string, token: string, method: string, path: string, body?: unknown): Promise<string> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return `${method} ${path} ${response.status} ${await response.text()}`;
}

const jsonOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('{')));
const idOf = (answer: string) => jsonOf(answer).data.id as number;

/**
 * The host the codes' locations name, fixed: with --port 0 alone each run would write its own port
 * into the pix codes (docs/api.md, the location includes host and port).
 */
const PUBLIC_HOST = ['--public-host', 'sandbox.pinvoice.test'];

/** A fixed sequence of requests on a new seeded server: every answer's text, and the token it printed. */
async function session(args: string[]): Promise<string[]> {
  const server = await serve(['--port', '0', ...PUBLIC_HOST, ...args], tempHome());
  try {
    await new Promise((resolve) => setTimeout(resolve, 100)); // the token is printed after the listening line
    const token = tokenOf(server);
    const answers = [`token ${token}`];
    const send = async (method: string, path: string, body?: unknown) => {
      answers.push(await call(server.url, token, method, path, body));
      return answers.at(-1) ?? '';
    };
    const noPostbacks = { postback_url: undefined };
    await send('GET', '/api/v2/company');
    await send('GET', '/api/v2/webhooks/secret');
    const pix = idOf(await send('POST', '/api/v2/invoices', validPix(noPostbacks)));
    const card = idOf(await send('POST', '/api/v2/invoices', cardCharge(CARDS.approved, noPostbacks)));
    const boleto = idOf(await send('POST', '/api/v2/invoices', boletoCharge(noPostbacks)));
    const late = idOf(await send('POST', '/api/v2/invoices', validPix(noPostbacks)));
    await send('POST', `/api/v2/sandbox/invoices/${pix}/pay`);
    await send('POST', `/api/v2/invoices/${card}/refund`, { amount_cents: 500 });
    await send('POST', '/api/v2/sandbox/clock/advance', { seconds: 7200 });
    for (const id of [pix, card, boleto, late]) {
      await send('GET', `/api/v2/invoices/${id}/events`);
      const { invoice } = jsonOf(await send('GET', `/api/v2/invoices/${id}`));
      await send('GET', `/api/v2/public/invoices/${invoice.token_checkout}`);
    }
    await send('GET', '/api/v2/invoices?limit=10');
    await send('GET', '/api/v2/sandbox/clock');
    return answers;
  } finally {
    await server.stop();
  }
}

describe('serve --seed', () => {
  it('two fresh servers with the same seed answer the same requests byte for byte, in memory and on a file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pinvoice-seed-'));
    const memory = await session(['--db', ':memory:', '--seed', '42']);
    const again = await session(['--db', ':memory:', '--seed', '42']);
    const file = await session(['--db', join(folder, 'a.db'), '--seed', '42']);
    expect(memory.length).toBeGreaterThan(15);
    expect(memory[0]).toMatch(/^token pinv_test_\w{40}$/);
    expect(again).toEqual(memory);
    expect(file).toEqual(memory);
    // what the answers hold, made of the seed and the standing clock
    const text = memory.join('\n');
    expect(text).toContain('INV-20260101-000001-');
    expect(text).toContain('"status":"expired"'); // the late pix, two hours on
    expect(text).toMatch(/evt_[0-9a-f]{24}/);
    expect(text).toContain('"now":"2026-01-01T14:00:00.000Z"');
    expect(text).not.toMatch(/ 404 /);

    const other = await session(['--db', ':memory:', '--seed', '43']);
    expect(other[0]).not.toBe(memory[0]);
    const secureIds = (answers: string[]) => answers.join('\n').match(/INV-\d{8}-\d{6}-\d{4}/g);
    expect(secureIds(other)).not.toEqual(secureIds(memory));
  }, 60_000);

  it('--clock sets where the clock stands; a seed on a database that holds charges is refused (exit 2)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pinvoice-seed-'));
    const db = join(folder, 'ci.db');
    const answers = await session(['--db', db, '--seed', 'ci-run', '--clock', '2030-06-15T09:00:00-03:00']);
    expect(answers.join('\n')).toContain('INV-20300615-000001-');
    const restarted = await run(['serve', '--port', '0', '--db', db, '--seed', 'ci-run'], { env: tempHome() });
    expect(restarted.code).toBe(2);
    expect(restarted.stderr).toMatch(/^pinvoice: --seed ci-run: a seeded run starts from a database without charges/m);
    for (const [flag, value] of [['--seed', 'two words'], ['--clock', 'tomorrow']]) {
      const bad = await run(['serve', '--db', ':memory:', flag as string, value as string], { env: tempHome() });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(flag);
    }
  });

  it('the standing clock holds postback retries until it is advanced; the deliveries repeat byte for byte, signed at wall time', async () => {
    // the first delivery of each run fails: its retry waits for the clock
    const receiver = await startReceiver((_request, index) => (index % 2 === 0 ? 500 : 200));
    try {
      const runs: string[][] = [];
      for (let i = 0; i < 2; i++) {
        const server = await serve(['--port', '0', ...PUBLIC_HOST, '--db', ':memory:', '--seed', '7', '--postback-base-delay', '60000'], tempHome());
        try {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const token = tokenOf(server);
          const created = await call(server.url, token, 'POST', '/api/v2/invoices', validPix({ postback_url: receiver.url }));
          const id = idOf(created);
          await receiver.waitFor(2 * i + 1);
          await new Promise((resolve) => setTimeout(resolve, 1500));
          expect(receiver.received).toHaveLength(2 * i + 1); // no retry while the clock stands
          const failed = await call(server.url, token, 'GET', `/api/v2/invoices/${id}/events`);
          // past the retry (at most a minute away), short of the pix's hour
          await call(server.url, token, 'POST', '/api/v2/sandbox/clock/advance', { seconds: 120 });
          const [, retried] = (await receiver.waitFor(2 * i + 2)).slice(2 * i);
          const secret = jsonOf(await call(server.url, token, 'GET', '/api/v2/webhooks/secret')).webhook_secret;
          const headers = { timestamped: String(retried?.headers['pinvoice-signature']) };
          expect(verifySignature({ secret, body: retried?.body ?? '', headers, toleranceSeconds: 60 }).valid).toBe(true);
          // measured durations are the one thing a run does not repeat
          runs.push([created, failed.replace(/"duration_ms":\d+/g, '"duration_ms":0'), ...receiver.received.slice(2 * i).map((r) => r.body)]);
        } finally {
          await server.stop();
        }
      }
      expect(runs[1]).toEqual(runs[0]);
      expect(runs[0]?.[1]).toMatch(/"next_attempt_at":"2026-01-01T12:0\d:\d\d\.\d{3}Z"/);
    } finally {
      await receiver.close();
    }
  }, 30_000);
});
