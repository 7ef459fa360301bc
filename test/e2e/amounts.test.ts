// Amounts typed in reais, through the built binary: read exactly, or refused (exit 2) naming the flag.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, run, serve, tempHome, type ServeProcess } from '../support/cli.js';

const TOKEN = 'pinv_test_e2e_amounts_token_0001';
const DRIVER = new URL('../support/pty-drive.py', import.meta.url).pathname;
const PAYER = ['--method', 'pix', '--payer-name', 'Fulano de Tal', '--payer-email', 'f@example.com', '--payer-document', '529.982.247-25'];
let server: ServeProcess;
let env: Record<string, string>;

beforeAll(async () => {
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
  env = { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
});
afterAll(() => server.stop());

const cli = (args: string[]) => run(args, { env });
const dryRun = (...flags: string[]) => cli(['invoice', 'create', ...PAYER, ...flags, '--dry-run', '--no-input']);

describe('create flags read reais exactly', () => {
  it.each([
    ['1.234,56', 123456],
    ['1,234.56', 123456],
    ['1234,56', 123456],
    ['12.50', 1250],
    ['1,5', 150],
    ['R$ 1.000.000,00', 100000000],
  ])('--amount %s --dry-run prints total_price_cents %d', async (typed, cents) => {
    const result = await dryRun('--amount', typed);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total_price_cents: cents });
  });

  it('--item unit prices in reais, summed into the total', async () => {
    const result = await dryRun('--item', 'Camiseta:2:1.234,56', '--item', 'Meia:1:0,99');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ items: [{ unit_price: 123456 }, { unit_price: 99 }], total_price_cents: 247011 });
  });
});

describe('create flags refuse what would be a guess (exit 2, naming the flag)', () => {
  it.each([
    [['--amount', '12,345'], /^pinvoice: --amount: "12,345" is ambiguous: .*; write 12,35 or 12\.345,00$/m],
    [['--amount', '1.234'], /^pinvoice: --amount: "1\.234" is ambiguous: .*; write 1,23 or 1\.234,00$/m],
    [['--amount', '1.23,45'], /^pinvoice: --amount: "1\.23,45" groups its thousands wrong/m],
    [['--amount', '12.34.56'], /^pinvoice: --amount: "12\.34\.56" groups its thousands wrong/m],
    [['--item', 'X:1:0,999'], /^pinvoice: --item "X:1:0,999" unit price: "0,999" has 3 decimal places; centavos take at most 2: write 1,00$/m],
    [['--item', 'X:1:1,234'], /^pinvoice: --item "X:1:1,234" unit price: "1,234" is ambiguous/m],
  ])('%j', async (flags, message) => {
    const result = await dryRun(...flags);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });
});

describe('the caps are told in reais to whoever typed reais', () => {
  it.each([
    [['--amount', '1.000.000,01'], /^pinvoice: --amount: at most R\$ 1\.000\.000,00, not R\$ 1\.000\.000,01$/m],
    [['--amount', '0,00'], /^pinvoice: --amount: at least R\$ 0,01, not R\$ 0,00$/m],
    [['--item', 'X:1:2.000.000,00'], /^pinvoice: --item "X:1:2\.000\.000,00" unit price: at most R\$ 1\.000\.000,00, not R\$ 2\.000\.000,00$/m],
    [['--item', 'X:1:0'], /^pinvoice: --item "X:1:0" unit price: at least R\$ 0,01, not R\$ 0,00$/m],
    [['--item', 'X:2:600.000,00'], /^pinvoice: --item "X:2:600\.000,00": 2 × R\$ 600\.000,00 is more than the R\$ 1\.000\.000,00 one charge can be$/m],
    [['--item', 'X:1:600.000,00', '--item', 'Y:1:500.000,00'], /^pinvoice: --item: the items add up to R\$ 1\.100\.000,00; one charge can be at most R\$ 1\.000\.000,00$/m],
  ])('%j', async (flags, message) => {
    const result = await dryRun(...flags);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/cents|100000000/);
  });
});

describe('invoice refund --amount', () => {
  it('refuses 1,234 and a cap in reais before sending anything, then refunds 5,00', async () => {
    const created = await cli(['invoice', 'create', ...PAYER, '--amount', '19,90', '--no-input', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id = String(JSON.parse(created.stdout).id);
    expect((await cli(['sandbox', 'pay', id])).code).toBe(0);

    const ambiguous = await cli(['invoice', 'refund', id, '--amount', '1,234', '--yes']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/^pinvoice: --amount: "1,234" is ambiguous: .*; write 1,23 or 1\.234,00$/m);
    const capped = await cli(['invoice', 'refund', id, '--amount', '2.000.000,00', '--yes']);
    expect(capped.code).toBe(2);
    expect(capped.stderr).toMatch(/^pinvoice: --amount: at most R\$ 1\.000\.000,00, not R\$ 2\.000\.000,00$/m);

    const refunded = await cli(['invoice', 'refund', id, '--amount', '5,00', '--yes', '--json']);
    expect(refunded.code, refunded.stderr).toBe(0);
    // Nothing was refunded by the refused attempts: only the R$ 5,00.
    expect(JSON.parse(refunded.stdout)).toMatchObject({ status: 'paid', refundedAmount: 500 });
  });
});

describe('the prompts read amounts with the same parser', () => {
  it('refuses 12,345 and 0,999 at the unit price prompt, then takes 12,50', () => {
    const home = tempHome();
    const ptyEnv = { PATH: process.env.PATH ?? '', HOME: home.HOME ?? '', TERM: 'xterm', NO_COLOR: '1', PINVOICE_CONFIG_DIR: join(home.HOME ?? '', 'cfg') };
    const erase = (text: string) => '\x7f'.repeat(text.length);
    const steps: [string, string][] = [
      ['Item 1 name', 'Camiseta\r'],
      ['Item 1 quantity', '\r'],
      ['Item 1 unit price', '12,345\r'],
      ['is ambiguous', `${erase('12,345')}0,999\r`],
      ['3 decimal places', `${erase('0,999')}12,50\r`],
      ['Add another item', 'n\r'],
      ['Create this charge', 'y\r'],
    ];
    const argv = [process.execPath, BIN, 'invoice', 'create', ...PAYER, '--dry-run'];
    const driven = spawnSync('python3', [DRIVER], { input: JSON.stringify({ argv, env: ptyEnv, steps, timeout: 15 }), encoding: 'utf8' });
    expect(driven.status, driven.stderr).toBe(0);
    const result = JSON.parse(driven.stdout) as { code: number; failure: string | null; transcript: string };
    expect(result.failure).toBeNull();
    expect(result.code).toBe(0);
    expect(result.transcript).toMatch(/write 12,35 or 12\.345,00/);
    expect(result.transcript).toMatch(/"total_price_cents": 1250/);
  });
});
