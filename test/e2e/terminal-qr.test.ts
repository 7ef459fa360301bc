// Issue 22, a QR any phone reads: the pix QR drawn by `invoice get --watch` and `invoice create` on a real
// terminal (tmux), read back from the captured screen under a dark and a light theme; and a pix code that
// can no longer be paid, shown under a warning and never as a QR.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { decodeTerminalQr, THEMES } from '../support/qr-decode.js';
import { validPix } from '../support/server.js';
import { onTmux, type TerminalRun } from '../support/tmux.js';

const TOKEN = 'pinv_test_terminal_qr_token_0123';
const work = mkdtempSync(join(tmpdir(), 'pinvoice-qr-'));
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

/** A terminal of `columns`×`rows` running the command, with colour: the QR in colours of its own, read on any theme. */
function terminal(args: string[], columns: number, rows: number): TerminalRun {
  const started = onTmux(args, { columns, rows, env: { ...env, NO_COLOR: '' } });
  terminals.push(started);
  return started;
}

async function createPix(): Promise<{ id: number; pix: { qrCode: string } }> {
  const created = await cli(['invoice', 'create', '--file', charge, '--json']);
  expect(created.code, created.stderr).toBe(0);
  return JSON.parse(created.stdout);
}

/** The screen read under each theme, as a phone would: what the QR on it encodes. */
const readUnderEachTheme = (screen: string): [string, string | null][] => THEMES.map((theme) => [theme.name, decodeTerminalQr(screen, theme)]);

describe('the pix QR on a terminal', () => {
  it('invoice get --watch on 80×24 keeps the QR whole beside the spinner, readable under dark and light themes; then the paid record', async () => {
    const tx = await createPix();
    const watching = terminal(['invoice', 'get', String(tx.id), '--watch', '--interval', '1', '--timeout', '30'], 80, 24);
    await watching.waitFor(/pending \(\d+ s\)/);
    expect(readUnderEachTheme(watching.screen())).toEqual([['dark', tx.pix.qrCode], ['light', tx.pix.qrCode]]);
    expect((await cli(['sandbox', 'pay', String(tx.id)])).code).toBe(0);
    expect(await watching.exitCode()).toBe(0);
    expect(watching.text()).toMatch(/Postbacks/);
  }, 40_000);

  it('invoice create ends with the pix code and its QR: whole on screen above the prompt, readable under both themes', async () => {
    const creating = terminal(['invoice', 'create', '--file', charge], 80, 25);
    expect(await creating.exitCode()).toBe(0);
    await creating.waitFor(/^\$ ?$/m);
    const [dark, light] = THEMES.map((theme) => decodeTerminalQr(creating.screen(), theme));
    expect(dark).toMatch(/^000201/);
    expect(light).toBe(dark);
    // the code read from the screen is the new charge's
    const found = JSON.parse((await cli(['invoice', 'get', dark ?? '', '--json'])).stdout);
    expect(found).toMatchObject({ status: 'pending', amount: 1990, pix: { qrCode: dark } });
  }, 30_000);
});

describe('a pix code that can no longer be paid', () => {
  it('an expired charge shows its code under a warning, and no QR even with --qr, saying why on stderr', async () => {
    const tx = await createPix();
    expect((await cli(['sandbox', 'expire', String(tx.id)])).code).toBe(0);
    const shown = await cli(['invoice', 'get', String(tx.id), '--qr']);
    expect(shown.code, shown.stderr).toBe(0);
    const lines = shown.stdout.split('\n');
    const at = lines.indexOf(tx.pix.qrCode);
    expect(lines.slice(at - 2, at)).toEqual([
      expect.stringMatching(/^expired \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [-+]\d\d:\d\d — this code can no longer be paid$/),
      'pix copy-and-paste code (expired, not payable):',
    ]);
    expect(shown.stdout).not.toMatch(/[▀▄█]/);
    expect(shown.stdout).not.toContain('\u001b');
    expect(shown.stderr).toMatch(/^no QR \(--qr\): expired .+ — this code can no longer be paid$/m);
  });

  it('on a terminal an expired charge draws no QR, and --watch ends at once (exit 7)', async () => {
    const tx = await createPix();
    expect((await cli(['sandbox', 'expire', String(tx.id)])).code).toBe(0);
    const shown = terminal(['invoice', 'get', String(tx.id)], 80, 100);
    expect(await shown.exitCode()).toBe(0);
    expect(shown.screen()).not.toMatch(/▀|48;5;231/);
    expect(shown.text()).toContain('this code can no longer be paid');
    const watched = await cli(['invoice', 'get', String(tx.id), '--watch', '--qr']);
    expect(watched.code).toBe(7);
    expect(watched.stdout).not.toMatch(/▀/);
  });

  it('a paid charge shows its code as paid, not as one to pay', async () => {
    const tx = await createPix();
    expect((await cli(['sandbox', 'pay', String(tx.id)])).code).toBe(0);
    const shown = await cli(['invoice', 'get', String(tx.id), '--qr']);
    expect(shown.stdout).toMatch(/^paid .+ — this code cannot be paid again$/m);
    expect(shown.stdout).not.toMatch(/[▀▄█]/);
    expect(shown.stderr).toMatch(/^no QR \(--qr\): paid /m);
  });
});

describe('--qr off a terminal', () => {
  it('draws the QR with its own colours, so the file scans when shown with cat on any theme; the record around it has none', async () => {
    const tx = await createPix();
    const shown = await run(['invoice', 'get', String(tx.id), '--qr'], { env: { ...env, NO_COLOR: '' } });
    expect(shown.stdout).toContain('\u001b[48;5;231m');
    for (const theme of THEMES) expect(decodeTerminalQr(shown.stdout.slice(shown.stdout.indexOf(`${tx.pix.qrCode}\n`) + tx.pix.qrCode.length + 1), theme)).toBe(tx.pix.qrCode);
    expect(shown.stdout.indexOf('\u001b')).toBeGreaterThan(shown.stdout.indexOf(tx.pix.qrCode));
  });

  it('with NO_COLOR, not one escape: the QR in the terminal\'s own colours, for the theme --qr-theme names', async () => {
    const tx = await createPix();
    for (const [flag, theme] of [['dark', THEMES[0]], ['light', THEMES[1]]] as const) {
      const shown = await cli(['invoice', 'get', String(tx.id), '--qr', '--qr-theme', flag]);
      expect(shown.stdout).not.toContain('\u001b');
      expect(decodeTerminalQr(shown.stdout.slice(shown.stdout.indexOf(`${tx.pix.qrCode}\n`) + tx.pix.qrCode.length + 1), theme)).toBe(tx.pix.qrCode);
    }
  });
});
