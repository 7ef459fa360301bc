// `pinvoice logs` end to end: the built binary against `pinvoice serve` (SQLite, and PostgreSQL in that
// project's run), one server for the file. `logs tail` as a child process, live; `logs list` with its
// filters, as a table and as JSON; `logs show` of a card create, redacted; `logs clear` and its --yes;
// flags refused before any request. (Against production's stand-in, test/production/cli-write.test.ts.)
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, cardCharge, SECURITY_CODE } from '../support/charges.js';
import { run, serve, start, tempHome, type LongRunning, type ServeProcess } from '../support/cli.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_e2e_logs_000000001';
let server: ServeProcess;
let receiver: Receiver;
let env: Record<string, string>;
const tails: LongRunning[] = [];

beforeAll(async () => {
  // the first postback attempt is answered 500, the retry (100 ms later) 200
  receiver = await startReceiver((_, index) => (index === 0 ? 500 : 200));
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN, '--postback-base-delay', '100', '--postback-timeout', '2000'], tempHome());
  env = { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
});
afterAll(async () => {
  await Promise.all(tails.map((tail) => tail.stop('SIGKILL')));
  await server?.stop();
  await receiver?.close();
});

const cli = (args: string[], extra: Record<string, string> = {}) => run(args, { env: { ...env, ...extra } });

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const answer = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

/** A pix charge with no postback_url, unless one is given. */
const pix = (overrides: Record<string, unknown> = {}) => validPix({ postback_url: undefined, ...overrides });
const refused = () => api('POST', '/api/v2/invoices', { method: 'pix', payer: { name: 'Fulano' } });

/** `logs list --json` with these flags: the page as sent. */
async function listed(...flags: string[]): Promise<{ data: any[]; next_cursor: number; dropped: number }> {
  const result = await cli(['logs', 'list', '--json', '--limit', '500', ...flags]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

/** `logs tail` with these flags, once it says it is watching (the stream is open: what comes next is shown). */
async function tail(...flags: string[]): Promise<LongRunning> {
  const child = start(['logs', 'tail', ...flags], env);
  tails.push(child);
  await eventually(() => child.stderr().includes('Ctrl-C stops') || child.child.exitCode !== null, 15_000, `logs tail ${flags.join(' ')} watching`)
    .catch((error: Error) => Promise.reject(new Error(`${error.message}; stderr: ${child.stderr()}`)));
  expect(child.child.exitCode, child.stderr()).toBeNull();
  return child;
}

describe('logs tail', () => {
  it('prints a request made after it started within 1 s, as a line and as a JSON line, and exits 0 on Ctrl-C', async () => {
    const [lines, json] = await Promise.all([tail(), tail('--json')]);
    const started = performance.now();
    const company = await api('GET', '/api/v2/company');
    expect(company.status).toBe(200);
    const line = await lines.waitForLine((text) => text.includes('GET /api/v2/company'), 5000);
    const took = performance.now() - started;
    expect(took, `the line came after ${Math.round(took)} ms`).toBeLessThan(1000);
    expect(line).toMatch(/^\d+ {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d -03:00 {2}→ GET \/api\/v2\/company {2}200 {2}\d+ ms {2}\S+/);

    const text = await json.waitForLine((text) => text.includes('/api/v2/company'), 5000);
    const entry = JSON.parse(text);
    expect(entry).toMatchObject({ direction: 'in', method: 'GET', path: '/api/v2/company', status: 200 });
    expect(json.lines().map((each) => JSON.parse(each))).toHaveLength(1);
    expect(line.startsWith(`${entry.id}  `)).toBe(true);

    for (const child of [lines, json]) {
      expect(await child.stop('SIGINT')).toBe(0);
      expect(child.stderr()).not.toContain(TOKEN);
    }
  });

  it('--status 4xx shows a refused create, and not the create answered 200 before it', async () => {
    const child = await tail('--status', '4xx');
    expect((await api('POST', '/api/v2/invoices', pix())).status).toBe(200);
    expect((await refused()).status).toBe(422);
    const line = await child.waitForLine((text) => text.includes('POST /api/v2/invoices'), 5000);
    expect(line).toMatch(/ 422 .*\/total_price_cents is required/);
    // entries come in order: the 200 (written first) would have been printed before the 422
    expect(child.lines()).toEqual([line]);
    expect(await child.stop('SIGTERM')).toBe(0);
  });
});

describe('logs list', () => {
  let secureId: string;
  let chargeId: number;

  beforeAll(async () => {
    const created = await api('POST', '/api/v2/invoices', pix({ postback_url: `${receiver.url}/logs` }));
    expect(created.status).toBe(200);
    ({ secureId, id: chargeId } = created.body.data);
    expect((await api('GET', `/api/v2/invoices/${secureId}`)).status).toBe(200);
    expect((await refused()).status).toBe(422);
    // the created event: attempt 1 answered 500, attempt 2 200
    await eventually(async () => (await listed('--direction', 'out', '--charge', secureId)).data.length >= 2, 10_000, 'two postback attempts journaled');
  });

  it('--charge <secureId>: its create, its lookup and its postback attempts, nothing of other charges', async () => {
    const page = await listed('--charge', secureId);
    expect(page.data.map((entry) => `${entry.direction} ${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'in POST /api/v2/invoices 200', `in GET /api/v2/invoices/${secureId} 200`, 'out POST /postbacks/logs 500', 'out POST /postbacks/logs 200',
    ]);
    expect(page.data.every((entry) => entry.invoice_ids.includes(chargeId))).toBe(true);
    expect(page.dropped).toBe(0);
  });

  it('--direction out: the postback attempts with their event, attempt number, URL and the receiver’s answer', async () => {
    const page = await listed('--direction', 'out');
    expect(page.data.length).toBeGreaterThanOrEqual(2);
    expect(page.data.every((entry) => entry.direction === 'out')).toBe(true);
    expect(page.data.slice(0, 2).map((entry) => [entry.event, entry.attempt, entry.url, entry.status]))
      .toEqual([['invoice.created', 1, `${receiver.url}/logs`, 500], ['invoice.created', 2, `${receiver.url}/logs`, 200]]);
  });

  it('--method and --status 4xx narrow to what they name', async () => {
    const gets = await listed('--method', 'get');
    expect(gets.data.length).toBeGreaterThan(0);
    expect(gets.data.every((entry) => entry.method === 'GET')).toBe(true);
    const refusals = await listed('--status', '4xx');
    expect(refusals.data.length).toBeGreaterThanOrEqual(1);
    expect(refusals.data.every((entry) => entry.status >= 400 && entry.status < 500)).toBe(true);
    expect(refusals.data.at(-1).problems).toContainEqual({ path: '/total_price_cents', message: 'is required' });
    // all three at once: exactly the creates answered 200 of the whole journal, this file's charge among them
    const creates = (await listed()).data.filter((entry) => entry.method === 'POST' && entry.status === 200 && entry.path === '/api/v2/invoices');
    expect(creates.some((entry) => entry.invoice_ids.includes(chargeId)), 'the charge of this describe\'s create').toBe(true);
    const posts = await listed('--method', 'POST', '--status', '200', '--path', '/api/v2/invoices');
    expect(posts.data.map((entry) => entry.id)).toEqual(creates.map((entry) => entry.id));
  });

  it('as a table: the requests and the postback attempts of the charge, a row each, and the zone on stderr', async () => {
    const result = await cli(['logs', 'list', '--charge', secureId], { COLUMNS: '100' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/│ id +│ time +│ request +│ answer +│ token \/ event +│ charges +│/);
    expect(result.stdout).toMatch(/→ in POST +│ 200/);
    expect(result.stdout).toMatch(/← out POST +│ 500 +│ invoice\.created #1/);
    expect(result.stdout).toContain(`${receiver.url}/logs`);
    expect(result.stderr).toBe('4 entries, oldest first; times in America/Sao_Paulo\n');
  });

  it('--after a cursor continues from it', async () => {
    const all = await listed();
    const next = await listed('--after', String(all.data[1].id), '--limit', '1');
    expect(next.data.map((entry) => entry.id)).toEqual([all.data[2].id]);
    expect(next.next_cursor).toBe(all.data[2].id);
  });
});

describe('logs show', () => {
  it('a card create: the number as 411111******1111 and no security code, anywhere in stdout or stderr', async () => {
    const created = await api('POST', '/api/v2/invoices', cardCharge(CARDS.approved, { postback_url: undefined, metadata: { order: 'logs-show' } }));
    expect(created.status).toBe(200);
    const [entry] = (await listed('--charge', String(created.body.data.id), '--method', 'POST')).data;
    const shown = await cli(['logs', 'show', String(entry.id)], { COLUMNS: '120' });
    const json = await cli(['logs', 'show', String(entry.id), '--json']);
    for (const result of [shown, json]) {
      expect(result.code, result.stderr).toBe(0);
      const all = result.stdout + result.stderr;
      expect(all).toContain('"number": "411111******1111"');
      expect(all).not.toContain(CARDS.approved);
      expect(all).not.toContain(`"${SECURITY_CODE}"`);
      expect(all).not.toContain('security_code');
      expect(all).not.toContain(TOKEN);
    }
    expect(shown.stdout).toMatch(/│ status +│ 200 +│/);
    expect(shown.stdout).toMatch(/│ charges +│ \d+ +│/);
    expect(shown.stdout).toMatch(/│ authorization +│ Bearer pinv_tes…0001 +│/);
    expect(shown.stdout).toContain('Request body\n{\n  "method": "credit_card"');
    expect(JSON.parse(json.stdout)).toMatchObject({ id: entry.id, body: { card: { number: '411111******1111' } }, status: 200 });
  });

  it('a refused create lists its problems by JSON pointer; an id that is not there exits 4', async () => {
    expect((await refused()).status).toBe(422);
    const [entry] = (await listed('--status', '422')).data.slice(-1);
    const shown = await cli(['logs', 'show', String(entry.id)], { COLUMNS: '120' });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/Problems\n[\s\S]*│ \/total_price_cents +│ is required +│/);
    const missing = await cli(['logs', 'show', '987654']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('no journal entry "987654"');
  });
});

describe('flags the server would refuse are usage errors, before any request', () => {
  // a base URL where nothing listens: a request would fail with exit 5, not 2
  it.each([
    [['logs', 'list', '--status', '4x'], '--status: "4x" must be a status such as 422, or a class such as 4xx'],
    [['logs', 'tail', '--direction', 'up'], '--direction: "up" is invalid: allowed choices are in, out'],
    [['logs', 'tail', '--method', 'P0ST'], '--method: "P0ST" must be an HTTP method'],
    [['logs', 'list', '--path', 'invoices'], '--path: "invoices" must be a path starting with /'],
    [['logs', 'list', '--limit', '501'], '--limit: "501" must be a whole number of entries from 1 to 500'],
    [['logs', 'list', '--charge', 'a b'], '--charge: "a b" must be a charge\'s integer id or secureId'],
    [['logs', 'show', 'last'], '<id>: "last" must be an entry id'],
    [['logs', 'clear'], 'there is no terminal to ask: pass --yes'],
  ])('%j exits 2', async (args, message) => {
    const result = await cli(args, { PINVOICE_BASE_URL: 'http://127.0.0.1:9' });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });
});

describe('logs clear', () => {
  it('without a terminal and without --yes clears nothing; with --yes it clears', async () => {
    const before = (await listed()).data.length;
    expect(before).toBeGreaterThan(0);
    const refusedClear = await cli(['logs', 'clear']);
    expect(refusedClear.code).toBe(2);
    expect(refusedClear.stderr).toContain('--yes');
    expect((await listed()).data).toHaveLength(before);

    const cleared = await cli(['logs', 'clear', '--yes', '--json']);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(JSON.parse(cleared.stdout)).toEqual({ cleared: before });
    expect(await listed()).toMatchObject({ data: [], dropped: 0 });
  });
});
