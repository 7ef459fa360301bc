// `serve --log-format json` as a log collector reads it, on the engine of the run: the built binary's
// stderr parsed line by line, every line one JSON object; each request answered is a line with its
// id, operation, method, route template, status, duration and company, and no line holds the token
// (the one a first start creates included), a card number, a security code or a URL's query. Text
// logs are as they were.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../support/engine.js';
import { call, dbFor, killAll, pixBody, removeWorkDirs, startServe, workDir } from '../support/processes.js';

const CARD = '4111111111111111';
const CODE = '8642';
const WRONG = 'pinv_wrong_token_for_json_logs_01';
const cardBody = () => pixBody({ method: 'credit_card', card: { number: CARD, first_name: 'Fulano', last_name: 'de Tal', month: '12', year: '2030', security_code: CODE, installment: 1 } });

afterAll(async () => {
  await killAll();
  removeWorkDirs();
});

/** The requests every run makes, and what each one's line says of it. */
async function requests(url: string, token: string) {
  const created = await call(url, token, 'POST', '/api/v2/invoices', cardBody());
  expect(created.status).toBe(200);
  expect((await call(url, token, 'GET', `/api/v2/invoices/${created.body.data.secureId}`)).status).toBe(200);
  expect((await call(url, token, 'GET', `/api/v2/nothing-here?card=${CARD}&token=${token}`)).status).toBe(404);
  expect((await call(url, WRONG, 'GET', '/api/v2/company')).status).toBe(401);
  expect((await fetch(`${url}/dashboard?next=${token}`)).status).toBe(200);
  return [
    { operation: 'createInvoice', method: 'POST', route: '/api/v2/invoices', status: 200, company_id: 1 },
    { operation: 'getTransaction', method: 'GET', route: '/api/v2/invoices/:id', status: 200, company_id: 1 },
    // (an unknown path under /api/ with a valid token is the company's: the journal keeps it too)
    { operation: 'other', method: 'GET', route: null, status: 404, company_id: 1 },
    { operation: 'companyInfos', method: 'GET', route: '/api/v2/company', status: 401, company_id: null },
    { operation: 'other', method: 'GET', route: '/dashboard', status: 200, company_id: null },
  ];
}

describe(`serve --log-format json (${ENGINE})`, () => {
  it('writes one JSON object a line: each request answered with its fields, every message; never a token, card, code or query', async () => {
    const work = workDir('pinvoice-json-logs-');
    const envFile = join(work.dir, 'ci.env');
    // a first start without --token: the token it creates reaches the env file, never the log
    const node = await startServe(['--port', '0', '--db', await dbFor(work.dir, 'json'), '--log-format', 'json', '--write-env', envFile], work.env);
    const token = /^PINVOICE_TOKEN=(.+)$/m.exec(readFileSync(envFile, 'utf8'))?.[1]?.replace(/^'|'$/g, '') ?? '';
    expect(token.length).toBeGreaterThan(16);
    const expected = await requests(node.url, token);
    expect(await node.kill('SIGTERM')).toEqual({ code: 0, signal: null });

    expect(node.stdout()).toBe(`listening on ${node.url}\n`);
    const lines = node.stderr().split('\n').filter((line) => line !== '');
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of parsed) {
      expect(Date.parse(line.time as string), JSON.stringify(line)).not.toBeNaN();
      expect(['info', 'warn', 'error']).toContain(line.level);
      expect(typeof line.msg).toBe('string');
    }
    const answered = parsed.filter((line) => line.msg === 'answered');
    expect(answered.map(({ operation, method, route, status, company_id }) => ({ operation, method, route, status, company_id }))).toEqual(expected);
    for (const line of answered) {
      expect(line.request_id).toEqual(expect.any(String));
      expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(answered.map((line) => line.request_id)).size).toBe(answered.length);
    // the messages serve writes are lines of their own
    const messages = parsed.filter((line) => line.msg !== 'answered').map((line) => line.msg as string);
    expect(messages[0]).toBe(`listening on ${node.url}`);
    expect(messages).toContainEqual(expect.stringMatching(/^Created the sandbox company ".+" .*its token is not written to a JSON log/));
    expect(messages.at(-1)).toBe('SIGTERM: finishing requests in flight and closing the database');
    // nothing secret, no body, no query
    for (const secret of [token, WRONG, CARD, '4111 1111', CODE, 'security_code', '?card=', 'nothing-here']) {
      expect(lines.filter((line) => line.includes(secret)), secret).toEqual([]);
    }
  });

  it('text (the default) writes no JSON lines and no line per request', async () => {
    const work = workDir('pinvoice-text-logs-');
    const token = 'pinv_test_text_logs_token_0001';
    const node = await startServe(['--port', '0', '--db', await dbFor(work.dir, 'text'), '--token', token], work.env);
    await requests(node.url, token);
    expect(await node.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(node.stderr()).toMatch(/^dashboard: http:\/\/127\.0\.0\.1:\d+\/dashboard/m);
    expect(node.stderr().split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
  });
});
