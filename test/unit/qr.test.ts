import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { describe, it, expect } from 'vitest';
import { drawQr, renderQr } from '../../src/cli/render/qr.js';
import { displayWidth } from '../../src/cli/render/width.js';
import { makeTxid } from '../../src/domain/ids.js';
import { MAX_CENTS, MIN_CENTS } from '../../src/domain/money.js';
import { buildPixCode } from '../../src/domain/pix.js';
import { pixCodeOf } from '../../src/server/invoices/payment-data.js';
import { sandboxProfile } from '../../src/server/seed.js';
import { decodeTerminalQr, terminalQrModules, THEMES, type Theme } from '../support/qr-decode.js';

/**
 * The location's host as these limits are pinned for: 18 characters (`serve --public-host
 * pix.pinvoice.local`); the default, `127.0.0.1:4010`, is shorter and never needs more.
 */
const LOCATION = 'pix.pinvoice.local/qr/v2';

/** A pix code as `pinvoice serve` makes one (src/server/invoices/payment-data.ts): dynamic, with a location ending in a fresh txid. */
function serverPixCode(amountCents: number, fantasyName?: string, txid = makeTxid(randomBytes(64), new Date())): string {
  return pixCodeOf(sandboxProfile({ fantasyName }, randomBytes), amountCents, `${LOCATION}/${txid}`);
}

const ESC = '\u001b';
const code = serverPixCode(1990);
/** A txid of mixed-case letters (as most are): one of digits and capitals alone would pack tighter. */
const FIXED_TXID = makeTxid(new Uint8Array(64).fill(30), new Date('2026-11-25T12:00:00Z'));

// The server's own company, and names as long as fit version 7 at the largest amount (see the limit below).
const SERVER_CODES: [string, string][] = [
  ['the smallest amount', serverPixCode(MIN_CENTS)],
  ['R$ 19,90', code],
  ['the largest amount', serverPixCode(MAX_CENTS)],
  ['a one-letter company', serverPixCode(MAX_CENTS, 'A')],
  ['a 17-character company name, accented', serverPixCode(MAX_CENTS, 'Padaria São Jorge')],
  ['a 25-character company name in capitals', serverPixCode(MAX_CENTS, 'PADARIA E CONFEITARIA SAO')],
  ['a 25-character company name, mixed case and accented (the server writes it in capitals)', serverPixCode(MAX_CENTS, 'Padaria e Confeitaria São', FIXED_TXID)],
];

/** The rows and columns of dark modules: the symbol, whose bounds the quiet zone surrounds. */
function symbolBounds(modules: boolean[][]) {
  const rows = modules.flatMap((row, r) => (row.includes(true) ? [r] : []));
  const columns = modules.flatMap((row) => row.flatMap((dark, c) => (dark ? [c] : [])));
  return { top: Math.min(...rows), bottom: Math.max(...rows), left: Math.min(...columns), right: Math.max(...columns) };
}

describe('drawQr: our pix codes on an 80×24 terminal', () => {
  describe.each(SERVER_CODES)('%s', (_name, pix) => {
    const drawing = drawQr(pix);
    const block = drawing.lines.join('\n');

    it.each(THEMES.map((theme): [string, Theme] => [theme.name, theme]))('decodes to the exact code under a %s theme', (_theme, theme) => {
      expect(decodeTerminalQr(block, theme)).toBe(pix);
    });

    it('is a version 7 symbol or smaller, at most 24 lines and 80 columns', () => {
      expect(drawing.version).toBeLessThanOrEqual(7);
      expect(drawing.size).toBeLessThanOrEqual(45);
      expect(drawing.lines.length).toBeLessThanOrEqual(24);
      expect(Math.max(...drawing.lines.map(displayWidth))).toBeLessThanOrEqual(80);
    });

    it.each(THEMES.map((theme): [string, Theme] => [theme.name, theme]))('has a light quiet zone of at least one module on every side under a %s theme', (_theme, theme) => {
      const modules = terminalQrModules(block, theme);
      const { top, bottom, left, right } = symbolBounds(modules);
      expect(bottom - top + 1).toBe(drawing.size);
      expect(right - left + 1).toBe(drawing.size);
      expect(Math.min(top, modules.length - 1 - bottom, left, (modules[0]?.length ?? 0) - 1 - right)).toBeGreaterThanOrEqual(1);
    });
  });

  it.each([[1, 10], [5, 100], [7, 150], [8, 190], [10, 270]])('ends with a line of quiet zone only, which --watch leaves its spinner to draw (version %i)', (version, length) => {
    const drawing = drawQr('x'.repeat(length));
    expect(drawing.version).toBe(version);
    for (const theme of THEMES) expect(terminalQrModules(drawing.lines.at(-1) ?? '', theme).flat()).not.toContain(true);
  });

  it('holds the server\'s codes at version 7 only at level L: at M the same code needs version 8', () => {
    expect(QRCode.create(code, { errorCorrectionLevel: 'M' }).version).toBeGreaterThan(7);
    expect(drawQr(code).version).toBe(7);
  });

  it('the limit: a 25-character name full of punctuation at the largest amount needs version 8 (26 lines), which still decodes', () => {
    const long = serverPixCode(MAX_CENTS, "Joao's Bar & Grill (Ctr.)", FIXED_TXID);
    const drawing = drawQr(long);
    expect(drawing.version).toBe(8);
    expect(drawing.lines).toHaveLength(26);
    for (const theme of THEMES) expect(decodeTerminalQr(drawing.lines.join('\n'), theme)).toBe(long);
  });
});

describe('renderQr', () => {
  it.each([
    ['a single character', 'x'],
    ['digits', '12345678901234567890'],
    ['a URL', 'https://pix.pinvoice.local/checkout/Qm9uZGlhUGl4Q2hlY2tvdXRUb2tlbjEy'],
    ['a static pix code', buildPixCode({ merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', amountCents: 1250, key: '+5511987654321' })],
    ['accented UTF-8 text', 'São Paulo — ação ✓'],
    ['500 characters', 'ABCDEFGHIJ'.repeat(50)],
  ])('round-trips %s under both themes', (_name, text) => {
    for (const theme of THEMES) expect(decodeTerminalQr(renderQr(text), theme)).toBe(text);
  });

  it('draws a changed code differently', () => {
    const changed = `${code.slice(0, -4)}0000`;
    expect(decodeTerminalQr(renderQr(changed))).toBe(changed);
    expect(renderQr(changed)).not.toBe(renderQr(code));
  });

  it('holds only spaces, upper half blocks and colour codes; each line sets its colours and ends with a reset', () => {
    const { lines, width } = drawQr(code);
    const colour = new RegExp(`${ESC}\\[(?:38|48);5;(?:16|231)m`, 'g');
    for (const line of lines) {
      expect(line.replace(colour, '')).toMatch(new RegExp(`^[ ▀]+${ESC}\\[0m$`));
      expect(line.startsWith(`${ESC}[48;5;16m`) || line.startsWith(`${ESC}[48;5;231m`)).toBe(true);
      expect(displayWidth(line)).toBe(width);
    }
    expect(renderQr(code).endsWith('\n')).toBe(false);
  });
});

describe('decodeTerminalQr', () => {
  /** The same symbol drawn as qrcode-terminal drew it: light modules in the terminal's foreground colour, dark ones left to its background. */
  function foregroundDrawing(text: string): string {
    const modules = terminalQrModules(renderQr(text));
    const lines: string[] = [];
    for (let r = 0; r < modules.length; r += 2) {
      lines.push((modules[r] ?? []).map((dark, c) => {
        const lower = modules[r + 1]?.[c] ?? false;
        return !dark && !lower ? '█' : !dark ? '▀' : !lower ? '▄' : ' ';
      }).join(''));
    }
    return lines.join('\n');
  }

  it('reads a drawing left to the default colours under a dark theme only: a light theme inverts it', () => {
    const old = foregroundDrawing(code);
    expect(decodeTerminalQr(old, THEMES[0])).toBe(code);
    expect(decodeTerminalQr(old, THEMES[1])).toBeNull();
  });

  it('returns null for text that is not a drawn QR', () => {
    expect(decodeTerminalQr('')).toBeNull();
    expect(decodeTerminalQr('hello, world')).toBeNull();
  });

  it('returns null when the finder patterns are painted over', () => {
    const wiped = drawQr(code).lines.map((line, row) => (row < 4 ? `\u001b[48;5;231m${' '.repeat(49)}\u001b[0m` : line)).join('\n');
    expect(decodeTerminalQr(wiped)).toBeNull();
  });
});
