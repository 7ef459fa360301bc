// The guided `invoice create` and its ending, as a merchant at a terminal meets them: prompts that stay
// off stdout (so `create --json > out.json` and `login > log` hold only data), answers changed from
// the summary before sending, and the closing line that says what was created and what to run next.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { startProductionGateway, type ProductionGateway } from '../support/production-gateway.js';

const TOKEN = 'pinv_test_interactive_create_0123';
const DRIVER = new URL('../support/pty-drive.py', import.meta.url).pathname;
let server: ServeProcess;
beforeAll(async () => {
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
});
afterAll(() => server.stop());

type Steps = [pattern: string, typed: string][];
interface Driven { code: number; failure: string | null; transcript: string }

/** Runs `argv` on a pseudo-terminal (test/support/pty-drive.py), answering each prompt as it appears. */
function drive(argv: string[], steps: Steps, extraEnv: Record<string, string> = {}, size?: [number, number]): Driven {
  const home = tempHome();
  const env = { PATH: process.env.PATH ?? '', HOME: home.HOME ?? '', TERM: 'xterm', NO_COLOR: '1', PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url, PINVOICE_CONFIG_DIR: join(home.HOME ?? '', 'cfg'), ...extraEnv };
  const result = spawnSync('python3', [DRIVER], { input: JSON.stringify({ argv, env, steps, timeout: 15, size }), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pty driver failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Driven;
}

const pinvoice = (...args: string[]) => [process.execPath, BIN, ...args];
/** The command under sh with its stdout sent to a file, as `pinvoice … > file` typed at a terminal: stderr (and stdin) stay on the terminal. */
const redirected = (...args: string[]) => ['sh', '-c', 'exec "$0" "$@" > "$STDOUT_FILE"', process.execPath, BIN, ...args];
const outFile = (name: string) => join(mkdtempSync(join(tmpdir(), 'pinvoice-out-')), name);

const api = { PINVOICE_TOKEN: TOKEN } as Record<string, string>;
const cli = (args: string[]) => run(args, { env: { ...tempHome(), ...api, PINVOICE_BASE_URL: server.url } });
async function record(id: string): Promise<Record<string, any>> {
  const got = await cli(['invoice', 'get', id, '--json']);
  expect(got.code, got.stderr).toBe(0);
  return JSON.parse(got.stdout) as Record<string, any>;
}
async function chargeCount(): Promise<number> {
  const answer = await fetch(`${server.url}/api/v2/invoices`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return ((await answer.json()) as { data: unknown[] }).data.length;
}
/** The id in the closing line `Created pix charge 12 (INV-…) …`. */
const createdId = (text: string) => /Created \w+ charge (\d+)\b/.exec(text)?.[1] ?? '';
const lastLines = (text: string, n: number) => text.trimEnd().split('\n').slice(-n);

const PIX_PAYER: Steps = [
  ['Payment method', '\r'],
  ['Payer name', 'Fulano de Tal\r'],
  ['Payer e-mail', 'fulano@example.com\r'],
  ['Payer CPF or CNPJ', '529.982.247-25\r'],
  ['Item 1 name', 'Camiseta\r'],
  ['Item 1 quantity', '\r'],
  ['Item 1 unit price', '25\r'],
  ['Add another item', 'n\r'],
];
const SEND: [string, string] = ['Create this charge\\?', '\r'];
/** Picks an entry under the summary by typing its beginning (the select jumps to it), then Enter. */
const choose = (entry: string): [string, string] => ['Create this charge\\?', `${entry}\r`];

describe('prompts stay off stdout', () => {
  it('`invoice create --json > out.json` asks on the terminal and the file holds only the record', async () => {
    const file = outFile('out.json');
    const driven = drive(redirected('invoice', 'create', '--json'), [...PIX_PAYER, SEND], { STDOUT_FILE: file });
    expect(driven.failure).toBeNull();
    expect(driven.code).toBe(0);
    expect(driven.transcript).toMatch(/Payer e-mail/);
    const text = readFileSync(file, 'utf8');
    const created = JSON.parse(text) as Record<string, any>;
    expect(created).toMatchObject({ status: 'pending', amount: 2500, customer: { email: 'fulano@example.com' } });
    // with --json nothing else is said: no closing line on the terminal either
    expect(driven.transcript).not.toMatch(/Created pix charge/);
  });

  it('`login > log` asks for the token on the terminal, hidden; the log holds neither the prompt nor the token', () => {
    const file = outFile('log');
    const driven = drive(redirected('login', '--profile', 'tty', '--base-url', server.url), [['Access token', `${TOKEN}\r`]], { STDOUT_FILE: file });
    expect(driven.failure).toBeNull();
    expect(driven.code).toBe(0);
    expect(driven.transcript).toMatch(/Access token/);
    expect(driven.transcript).not.toContain(TOKEN);
    const log = readFileSync(file, 'utf8');
    expect(log).not.toMatch(/Access token/);
    expect(log).not.toContain(TOKEN);
    expect(log).toBe('');
  });
});

describe('changing an answer from the summary', () => {
  it('"Edit payer e-mail", a new address, send: the charge is created with it', async () => {
    const driven = drive(pinvoice('invoice', 'create'), [
      ...PIX_PAYER,
      choose('Edit payer e-mail'),
      ['Payer e-mail \\(fulano@example\\.com\\)', 'beltrana@example\r'],
      ['e-mail address', '.com\r'], // refused inline until it is one
      SEND,
    ]);
    expect(driven.failure).toBeNull();
    expect(driven.code).toBe(0);
    const id = createdId(driven.transcript);
    expect((await record(id)).customer.email).toBe('beltrana@example.com');
  });

  it('pix to boleto from the summary asks the address, shows it, and creates a boleto', async () => {
    const driven = drive(pinvoice('invoice', 'create'), [
      ...PIX_PAYER,
      choose('Edit payment method'),
      ['Payment method', 'Boleto\r'],
      ['Payer CEP', '01310-100\r'],
      ['Street', 'Avenida Paulista\r'],
      ['Street number', '1000\r'],
      ['City', 'São Paulo\r'],
      ['State \\(UF\\)', 'sp\r'],
      ['address\\s+│ Avenida Paulista, 1000 · São Paulo/SP · CEP 01310-100[\\s\\S]*Create this charge\\?', '\r'],
    ]);
    expect(driven.failure).toBeNull();
    expect(driven.code).toBe(0);
    const created = await record(createdId(driven.transcript));
    expect(created.paymentMethod).toBe('boleto');
    expect(created.customer.address).toMatchObject({ street: 'Avenida Paulista', streetNumber: '1000', city: 'São Paulo', state: 'SP' });
  });

  it('the summary of a card shows its installments, masked number and no security code', () => {
    const driven = drive(pinvoice('invoice', 'create', '--method', 'credit_card', '--payer-name', 'A B', '--payer-email', 'a@b.co', '--payer-document', '52998224725', '--amount', '90'), [
      ['Card number', '4111 1111 1111 1111\r'],
      ['first name', 'Fulano\r'],
      ['last name', 'de Tal\r'],
      ['Expiry month', '12\r'],
      ['Expiry year', '2039\r'],
      ['Security code', '987\r'],
      ['Installments', '3\r'],
      ['installments\\s+│ 3x[\\s\\S]*Create this charge\\?', 'Cancel\r'],
    ]);
    expect(driven.failure).toBeNull();
    expect(driven.transcript).toMatch(/card\s+│ •••• 1111/);
    expect(driven.transcript).toMatch(/security code\s+│ •••/);
    expect(driven.transcript).not.toContain('987');
  });

  it('Cancel at the summary creates nothing and exits 130', async () => {
    const before = await chargeCount();
    const driven = drive(pinvoice('invoice', 'create', '--method', 'pix', '--payer-name', 'A B', '--payer-document', '52998224725', '--amount', '5'), [
      ['Payer e-mail', 'a@b.co\r'],
      choose('Cancel'),
    ]);
    expect(driven.failure).toBeNull();
    expect(driven.code).toBe(130);
    expect(driven.transcript).toMatch(/charge not created: nothing was sent/);
    expect(await chargeCount()).toBe(before);
  });
});

// ---- The closing line ---------------------------------------------------------------------------

const PAYER_FLAGS = ['--payer-name', 'Fulano de Tal', '--payer-email', 'f@example.com', '--payer-document', '529.982.247-25', '--no-input'];
const BOLETO_FLAGS = ['--payer-zip', '01310-100', '--payer-address', 'Avenida Paulista', '--payer-number', '1000', '--payer-city', 'São Paulo', '--payer-state', 'SP'];

describe('the closing line after a create (stderr, last)', () => {
  it('a pending pix: what was created, then open and --watch; stdout holds the record only', async () => {
    const result = await cli(['invoice', 'create', '--method', 'pix', '--amount', '25,00', ...PAYER_FLAGS]);
    expect(result.code, result.stderr).toBe(0);
    const id = createdId(result.stderr);
    const [created, next] = lastLines(result.stderr, 2);
    expect(created).toMatch(new RegExp(`^Created pix charge ${id} \\(INV-[\\d-]+\\) R\\$ 25,00 — pending$`));
    expect(next).toBe(`Next: pinvoice invoice open ${id}  (the payer's page)  ·  pinvoice invoice get ${id} --watch`);
    expect(result.stdout).not.toMatch(/Created pix charge|Next:/);
    expect(result.stdout).toMatch(/INV-/);
  });

  it('a pending boleto: open and --watch too', async () => {
    const result = await cli(['invoice', 'create', '--method', 'boleto', '--amount', '159,90', ...PAYER_FLAGS, ...BOLETO_FLAGS]);
    expect(result.code, result.stderr).toBe(0);
    const id = createdId(result.stderr);
    expect(lastLines(result.stderr, 2)).toEqual([
      expect.stringMatching(new RegExp(`^Created boleto charge ${id} \\(INV-[\\d-]+\\) R\\$ 159,90 — pending$`)),
      `Next: pinvoice invoice open ${id}  (the payer's page)  ·  pinvoice invoice get ${id} --watch`,
    ]);
  });

  it('a card waiting for 3-D Secure on pinvoice serve: `3ds --sample`, which then pays it', async () => {
    const result = await cli(['invoice', 'create', '--method', 'credit_card', '--card-token', 'tok_4000000000003220', '--amount', '90', ...PAYER_FLAGS]);
    expect(result.code, result.stderr).toBe(0);
    const id = createdId(result.stderr);
    expect(lastLines(result.stderr, 2)).toEqual([
      expect.stringMatching(new RegExp(`^Created card charge ${id} \\(INV-[\\d-]+\\) R\\$ 90,00 — waiting_3ds$`)),
      `Next: pinvoice invoice 3ds ${id} --sample  (sandbox values that authenticate)  ·  pinvoice invoice get ${id} --watch`,
    ]);
    const followed = await cli(['invoice', '3ds', id, '--sample', '--json']);
    expect(followed.code, followed.stderr).toBe(0);
    expect(JSON.parse(followed.stdout).status).toBe('paid');
  });

  it('a paid card: the created line, no next step', async () => {
    const result = await cli(['invoice', 'create', '--method', 'credit_card', '--card-token', 'tok_4111111111111111', '--installments', '2', '--amount', '90', ...PAYER_FLAGS]);
    expect(result.code, result.stderr).toBe(0);
    expect(lastLines(result.stderr, 1)[0]).toMatch(/^Created card charge \d+ \(INV-[\d-]+\) R\$ 90,00 — paid$/);
    expect(result.stderr).not.toMatch(/Next:/);
  });

  it('a refused card: the created line says refused', async () => {
    const result = await cli(['invoice', 'create', '--method', 'credit_card', '--card-token', 'tok_4000000000009995', '--amount', '90', ...PAYER_FLAGS]);
    expect(result.stderr).toMatch(/^Created card charge \d+ \(INV-[\d-]+\) R\$ 90,00 — refused$/m);
    expect(result.stderr).not.toMatch(/Next:/);
  });

  it('--json: nothing but the record on stdout, no closing line', async () => {
    const result = await cli(['invoice', 'create', '--method', 'pix', '--amount', '25,00', ...PAYER_FLAGS, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'pending' });
    expect(result.stderr).not.toMatch(/Created|Next:/);
  });

  it('on a terminal: a receipt, no record: the pix code, the QR, then what was created and the next step, last', () => {
    const driven = drive(pinvoice('invoice', 'create', '--method', 'pix', '--amount', '25,00', ...PAYER_FLAGS), [], {}, [120, 50]);
    expect(driven.code).toBe(0);
    const id = createdId(driven.transcript);
    const lines = driven.transcript.trimEnd().split('\n');
    expect(lines.slice(-5)).toEqual([
      expect.stringMatching(/^Created pix charge \d+ \(INV-[\d-]+\) R\$ 25,00 — pending$/),
      expect.stringMatching(/^expires \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [-+]\d\d:\d\d \(in (1 h|59 min)\)$/),
      'Next:',
      `  pinvoice invoice open ${id}   # the payer's page`,
      `  pinvoice invoice get ${id} --watch`,
    ]);
    expect(lines.findIndex((line) => line.startsWith('000201'))).toBeLessThan(lines.findIndex((line) => /[▀▄█]/.test(line)));
    expect(driven.transcript).not.toMatch(/secure id|Payer/);
  });
});

describe('the closing line against the production gateway', () => {
  let gateway: ProductionGateway;
  beforeAll(async () => {
    gateway = await startProductionGateway();
  });
  afterAll(() => gateway.close());
  const prod = (args: string[]) => run(args, { env: { ...tempHome(), PINVOICE_TOKEN: gateway.token, PINVOICE_BASE_URL: `${gateway.url}/api/v2` } });

  it('a pending pix: open (its checkout token is known) and --watch', async () => {
    const result = await prod(['invoice', 'create', '--method', 'pix', '--amount', '25,00', ...PAYER_FLAGS]);
    expect(result.code, result.stderr).toBe(0);
    const id = createdId(result.stderr);
    expect(lastLines(result.stderr, 2)).toEqual([
      expect.stringMatching(new RegExp(`^Created pix charge ${id} \\(INV-[\\w-]+\\) R\\$ 25,00 — pending$`)),
      `Next: pinvoice invoice open ${id}  (the payer's page)  ·  pinvoice invoice get ${id} --watch`,
    ]);
  });

  it('a card waiting for 3-D Secure: no sandbox values suggested', async () => {
    const waiting = gateway.addRecord({ status: 'waiting_3ds', paymentMethod: 'credit_card', amount: 9000 });
    gateway.once('POST', /^\/api\/v2\/invoices\/?$/, { status: 200, body: { data: { invoice_id: waiting.secureId, qr_code_pix: null, status: 'waiting_3ds' } } });
    const result = await prod(['invoice', 'create', '--method', 'credit_card', '--card-token', 'tok_1', '--amount', '90', ...PAYER_FLAGS]);
    expect(result.code, result.stderr).toBe(0);
    expect(lastLines(result.stderr, 2)).toEqual([
      `Created card charge ${waiting.id} (${waiting.secureId}) R$ 90,00 — waiting_3ds`,
      `Next: pinvoice invoice 3ds ${waiting.id} --file <values.json>  (the payer's 3-D Secure values)  ·  pinvoice invoice get ${waiting.id} --watch`,
    ]);
    expect(result.stderr).not.toMatch(/--sample/);
  });
});
