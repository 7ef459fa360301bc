// Errors in the words of the person at the terminal, through the built binary: the flag they typed,
// amounts in reais, commands instead of API operation names, durations in human units, a URL's missing
// scheme suggested, errno codes said as sentences, and one `pinvoice:` prefix, commander's errors included.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve, tempHome, type RunResult, type ServeProcess } from '../support/cli.js';
import { ENGINE } from '../support/engine.js';

const TOKEN = 'pinv_test_e2e_user_terms_token_01';
const PAYER = ['--method', 'pix', '--payer-name', 'Fulano de Tal', '--payer-email', 'f@example.com', '--payer-document', '529.982.247-25'];
let server: ServeProcess;
let env: Record<string, string>;
let work: string;

beforeAll(async () => {
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
  env = { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
  work = mkdtempSync(join(tmpdir(), 'pinvoice-terms-'));
});
afterAll(() => server.stop());

const cli = (args: string[], extra: Record<string, string> = {}) => run(args, { env: { ...env, ...extra } });

/** The one line pinvoice said, the exit code, and none of the API's or the system's words. */
function saysOnly(result: RunResult, line: string, code: number): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code, stderr: `pinvoice: ${line}\n` });
  expect(result.stdout).toBe('');
  inUserTerms(result.stderr);
}

const inUserTerms = (stderr: string) => expect(stderr).not.toMatch(/_cents|EISDIR|ENOENT|ENOSPC|^error:|Create Refunded|Create Invoices/m);

const created = async (amount: string) => {
  const result = await cli(['invoice', 'create', ...PAYER, '--amount', amount, '--no-input', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return String(JSON.parse(result.stdout).id);
};

describe('a payload error names the flag that caused it, amounts in reais', () => {
  it('--amount 10 --item X:1:5', async () => {
    saysOnly(await cli(['invoice', 'create', ...PAYER, '--amount', '10', '--item', 'X:1:5', '--no-input']), '--amount: R$ 10,00 is not the sum of the items (--item): R$ 5,00', 2);
  });

  it('the same total in --file names its JSON path, with the amount in reais beside it', async () => {
    const file = join(work, 'sum.json');
    writeFileSync(file, JSON.stringify({ method: 'pix', payer: { name: 'F', email: 'f@example.com', cpf_cnpj: '52998224725' }, items: [{ name: 'X', quantity: 1, unit_price: 500 }], total_price_cents: 1000 }));
    const result = await cli(['invoice', 'create', '--file', file, '--no-input']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('pinvoice: total_price_cents (R$ 10,00): is not the sum of quantity × unit_price of the items, R$ 5,00\n');
  });

  it('several problems: each named by its flag, under one headline', async () => {
    const result = await cli(['invoice', 'create', ...PAYER, '--payer-email', 'bad', '--payer-document', '529.982.247-26', '--amount', '10', '--no-input']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('pinvoice: the charge is not valid:\n  --payer-email: "bad" must be an e-mail address\n  --payer-document: "529.982.247-26" is not a valid CPF: the check digits do not match\n');
  });

  it('the server’s refund cap (a 422 in cents) is said as --amount against what is left, in reais', async () => {
    const id = await created('100');
    expect((await cli(['sandbox', 'pay', id])).code).toBe(0);
    saysOnly(await cli(['invoice', 'refund', id, '--amount', '200', '--yes']), '--amount: R$ 200,00 is more than what is left to refund, R$ 100,00', 2);
    // the server itself keeps answering in API terms
    const answer = await fetch(`${server.url}/api/v2/invoices/${id}/refund`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: '{"amount_cents": 20000}' });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({ details: [{ path: 'amount_cents', message: 'must be at most 10000 (R$ 100,00 left to refund)' }] });
  });
});

describe('a URL without its scheme is suggested one, naming where it came from', () => {
  it.each([
    [['whoami', '--base-url', 'localhost:4311'], {}, '--base-url: "localhost:4311" has no scheme: did you mean http://localhost:4311?'],
    [['whoami'], { PINVOICE_BASE_URL: 'gw.example.com' }, 'PINVOICE_BASE_URL: "gw.example.com" has no scheme: did you mean https://gw.example.com?'],
    [['whoami', '--base-url', 'ftp://gw.example.com'], {}, '--base-url: "ftp://gw.example.com" is not an http or https URL (it is ftp:)'],
    [['invoice', 'create', ...PAYER, '--amount', '10', '--postback-url', 'localhost:3000/hook', '--dry-run'], {}, '--postback-url: "localhost:3000/hook" has no scheme: did you mean http://localhost:3000/hook?'],
    [['webhooks', 'listen', '--port', '0', '--forward-to', '127.0.0.1:3000/hook'], {}, '--forward-to: "127.0.0.1:3000/hook" has no scheme: did you mean http://127.0.0.1:3000/hook?'],
  ])('%j', async (args, extra, line) => saysOnly(await cli(args, extra), line, 2));
});

describe('errno codes said as what they mean, naming the flag and the path', () => {
  it.each([
    ['--file', () => ['invoice', 'create', '--file', work], () => `--file: ${work} is a folder, not a file`],
    ['--file', () => ['invoice', 'create', '--file', join(work, 'none.json')], () => `--file: ${join(work, 'none.json')} does not exist`],
    ['--batch', () => ['invoice', 'create', '--batch', work], () => `--batch: ${work} is a folder, not a file`],
    ['--token-file', () => ['whoami', '--token-file', work], () => `--token-file: ${work} is a folder, not a file`],
    ['--body', () => ['webhooks', 'verify', '--body', join(work, 'none.json'), '--signature', 't=1,v1=00'], () => `--body: ${join(work, 'none.json')} does not exist`],
    ['--out', () => ['invoice', 'create', '--batch', '-', '--out', join(work, 'no', 'such', 'out.ndjson')], () => `--out: ${join(work, 'no', 'such', 'out.ndjson')} cannot be written: the folder ${join(work, 'no', 'such')} does not exist`],
  ])('%s', async (_flag, args, line) => {
    const result = await run(args(), { env, input: `${JSON.stringify({ method: 'pix' })}\n` });
    saysOnly(result, line(), 2);
  });

  // (on PostgreSQL a test's --db path names a database: the folder is SQLite's to refuse)
  it.runIf(ENGINE === 'sqlite')('--db', async () => saysOnly(await cli(['serve', 'company', 'list', '--db', work]), `--db: ${work} is a folder, not a file`, 2));

  it('--out on a full disk (/dev/full): exit 1, the disk named', async () => {
    const line = JSON.stringify({ method: 'pix', payer: { name: 'F', email: 'f@example.com', cpf_cnpj: '52998224725' }, total_price_cents: 100 });
    const result = await run(['invoice', 'create', '--batch', '-', '--out', '/dev/full'], { env, input: `${line}\n` });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^pinvoice: --out: \/dev\/full cannot be written: the disk is full$/m);
    inUserTerms(result.stderr);
  });
});

describe('commands, not API operation names; durations in human units', () => {
  let gateway: Server;
  let gatewayUrl: string;
  beforeAll(async () => {
    // a gateway without pinvoice serve's extensions, that answers its company as a page
    gateway = createServer((request, response) => {
      if (request.url === '/api/v2/company') return void response.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>');
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => gateway.close(() => resolve())));

  it('a gateway without sandbox controls names the command that needs them', async () => {
    const result = await cli(['sandbox', 'pay', '1'], { PINVOICE_BASE_URL: gatewayUrl });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`pinvoice: this gateway (${gatewayUrl}) has no sandbox controls, which \`pinvoice sandbox pay\` needs: that is a \`pinvoice serve\` extension (the gateway answered HTTP 404)\n`);
  });

  it('an answer that is not JSON names the command, not "Company Infos"', async () => {
    const result = await cli(['whoami'], { PINVOICE_BASE_URL: gatewayUrl });
    expect(result.code).toBe(5);
    expect(result.stderr).toBe(`pinvoice: ${gatewayUrl} answered \`pinvoice whoami\` with HTTP 200 OK, but not with JSON\n`);
  });

  it('a watch that runs out says how long in human units', async () => {
    const id = await created('10');
    const result = await cli(['invoice', 'get', id, '--watch', '--timeout', '1', '--interval', '1', '--no-qr']);
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/^pinvoice: still pending after 1 s \(--timeout\)$/m);
  });

  it('the sandbox clock says how far ahead in hours and minutes', async () => {
    const result = await cli(['sandbox', 'clock', 'advance', '1h30m']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/│ offset │ 1 h 30 min ahead of real time/);
    expect((await cli(['sandbox', 'clock', 'reset'])).code).toBe(0);
  });

  it('the clock’s refusals: a jump too far in days, not seconds; going back names the command that resets', async () => {
    saysOnly(await cli(['sandbox', 'clock', 'advance', '1000w']), 'sandbox clock advance: 7000 days is more than the most it can be, 3660 days (ten years)', 2);
    const back = await cli(['sandbox', 'clock', 'set', '2020-01-01T00:00:00Z']);
    expect(back.code).toBe(2);
    expect(back.stderr).toMatch(/^pinvoice: The sandbox clock reads \S+: it only moves forward \(`pinvoice sandbox clock reset` goes back to real time\)\. \(HTTP 409 invalid_state\)\n$/);
  });

  it('a request with no answer says the wait in seconds or minutes, not milliseconds', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    try {
      const result = await cli(['whoami', '--timeout', '1'], { PINVOICE_BASE_URL: url });
      expect(result.code).toBe(5);
      expect(result.stderr).toBe(`pinvoice: no answer from ${url} within 1 s (--timeout, PINVOICE_TIMEOUT)\n`);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('one prefix for every error: commander’s usage errors too (exit 2)', () => {
  it.each([
    [['invoice', 'create', '--amout', '10'], "unknown option '--amout' (did you mean --amount?)"],
    [['invoice', 'get'], "missing required argument 'ref'"],
    [['invoice', 'get', '1', '--timeout', 'abc'], '--timeout: "abc" must be a whole number of seconds, at least 1'],
    [['invoice', 'list', '--format', 'xml'], '--format: "xml" is invalid: allowed choices are table, json, ndjson, csv'],
    [['invoce'], "unknown command 'invoce' (did you mean invoice?)"],
  ])('%j', async (args, line) => {
    const result = await cli(args);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: `pinvoice: ${line}\n(run with --help for usage)\n` });
    inUserTerms(result.stderr);
  });
});

it('a folder given to --file is told apart from a file in a folder that is a file', async () => {
  const file = join(work, 'plain.txt');
  writeFileSync(file, 'x');
  saysOnly(await cli(['invoice', 'create', '--file', join(file, 'charge.json')]), `--file: ${join(file, 'charge.json')} cannot be read: a part of the path before the file name is a file, not a folder`, 2);
});
