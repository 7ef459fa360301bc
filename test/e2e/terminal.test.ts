// What reaches a terminal, through the built binary: data holding control characters (as an older
// database or a production gateway may still send) is shown escaped, never raw, and tables fit the
// width. The records come from a real `pinvoice serve`; a stand-in gateway (a plain node:http server)
// answers them back with hostile strings put in, as the real server would refuse to store them.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/render/width.js';
import { run, serve, start, tempHome, type ServeProcess } from '../support/cli.js';
import { closedPort } from '../support/receiver.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_e2e_terminal_token_0123';
/** Clear screen, bell, a window title, the C1 CSI, a right-to-left override, concealed text. */
const HOSTILE = 'X\u001b[2J\u0007\u001b]0;owned\u0007\u009b31m\u202e\u001b[8mY';
const VISIBLE = ['\\x1b[2J', '\\x07', '\\x1b]0;owned\\x07', '\\x9b31m', '\\u202e', '\\x1b[8m'];
const LONG_NAME = `Cesta ${'café, caneca, açúcar mascavo e biscoitos '.repeat(6)}`.slice(0, 240 - HOSTILE.length) + HOSTILE;
const SGR = new RegExp(`${'\u001b'}\\[[0-9;]*m`, 'g');
const rawControls = (text: string) => [...text.replace(SGR, '').matchAll(/[\p{Cc}\p{Bidi_Control}]/gu)].map(([c]) => c).filter((c) => c !== '\n');
const noControlAtAll = (text: string) => expect([...text.matchAll(/[\p{Cc}\p{Bidi_Control}]/gu)].map(([c]) => c).filter((c) => c !== '\n')).toEqual([]);
/** JSON escapes C0 (ESC, BEL) in strings, but leaves C1 and bidi controls as they are. */
const noC0 = (text: string) => expect([...text.matchAll(/\p{Cc}/gu)].map(([c]) => c).filter((c) => c !== '\n' && c <= '\u001f')).toEqual([]);

let real: ServeProcess;
let standIn: Server;
let env: Record<string, string>;
const answers = new Map<string, unknown>();
let record: any;

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const answer = await fetch(`${real.url}${path}`, {
    method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(answer.status, path).toBeLessThan(300);
  return answer.json();
}

/** A paid pix charge with a refund, its movements and timeline, from the real server, with hostile strings put in. */
async function hostileRecords(): Promise<void> {
  const { id } = (await api('POST', '/api/v2/invoices', validPix({ postback_url: `http://127.0.0.1:${await closedPort()}/hook` }))).data;
  await api('POST', `/api/v2/sandbox/invoices/${id}/pay`, {});
  await api('POST', `/api/v2/invoices/${id}/refund`, { amount_cents: 500, reason: 'devolução' });
  const tx = await api('GET', `/api/v2/invoices/${id}`);
  const events = await api('GET', `/api/v2/invoices/${id}/events`);
  const company = await api('GET', '/api/v2/company');
  tx.customer.name = `Fulano ${HOSTILE}`;
  tx.customer.address.street = HOSTILE;
  tx.items[0].title = LONG_NAME;
  tx.metadata = { [HOSTILE]: HOSTILE };
  tx.externalRef = HOSTILE;
  tx.refusedReason = HOSTILE;
  tx.postbackUrl = `https://loja.example.com.br/${'postbacks/'.repeat(8)}${HOSTILE}`;
  tx.refunds[0].reason = HOSTILE;
  for (const movement of tx.financial_movements) movement.description = `${movement.description} ${HOSTILE}`;
  for (const entry of tx.timeline) entry.note = HOSTILE;
  for (const event of events.data) {
    event.id = `evt_${HOSTILE}`;
    event.url = HOSTILE;
    for (const attempt of event.attempts) Object.assign(attempt, { error: HOSTILE, url: HOSTILE, response_excerpt: HOSTILE });
  }
  company.fantasy_name = HOSTILE;
  company.bank_name = HOSTILE;
  record = tx;
  answers.set(`GET /api/v2/invoices/${tx.id}`, tx);
  answers.set(`GET /api/v2/invoices/${tx.id}/events`, events);
  answers.set('GET /api/v2/company', company);
  answers.set(`POST /api/v2/events/${encodeURIComponent(`evt_${HOSTILE}`)}/resend`, { ...events.data[0], state: 'pending' });
}

beforeAll(async () => {
  real = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
  await hostileRecords();
  standIn = createServer((request, response) => {
    const body = answers.get(`${request.method} ${request.url}`);
    // it stands in for a pinvoice serve (it has the postback history), so it says so as serve does
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json', 'pinvoice-serve': '0.1.0' });
    response.end(JSON.stringify(body ?? { error: 'not_found', message: `no ${request.url}` }));
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  env = { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`, COLUMNS: '80' };
});
afterAll(async () => {
  await new Promise((resolve) => standIn?.close(resolve));
  await real?.stop();
});

describe('invoice get against a gateway answering hostile strings', () => {
  it('prints no raw control character, shows each one escaped, fits 80 columns, and has no expiry for a paid charge', async () => {
    const result = await run(['invoice', 'get', String(record.id)], { env });
    expect(result.code, result.stderr).toBe(0);
    noControlAtAll(result.stdout);
    noControlAtAll(result.stderr);
    for (const visible of VISIBLE) expect(result.stdout).toContain(visible);
    const lines = result.stdout.split('\n');
    expect(lines).toContain(record.pix.qrCode);
    expect(lines.filter((line) => displayWidth(line) > 80 && line !== record.pix.qrCode)).toEqual([]);
    for (const section of ['Summary', 'Payer', 'Items', 'Refunds', 'Financial movements', 'Timeline', 'Postbacks']) expect(lines).toContain(section);
    expect(result.stdout).not.toMatch(/expires/);
  });

  it('with colour, keeps its own colour codes and nothing else', async () => {
    const result = await run(['invoice', 'get', String(record.id)], { env: { ...env, FORCE_COLOR: '1' } });
    expect(result.stdout).toMatch(SGR);
    expect(rawControls(result.stdout)).toEqual([]);
    expect(result.stdout).not.toContain('\u001b[8m');
  });

  it('--json answers the record as it came, control characters escaped by JSON itself', async () => {
    const result = await run(['invoice', 'get', String(record.id), '--json'], { env });
    expect(JSON.parse(result.stdout)).toEqual(record);
    expect(result.stdout).toContain('\\u001b[2J');
    noC0(result.stdout);
  });
});

describe.each(['80', '60'])('other commands at %s columns', (columns) => {
  it.each([
    ['whoami', () => ['whoami']],
    ['events list', () => ['events', 'list', String(record.id)]],
    ['events resend', () => ['events', 'resend', `evt_${HOSTILE}`]],
  ])('%s prints no raw control character and fits', async (_name, args) => {
    const result = await run(args(), { env: { ...env, COLUMNS: columns } });
    expect(result.code, result.stderr).toBe(0);
    noControlAtAll(result.stdout);
    noControlAtAll(result.stderr);
    expect(result.stdout).toContain('\\x1b[2J');
    expect(result.stdout.split('\n').filter((line) => displayWidth(line) > Number(columns))).toEqual([]);
  });
});

describe('webhooks listen', () => {
  const SECRET = 'whsec_e2e_terminal_secret';
  const body = JSON.stringify({ id: HOSTILE, invoice_id: HOSTILE, event: `invoice.paid${HOSTILE}`, event_id: `evt_${HOSTILE}`, status: HOSTILE, total: 1990 });
  const post = async (url: string) => {
    const answer = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-webhook-signature': createHmac('sha256', SECRET).update(body).digest('hex') } });
    expect(answer.status).toBe(200);
  };

  it.each([
    ['without colour', {}],
    ['with colour', { FORCE_COLOR: '1' }],
  ])('prints a signed postback with hostile event and id fields escaped, %s', async (_name, colour) => {
    const listener = start(['webhooks', 'listen', '--port', '0', '--count', '1', '--timeout', '20'], { ...tempHome(), PINVOICE_WEBHOOK_SECRET: SECRET, ...colour });
    const url = (await listener.waitForLine((line) => line.replace(SGR, '').startsWith('postback_url: '))).replace(SGR, '').slice('postback_url: '.length);
    await post(url);
    expect(await listener.exited).toBe(0);
    const line = listener.lines().at(-1) ?? '';
    expect(line).toContain('signature ok');
    expect(rawControls(line)).toEqual([]);
    expect(line).not.toContain('\u001b[8m');
    for (const visible of VISIBLE) expect(line).toContain(visible);
    expect(rawControls(listener.stderr())).toEqual([]);
  });

  it('--json keeps the body as sent', async () => {
    const listener = start(['webhooks', 'listen', '--port', '0', '--json', '--count', '1', '--timeout', '20'], { ...tempHome(), PINVOICE_WEBHOOK_SECRET: SECRET });
    const ready = JSON.parse(await listener.waitForLine((line) => line.includes('"listening"')));
    await post(ready.url);
    expect(await listener.exited).toBe(0);
    const line = listener.lines().find((l) => l.includes('"type":"event"')) ?? '';
    noC0(line);
    expect(JSON.parse(line).payload).toEqual(JSON.parse(body));
  });
});
