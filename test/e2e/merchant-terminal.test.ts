// Issue 22, the merchant's terminal: irreversible actions ask first on a terminal (and never a script),
// `invoice open` honours $BROWSER and reports a browser that fails, and the exits a script relies on:
// a card refused at creation (7), a replayed create, an empty batch (2), the login line of `serve company add`.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, cardCharge } from '../support/charges.js';
import { BIN, run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_merchant_terminal_0123';
const DRIVER = new URL('../support/pty-drive.py', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'pinvoice-merchant-'));
let server: ServeProcess;
let env: Record<string, string>;

beforeAll(async () => {
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
  env = { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
});
afterAll(() => server.stop());

const cli = (args: string[], extra: Record<string, string> = {}, input?: string) => run(args, { env: { ...env, ...extra }, ...(input !== undefined && { input }) });
const json = (text: string) => JSON.parse(text) as Record<string, any>;

async function createPix(): Promise<Record<string, any>> {
  const file = join(work, `pix-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(validPix()));
  const created = await cli(['invoice', 'create', '--file', file, '--json']);
  expect(created.code, created.stderr).toBe(0);
  return json(created.stdout);
}

async function paidPix(): Promise<Record<string, any>> {
  const tx = await createPix();
  expect((await cli(['sandbox', 'pay', String(tx.id)])).code).toBe(0);
  return tx;
}

const status = async (id: number) => json((await cli(['invoice', 'get', String(id), '--json'])).stdout).status as string;

/** Runs the CLI on a pseudo-terminal (stdin, stdout and stderr all on it), answering prompts by pattern. */
function onTerminal(args: string[], steps: [string, string][], extra: Record<string, string> = {}) {
  const result = spawnSync('python3', [DRIVER], {
    input: JSON.stringify({ argv: [process.execPath, BIN, ...args], env: { PATH: process.env.PATH ?? '', TERM: 'xterm', NO_COLOR: '1', ...env, ...extra }, steps, timeout: 15 }),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`pty driver failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { code: number; failure: string | null; transcript: string };
}

describe('irreversible actions ask on a terminal, --yes skips, scripts are never asked', () => {
  it('invoice refund says what it will refund and to whom; "no" refunds nothing (exit 130), "yes" refunds', async () => {
    const tx = await paidPix();
    const no = onTerminal(['invoice', 'refund', String(tx.id)], [['This cannot be undone', 'n\r']]);
    expect(no.failure).toBeNull();
    expect(no.transcript.replace(/\s+/g, ' ')).toContain(`Refund R$ 19,90 (all that is left) of charge ${tx.id} (${tx.secureId}, Fulano de Tal)? This cannot be undone.`);
    expect(no.code).toBe(130);
    expect(no.transcript).toMatch(/nothing was changed/);
    expect(await status(tx.id)).toBe('paid');
    const partial = onTerminal(['invoice', 'refund', String(tx.id), '--amount', '5,00'], [['Refund R\\$ 5,00 of charge', 'y\r']]);
    expect(partial.failure).toBeNull();
    expect(partial.code).toBe(0);
    expect(json((await cli(['invoice', 'get', String(tx.id), '--json'])).stdout)).toMatchObject({ status: 'paid', refundedAmount: 500 });
  });

  it('--yes refunds on a terminal without a question; without a terminal a refund needs --yes (exit 2, nothing sent)', async () => {
    const one = await paidPix();
    const yes = onTerminal(['invoice', 'refund', String(one.id), '--yes'], []);
    expect(yes.code).toBe(0);
    expect(yes.transcript).not.toMatch(/cannot be undone/);
    expect(await status(one.id)).toBe('refunded');
    const two = await paidPix();
    const script = await cli(['invoice', 'refund', String(two.id)]);
    expect(script.code).toBe(2);
    expect(script.stderr).toMatch(/needs --yes/);
    expect(script.stderr).not.toMatch(/cannot be undone/);
    expect(await status(two.id)).toBe('paid');
    const yesScript = await cli(['invoice', 'refund', String(two.id), '--yes']);
    expect(yesScript.code, yesScript.stderr).toBe(0);
    expect(await status(two.id)).toBe('refunded');
  });

  it('sandbox cancel and chargeback ask on a terminal; pay does not', async () => {
    const pending = await createPix();
    const cancel = onTerminal(['sandbox', 'cancel', String(pending.id)], [['Cancel charge', 'n\r']]);
    expect(cancel.code).toBe(130);
    expect(await status(pending.id)).toBe('pending');
    const pay = onTerminal(['sandbox', 'pay', String(pending.id)], []);
    expect(pay.code).toBe(0);
    expect(pay.transcript).not.toMatch(/\? /);
    const chargeback = onTerminal(['sandbox', 'chargeback', String(pending.id)], [['Charge back charge', 'y\r']]);
    expect(chargeback.code).toBe(0);
    expect(await status(pending.id)).toBe('chargedback');
  });

  it('logout asks before deleting a token that cannot be shown again', async () => {
    const home = tempHome();
    const login = await run(['login', '--profile', 'shop', '--base-url', server.url, '--token-stdin'], { env: home, input: TOKEN });
    expect(login.code, login.stderr).toBe(0);
    const no = onTerminal(['logout', '--profile', 'shop'], [['Remove profile "shop" and its token\\?', 'n\r']], home);
    expect(no.code).toBe(130);
    expect((await run(['profile', 'list'], { env: home })).stdout).toContain('shop');
    const yes = onTerminal(['logout', '--profile', 'shop', '--yes'], [], home);
    expect(yes.code).toBe(0);
    expect(yes.transcript).toMatch(/Profile "shop" and its token removed/);
    expect((await run(['profile', 'list'], { env: home })).stdout).not.toContain('shop');
  });
});

describe('invoice open and $BROWSER', () => {
  const recorder = (name: string, status = 0) => {
    const seen = join(work, `${name}.args`);
    const script = join(work, `${name}.sh`);
    writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$@" > '${seen}'\nexit ${status}\n`);
    chmodSync(script, 0o755);
    return { script, seen: () => readFileSync(seen, 'utf8') };
  };

  it('a $BROWSER with arguments gets them, the URL last (or where %s stands)', async () => {
    const tx = await createPix();
    const url = `${server.url}/checkout/${tx.invoice.token_checkout}`;
    const browser = recorder('with-args');
    const opened = await cli(['invoice', 'open', String(tx.id)], { BROWSER: `${browser.script} --new-window "a b"` });
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toBe(`${url}\n`);
    expect(opened.stderr).toMatch(/opened in the browser/);
    expect(browser.seen()).toBe(`--new-window\na b\n${url}\n`);
    const placed = await cli(['invoice', 'open', String(tx.id)], { BROWSER: `${browser.script} --url=%s --x` });
    expect(placed.code, placed.stderr).toBe(0);
    expect(browser.seen()).toBe(`--url=${url}\n--x\n`);
  });

  it('a browser that fails is reported: the URL still printed, exit 1; a list falls back to the next that works', async () => {
    const tx = await createPix();
    const url = `${server.url}/checkout/${tx.invoice.token_checkout}`;
    const failed = await cli(['invoice', 'open', String(tx.id)], { BROWSER: 'false' });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe(`${url}\n`);
    expect(failed.stderr).toMatch(/^pinvoice: the browser could not open the page: false exited with status 1/);
    const missing = await cli(['invoice', 'open', String(tx.id)], { BROWSER: 'no-such-browser-here' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no-such-browser-here was not found/);
    const browser = recorder('fallback');
    const fallback = await cli(['invoice', 'open', String(tx.id)], { BROWSER: `no-such-browser-here:false:${browser.script}` });
    expect(fallback.code, fallback.stderr).toBe(0);
    expect(browser.seen()).toBe(`${url}\n`);
  });
});

describe('exit codes scripts rely on', () => {
  it('a card refused at creation exits 7 with a stderr line, the record still shown (also with --json)', async () => {
    const file = join(work, 'declined.json');
    writeFileSync(file, JSON.stringify(cardCharge(CARDS.declined)));
    const shown = await cli(['invoice', 'create', '--file', file]);
    expect(shown.code).toBe(7);
    expect(shown.stdout).toMatch(/refused/);
    expect(shown.stderr).toMatch(/^pinvoice: charge \d+ was refused: generic_decline \(nothing was charged\)$/m);
    const asJson = await cli(['invoice', 'create', '--file', file, '--json']);
    expect(asJson.code).toBe(7);
    expect(json(asJson.stdout).status).toBe('refused');
    writeFileSync(file, JSON.stringify(cardCharge(CARDS.approved)));
    expect((await cli(['invoice', 'create', '--file', file])).code).toBe(0);
  });

  it('a create answered again for the same Idempotency-Key says it was replayed', async () => {
    const file = join(work, 'replay.json');
    writeFileSync(file, JSON.stringify(validPix()));
    const key = `replay-${Date.now()}`;
    const first = await cli(['invoice', 'create', '--file', file, '--idempotency-key', key, '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toMatch(/replayed/);
    const again = await cli(['invoice', 'create', '--file', file, '--idempotency-key', key, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(json(again.stdout).id).toBe(json(first.stdout).id);
    expect(again.stderr).toContain(`replayed (Idempotency-Key ${key}): the gateway had already created this charge`);
  });

  it('an empty batch exits 2 and writes no result file', async () => {
    const empty = join(work, 'empty.ndjson');
    writeFileSync(empty, '\n  \n\n');
    const out = join(work, 'empty-results.ndjson');
    const result = await cli(['invoice', 'create', '--batch', empty, '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^pinvoice: --batch .*empty\.ndjson: no request in it/);
    expect(() => readFileSync(out)).toThrow();
    const stdin = await cli(['invoice', 'create', '--batch', '-'], {}, '');
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toMatch(/--batch - \(stdin\): no request in it/);
  });

  it('serve company add prints the login line with the address of the server running on its database, or says it cannot tell', async () => {
    const home = tempHome();
    const db = join(home.HOME ?? work, 'shop.db');
    const running = await serve(['--port', '0', '--db', db], home);
    try {
      const added = await run(['serve', 'company', 'add', '--name', 'Loja Dois', '--db', db], { env: home });
      expect(added.code, added.stderr).toBe(0);
      expect(added.stderr).toContain(`--base-url ${running.url} --token-stdin`);
      expect(added.stderr).not.toMatch(/unknown/);
    } finally {
      await running.stop();
    }
    const after = await run(['serve', 'company', 'add', '--name', 'Loja Tres', '--db', db], { env: home });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain('--base-url <server URL> --token-stdin');
    expect(after.stderr).toMatch(/No pinvoice serve runs on .* on this machine, so its address is unknown/);
    // the token's own login line (serve token add) follows the same server
    const again = await serve(['--port', '0', '--db', db], home);
    try {
      const token = await run(['serve', 'token', 'add', '--company', '1', '--name', 'alice', '--db', db], { env: home });
      expect(token.code, token.stderr).toBe(0);
      expect(token.stderr).toContain(`--base-url ${again.url} --token-stdin`);
    } finally {
      await again.stop();
    }
  });
});
