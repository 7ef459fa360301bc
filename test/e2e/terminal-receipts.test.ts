// Issue 33, the terminal as the best CLIs treat it: NO_COLOR, --no-color and TERM=dumb write not one escape
// byte (the QR drawn in the terminal's own colours, its polarity by --qr-theme); create, pay and refund
// answer a receipt that fits an 80×24 screen (--full: the record); a refund without a terminal needs --yes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { DARK_THEME, decodeTerminalQr, LIGHT_THEME } from '../support/qr-decode.js';
import { displayWidth } from '../../src/cli/render/width.js';
import { validPix } from '../support/server.js';
import { onTmux, type TerminalRun } from '../support/tmux.js';

const TOKEN = 'pinv_test_terminal_receipts_0123';
const DRIVER = new URL('../support/pty-drive.py', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'pinvoice-receipts-'));
const charge = join(work, 'pix.json');
let server: ServeProcess;
let env: Record<string, string>;
const terminals: TerminalRun[] = [];

beforeAll(async () => {
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
  env = { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
  writeFileSync(charge, JSON.stringify(validPix()));
});
afterEach(() => terminals.splice(0).forEach((terminal) => terminal.stop()));
afterAll(() => server.stop());

const cli = (args: string[]) => run(args, { env });
const json = (text: string) => JSON.parse(text) as Record<string, any>;

interface PtyRun { code: number; failure: string | null; transcript: string; escapes: number }

/** The CLI on a pseudo-terminal of a given size (stdin, stdout and stderr on it), with `extra` in its environment. */
function onPty(args: string[], extra: Record<string, string>, size: [number, number] = [80, 24], steps: [string, string][] = []): PtyRun {
  const result = spawnSync('python3', [DRIVER], {
    input: JSON.stringify({ argv: [process.execPath, BIN, ...args], env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', ...env, ...extra }, steps, timeout: 20, size }),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`pty driver failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as PtyRun;
}

async function created(): Promise<Record<string, any>> {
  const answer = await cli(['invoice', 'create', '--file', charge, '--json']);
  expect(answer.code, answer.stderr).toBe(0);
  return json(answer.stdout);
}

/** The first pix code in a text: a bare line starting 000201. */
const codeIn = (text: string) => text.split('\n').find((line) => line.startsWith('000201'));

const NO_COLOUR: [string, Record<string, string>, string[]][] = [
  ['NO_COLOR=1', { NO_COLOR: '1' }, []],
  ['--no-color', {}, ['--no-color']],
  ['TERM=dumb', { TERM: 'dumb' }, []],
];

describe('no colour: not one escape byte, the QR included', () => {
  it.each(NO_COLOUR)('%s: create, get, the watch spinner, pay and refund on a terminal write no ESC; the QR reads on a dark theme', async (_name, extra, flags) => {
    const create = onPty(['invoice', 'create', '--file', charge, ...flags], extra, [120, 40]);
    expect(create.code, create.transcript).toBe(0);
    expect(create.escapes).toBe(0);
    const code = codeIn(create.transcript);
    expect(code).toMatch(/^000201/);
    expect(decodeTerminalQr(create.transcript, DARK_THEME)).toBe(code);
    const id = String(json((await cli(['invoice', 'get', code ?? '', '--json'])).stdout).id);
    const get = onPty(['invoice', 'get', id, ...flags], extra, [120, 40]);
    expect([get.code, get.escapes]).toEqual([0, 0]);
    expect(decodeTerminalQr(get.transcript.slice(get.transcript.indexOf(code ?? '')), DARK_THEME)).toBe(code);
    const watch = onPty(['invoice', 'get', id, '--watch', '--timeout', '2', '--interval', '1', ...flags], extra, [120, 40]);
    expect([watch.code, watch.escapes]).toEqual([8, 0]);
    expect(watch.transcript).toMatch(/pending \(\d+ s\)/);
    for (const args of [['sandbox', 'pay', id], ['invoice', 'refund', id, '--amount', '1,00', '--yes']]) {
      const done = onPty([...args, ...flags], extra);
      expect([done.code, done.escapes], done.transcript).toEqual([0, 0]);
    }
  }, 60_000);

  it('--qr-theme light, PINVOICE_QR_THEME=light and COLORFGBG=0;15 draw for a light theme: read there, not on a dark one', async () => {
    for (const [extra, flags] of [[{}, ['--qr-theme', 'light']], [{ PINVOICE_QR_THEME: 'light' }, []], [{ COLORFGBG: '0;15' }, []]] as const) {
      const tx = await created();
      const shown = onPty(['invoice', 'get', String(tx.id), ...flags], { NO_COLOR: '1', ...extra }, [120, 40]);
      expect([shown.code, shown.escapes]).toEqual([0, 0]);
      const screen = shown.transcript.slice(shown.transcript.indexOf(tx.pix.qrCode));
      expect([decodeTerminalQr(screen, LIGHT_THEME), decodeTerminalQr(screen, DARK_THEME)], JSON.stringify(extra)).toEqual([tx.pix.qrCode, null]);
    }
  }, 30_000);

  it('a PINVOICE_QR_THEME that is neither word is named (exit 2), and --qr-theme takes only dark or light', async () => {
    const tx = await created();
    const bad = onPty(['invoice', 'get', String(tx.id)], { NO_COLOR: '1', PINVOICE_QR_THEME: 'sepia' });
    expect(bad.code).toBe(2);
    expect(bad.transcript).toMatch(/PINVOICE_QR_THEME "sepia" is neither dark nor light/);
    const flag = await cli(['invoice', 'get', String(tx.id), '--qr-theme', 'sepia']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--qr-theme.*sepia/);
  });
});

/** A terminal of columns×rows running the CLI; the screen is read with its colours. */
function terminal(args: string[], columns: number, rows: number, extra: Record<string, string> = {}): TerminalRun {
  const started = onTmux(args, { columns, rows, env: { ...env, ...extra } });
  terminals.push(started);
  return started;
}

describe('the create receipt fits one screen', () => {
  it.each([[80, 24], [120, 40]])('on %i×%i: summary, code, QR and next step all on screen above the prompt, no line wider than the terminal', async (columns, rows) => {
    const creating = terminal(['invoice', 'create', '--file', charge], columns, rows);
    expect(await creating.exitCode()).toBe(0);
    const screen = await creating.waitFor(/^\$ ?$/m);
    const code = decodeTerminalQr(creating.screen(), DARK_THEME);
    expect(code).toMatch(/^000201/);
    expect(decodeTerminalQr(creating.screen(), LIGHT_THEME)).toBe(code);
    const tx = json((await cli(['invoice', 'get', code ?? '', '--json'])).stdout);
    // beside the QR (80×24) the text is a column starting where "Created" does; stacked (120×40), whole lines
    const column = screen.split('\n').find((line) => line.includes('Created'))?.indexOf('Created') ?? -1;
    const text = screen.split('\n').map((line) => line.slice(column)).join('\n');
    expect(column >= 0 && column < columns).toBe(true);
    expect(text.replace(/\s+/g, ' ')).toContain(`Created pix charge ${tx.id} (${tx.secureId}) R$ 19,90 — pending`);
    expect(text.replace(/\s+/g, ' ')).toMatch(/Next: .*pinvoice invoice open \d+ .*pinvoice invoice get \d+ (\\ )?--watch/);
    // the code on screen: whole on a line of its own (stacked, which the terminal folds), or cut to the column beside the QR
    const bare = (value: string) => value.replace(/ /g, '');
    expect(creating.joined().split('\n').includes(tx.pix.qrCode) || bare(text.split('\n').join('')).includes(bare(tx.pix.qrCode))).toBe(true);
    // the whole receipt above the prompt: nothing scrolled away (the pane's history is empty), the prompt on its last row at most
    expect(creating.scrolledAway(), 'rows scrolled off the screen').toBe(0);
    expect(screen.split('\n').findIndex((line) => /^\$ ?$/.test(line))).toBeLessThan(rows);
    for (const line of creating.joined().split('\n')) {
      if (line !== tx.pix.qrCode) expect(line.length, line).toBeLessThanOrEqual(columns);
    }
    expect(screen).not.toMatch(/Payer|Items|Timeline/);
  }, 30_000);

  it('--full shows the whole record, as invoice get does; piped output is the record as before', async () => {
    const full = onPty(['invoice', 'create', '--file', charge, '--full'], { NO_COLOR: '1' }, [120, 40]);
    expect(full.code).toBe(0);
    expect(full.transcript).toMatch(/Payer/);
    expect(full.transcript).toMatch(/Created pix charge/);
    const piped = await cli(['invoice', 'create', '--file', charge]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/Payer/);
    expect(piped.stderr).toMatch(/^Created pix charge .*\nNext: /m);
  }, 30_000);

  it('sandbox pay and refund answer receipts: what was done, the fee or what is left, and where the record is', async () => {
    const tx = await created();
    const pay = onPty(['sandbox', 'pay', String(tx.id)], { NO_COLOR: '1' });
    expect(pay.code).toBe(0);
    expect(pay.transcript).toMatch(new RegExp(`^Paid charge ${tx.id} \\(${tx.secureId}\\) R\\$ 19,90 — paid\\r?\\nfee R\\$ [\\d,]+ · net R\\$ [\\d,]+`, 'm'));
    expect(pay.transcript).not.toMatch(/Payer/);
    const refund = onPty(['invoice', 'refund', String(tx.id), '--amount', '5,00', '--reason', 'one returned', '--yes'], { NO_COLOR: '1' });
    expect(refund.code).toBe(0);
    expect(refund.transcript).toMatch(/Refunded R\$ 5,00 of charge \d+ .*\n.*refunded R\$ 5,00 of R\$ 19,90 in all; R\$ 14,90 left\s*\n.*reason: one returned/);
    expect(refund.transcript).toMatch(/pinvoice invoice get \d+ +# the whole record/);
    const full = onPty(['invoice', 'refund', String(tx.id), '--amount', '1,00', '--yes', '--full'], { NO_COLOR: '1' });
    expect(full.code, `refund --full's exit code; its transcript: ${full.transcript}`).toBe(0);
    expect(full.transcript).toMatch(/Refunds/);
  }, 30_000);
});

describe('a refund without a terminal needs --yes', () => {
  it('piped, without --yes: exit 2 naming --yes, nothing refunded; with --yes it refunds', async () => {
    const tx = await created();
    expect((await cli(['sandbox', 'pay', String(tx.id)])).code).toBe(0);
    const refused = await cli(['invoice', 'refund', String(tx.id), '--json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    expect(refused.stdout).toBe('');
    expect(json((await cli(['invoice', 'get', String(tx.id), '--json'])).stdout)).toMatchObject({ status: 'paid', refundedAmount: 0 });
    const journal = json((await cli(['logs', 'list', '--method', 'POST', '--path', `*/refund*`, '--json'])).stdout);
    expect(JSON.stringify(journal)).not.toContain(`/${tx.id}/refund`);
    const refunded = await cli(['invoice', 'refund', String(tx.id), '--yes', '--json']);
    expect(refunded.code, refunded.stderr).toBe(0);
    expect(json(refunded.stdout).status).toBe('refunded');
  });

  it('sandbox-only actions keep working without it', async () => {
    const tx = await created();
    expect((await cli(['sandbox', 'cancel', String(tx.id)])).code).toBe(0);
  });
});

describe('no line wider than the terminal', () => {
  it('on an 80-column terminal: the record, lists, help, errors and the closing lines fit; only a bare code or URL is left to the terminal', async () => {
    const tx = await created();
    expect((await cli(['sandbox', 'pay', String(tx.id)])).code).toBe(0);
    const runs = [
      ['invoice', 'create', '--file', charge, '--full'], ['invoice', 'get', String(tx.id)], ['invoice', 'list'], ['events', 'list', String(tx.id)],
      ['logs', 'list', '--limit', '5'], ['whoami'], ['sandbox', 'clock'], ['--help'], ['invoice', 'create', '--help'],
      ['invoice', 'get', 'pedido-that-does-not-exist-anywhere-at-all'], ['invoice', 'refund', String(tx.id), '--amount', '500,00', '--yes'],
    ];
    for (const args of runs) {
      const shown = onPty(args, { NO_COLOR: '1' });
      const wide = shown.transcript.split('\n').filter((line) => displayWidth(line) > 80 && !/^\S+$/.test(line) && !line.startsWith('000201'));
      expect(wide, `pinvoice ${args.join(' ')}`).toEqual([]);
    }
  }, 90_000);
});
