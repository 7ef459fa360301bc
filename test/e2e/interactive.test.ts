import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePixCode } from '../../src/domain/pix.js';
import { BIN, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { readsFrom } from '../support/journal.js';

const TOKEN = 'pinv_test_interactive_token_0123';
const DRIVER = new URL('../support/pty-drive.py', import.meta.url).pathname;
/**
 * A line of the terminal QR as the driver's transcript has it (colour is on; its codes stripped): upper half blocks
 * and spaces, as wide as the QR (its version depends on the code, whose location names the server's host
 * and port); its first and last lines, quiet zone only, are blank. Reading the QR back is
 * terminal-qr.test.ts's, on tmux, with its colours.
 */
const QR_LINE = /^(?=.*▀)[ ▀]{21,}$/gm;

/** The QR drawn whole: every line as wide as the first, two module rows a line, the two quiet-zone lines blank. */
function expectWholeQr(lines: string[] | null): void {
  expect(lines).not.toBeNull();
  const width = (lines as string[])[0]?.length ?? 0;
  expect(new Set((lines as string[]).map((line) => line.length))).toEqual(new Set([width]));
  expect(lines).toHaveLength(Math.ceil(width / 2) - 2);
}
let server: ServeProcess;
beforeAll(async () => {
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
});
afterAll(() => server.stop());

function drive(args: string[], steps: [string, string][]) {
  const home = tempHome();
  const env = { PATH: process.env.PATH ?? '', HOME: home.HOME ?? '', TERM: 'xterm', PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url, PINVOICE_CONFIG_DIR: join(home.HOME ?? '', 'cfg') };
  // a terminal tall enough for the create receipt to stack: its QR lines then hold nothing else
  const result = spawnSync('python3', [DRIVER], { input: JSON.stringify({ argv: [process.execPath, BIN, ...args], env, steps, timeout: 15, size: [120, 50] }), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pty driver failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { code: number; failure: string | null; transcript: string };
}

/** The same driver, run in the background, so that the test can act while the program waits. */
function driveInBackground(args: string[]): Promise<{ code: number; failure: string | null; transcript: string }> {
  const home = tempHome();
  const env = { PATH: process.env.PATH ?? '', HOME: home.HOME ?? '', TERM: 'xterm', PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url, PINVOICE_CONFIG_DIR: join(home.HOME ?? '', 'cfg') };
  const child = spawn('python3', [DRIVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stdin.end(JSON.stringify({ argv: [process.execPath, BIN, ...args], env, steps: [], timeout: 25 }));
  return new Promise((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`pty driver exited ${code}`)))));
}

describe('invoice get --watch on a terminal', () => {
  it('--qr shows the QR and the pix code while waiting, before the spinner, then the paid record', async () => {
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const body = { method: 'pix', total_price_cents: 1990, payer: { name: 'Fulano de Tal', email: 'f@example.com', cpf_cnpj: '52998224725' } };
    const answer = (await (await fetch(`${server.url}/api/v2/invoices`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { data: { id: number; secureId: string; qr_code_pix: string } };
    const created = answer.data;
    const reads = await readsFrom(server.url, TOKEN, created.id);
    const watching = driveInBackground(['invoice', 'get', String(created.id), '--watch', '--qr', '--interval', '1', '--timeout', '20']);
    await reads.seen(2); // the watch has read the charge pending and polled it once
    expect((await fetch(`${server.url}/api/v2/sandbox/invoices/${created.id}/pay`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
    const run = await watching;
    expect(run.failure).toBeNull();
    expect(run.code).toBe(0);
    // the code, then the QR, then the spinner on the QR's last line
    const codeAt = run.transcript.indexOf(created.qr_code_pix);
    const qrAt = run.transcript.search(QR_LINE);
    const spinnerAt = run.transcript.indexOf('pending (', qrAt);
    const paidAt = run.transcript.search(/status\s+│?\s*paid/);
    expect(codeAt).toBeGreaterThanOrEqual(0);
    expect(qrAt).toBeGreaterThan(codeAt);
    expectWholeQr(run.transcript.slice(qrAt, spinnerAt).match(QR_LINE));
    expect(spinnerAt).toBeGreaterThan(qrAt);
    expect(paidAt).toBeGreaterThan(spinnerAt);
    // drawn once, before the wait: the final record does not draw it again
    expect(run.transcript.slice(paidAt).match(QR_LINE)).toBeNull();
  }, 40_000);
});

describe('invoice create through a pseudo-terminal', () => {
  it('guides a merchant through a pix charge with inline validation, then draws the QR', () => {
    const run = drive(['invoice', 'create'], [
      ['Payment method', '\r'],
      ['Payer name', 'Fulano de Tal\r'],
      ['Payer e-mail', 'fulano@example.com\r'],
      ['Payer CPF or CNPJ', '529.982.247-26\r'],
      ['check digit|not a valid', '\x7f\x7f25\r'],
      ['Item 1 name', 'Camiseta\r'],
      ['Item 1 quantity', '2\r'],
      ['Item 1 unit price', '9,95\r'],
      ['Add another item', 'n\r'],
      ['Create this charge', '\r'], // Enter: "Send this charge", the first entry
    ]);
    expect(run.failure).toBeNull();
    expect(run.code).toBe(0);
    expect(run.transcript).toMatch(/R\$ 19,90/);
    const code = /^(000201.+)$/m.exec(run.transcript)?.[1];
    expect(code).toBeDefined();
    expect(parsePixCode(code ?? '').amountCents).toBe(1990);
    expectWholeQr(run.transcript.match(QR_LINE));
    expect(run.transcript).toMatch(/INV-\d+-\d+-\d+/);
  });

  it('Ctrl-C at a prompt cancels with exit code 130 and no stack trace', () => {
    const run = drive(['invoice', 'create'], [['Payment method', '\r'], ['Payer name', '\x03']]);
    expect(run.code).toBe(130);
    expect(run.transcript).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  });

  it('Cancel at the summary creates nothing (exit 130)', () => {
    const run = drive(['invoice', 'create', '--method', 'pix', '--payer-name', 'A B', '--payer-email', 'a@b.co', '--payer-document', '52998224725'], [
      ['Item 1 name', 'Meia\r'],
      ['Item 1 quantity', '\r'],
      ['Item 1 unit price', '5\r'],
      ['Add another item', 'n\r'],
      ['Create this charge', 'Cancel\r'],
    ]);
    expect(run.code).toBe(130);
    expect(run.transcript).toMatch(/not created/);
  });

  it('login asks for the token with a hidden prompt', () => {
    const run = drive(['login', '--profile', 'tty', '--base-url', server.url], [['Access token', `${TOKEN}\r`]]);
    expect(run.code).toBe(0);
    expect(run.transcript).not.toContain(TOKEN);
    expect(run.transcript).toMatch(/Logged in to/);
  });
});
