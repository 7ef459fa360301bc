// The receipt's layout (stacked, or the QR with a column beside it), the QR without escapes in the
// terminal's own colours, and how the terminal's polarity is chosen.
import { describe, expect, it } from 'vitest';
import { chooseQrTheme, themeFromColorFgBg } from '../../src/cli/render/colour.js';
import { drawQr, receiptQr } from '../../src/cli/render/qr.js';
import { layoutReceipt, stepLines, type Receipt } from '../../src/cli/render/receipt.js';
import { displayWidth, foldMessage } from '../../src/cli/render/width.js';
import { DARK_THEME, decodeTerminalQr, LIGHT_THEME } from '../support/qr-decode.js';

// 150 characters: a version 6 symbol at level L with mixed modes (41 modules, 22 lines), as pinvoice serve's codes
const CODE = `00020101021226750014br.gov.bcb.pix2553127.0.0.1:4010/qr/v2/${'A1b2C3d4E5'.repeat(3)}5204000053039865406${'25.00'}5802BR5916PINVOICE SANDBOX6009SAO PAULO62070503***6304ABCD`;
// a production-shaped code of a longer location: version 7 (45 modules, 24 lines)
const LONG = `${CODE.slice(0, 40)}qrpix.example-bank.com.br/qr/v2/cobv/${CODE.slice(60)}`;

describe('the QR without colour: blocks in the terminal\'s own colours, not one escape', () => {
  it.each(['dark', 'light'] as const)('drawn for a %s theme, it reads there and not on the other', (theme) => {
    const text = drawQr(CODE, { colour: false, theme }).lines.join('\n');
    expect(text).not.toContain('\u001b');
    const [same, other] = theme === 'dark' ? [DARK_THEME, LIGHT_THEME] : [LIGHT_THEME, DARK_THEME];
    expect(decodeTerminalQr(text, same)).toBe(CODE);
    expect(decodeTerminalQr(text, other)).toBeNull();
  });

  it('compact leaves out the top quiet row: one line less, read where the background is light', () => {
    const whole = drawQr(LONG, { colour: false, theme: 'light' });
    const compact = drawQr(LONG, { colour: false, theme: 'light', compact: true });
    expect([whole.version, whole.lines.length, compact.lines.length]).toEqual([7, 24, 23]);
    expect(decodeTerminalQr(compact.lines.join('\n'), LIGHT_THEME)).toBe(LONG);
  });
});

describe('the terminal\'s polarity', () => {
  it.each([
    ['15;0', 'dark'], ['0;15', 'light'], ['15;default;0', 'dark'], ['0;default;7', 'light'], ['12;8', 'dark'], ['default', undefined], [undefined, undefined],
  ])('COLORFGBG=%s: %s', (value, theme) => expect(themeFromColorFgBg(value)).toBe(theme));

  it('--qr-theme, then PINVOICE_QR_THEME, then COLORFGBG, then dark; an unknown word is an error naming it', () => {
    expect(chooseQrTheme('light', { PINVOICE_QR_THEME: 'dark' })).toBe('light');
    expect(chooseQrTheme(undefined, { PINVOICE_QR_THEME: 'Light', COLORFGBG: '15;0' })).toBe('light');
    expect(chooseQrTheme(undefined, { COLORFGBG: '0;15' })).toBe('light');
    expect(chooseQrTheme(undefined, {})).toBe('dark');
    expect(String(chooseQrTheme(undefined, { PINVOICE_QR_THEME: 'sepia' }))).toMatch(/PINVOICE_QR_THEME "sepia" is neither dark nor light/);
  });
});

const RECEIPT: Receipt = {
  summary: ['Created pix charge 12 (INV-20261128-000012-4821) R$ 25,00 — pending', 'expires 2026-11-28 16:03:58 -03:00 (in 59 min)'],
  payment: { label: 'pix copy-and-paste code:', value: CODE, whole: '(folded here; whole, on one line: pinvoice invoice get 12)' },
  next: [{ command: 'pinvoice invoice open 12', note: "the payer's page" }, { command: 'pinvoice invoice get 12 --watch' }],
};
const qrOf = (code: string, theme: 'dark' | 'light' = 'dark', colour = false) => receiptQr(code, { colour, theme });

describe('layoutReceipt', () => {
  it('stacks when all of it fits above the prompt: the code bare, the QR, then the summary and next step last', () => {
    const lines = layoutReceipt(RECEIPT, { columns: 120, rows: 40 }, qrOf(CODE));
    expect(lines.slice(0, 2)).toEqual(['pix copy-and-paste code:', CODE]);
    expect(lines.slice(-5)).toEqual([...RECEIPT.summary, 'Next:', "  pinvoice invoice open 12   # the payer's page", '  pinvoice invoice get 12 --watch']);
    expect(decodeTerminalQr(lines.join('\n'))).toBe(CODE);
  });

  it('on 80×24, the QR with the rest in a column beside it: no line wider, the prompt\'s line left free, the code cut in order', () => {
    const lines = layoutReceipt(RECEIPT, { columns: 80, rows: 24 }, qrOf(CODE));
    expect(lines.length).toBeLessThanOrEqual(23);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    expect(decodeTerminalQr(lines.join('\n'))).toBe(CODE);
    const column = lines.map((line) => line.slice(47)).join('\n');
    expect(column.replace(/\s+/g, ' ')).toContain('Created pix charge 12 (INV-20261128-000012-4821) R$ 25,00 — pending');
    expect(column.split('\n').join('')).toContain(CODE);
  });

  it('a version 7 QR on 24 lines: compact where the background is light (23 lines, read there), whole on a dark one', () => {
    const light = layoutReceipt(RECEIPT, { columns: 80, rows: 24 }, qrOf(LONG, 'light'));
    expect(light.length).toBe(23);
    expect(decodeTerminalQr(light.join('\n'), LIGHT_THEME)).toBe(LONG);
    expect(layoutReceipt(RECEIPT, { columns: 80, rows: 24 }, qrOf(LONG, 'light', true)).length).toBe(23);
    for (const colour of [false, true]) expect(layoutReceipt(RECEIPT, { columns: 80, rows: 24 }, qrOf(LONG, 'dark', colour)).length).toBe(24);
  });

  it('a QR that fits whole is drawn whole, on a light background too', () => {
    const whole = drawQr(LONG, { colour: false, theme: 'light' }).lines.join('\n');
    expect(layoutReceipt(RECEIPT, { columns: 120, rows: 40 }, qrOf(LONG, 'light')).join('\n')).toContain(`${CODE}\n${whole}\n`);
    expect(qrOf(LONG, 'light')(false).lines).toHaveLength(24);
  });

  it('too narrow for a column beside the QR: stacked, the summary and next step the last lines', () => {
    const lines = layoutReceipt(RECEIPT, { columns: 60, rows: 24 }, qrOf(CODE));
    expect(lines.at(-1)).toBe('  pinvoice invoice get 12 --watch');
    expect(lines).toContain(RECEIPT.summary[1]);
    for (const line of lines) if (line !== CODE) expect(displayWidth(line)).toBeLessThanOrEqual(60);
  });

  it('without a QR (a boleto, a card, --no-qr): the stacked lines', () => {
    expect(layoutReceipt({ ...RECEIPT, payment: undefined, next: [] }, { columns: 80, rows: 24 })).toEqual(RECEIPT.summary);
  });
});

describe('stepLines', () => {
  it('a command and its note on one line when they fit; else the note above, the command folded with " \\"', () => {
    expect(stepLines({ command: 'pinvoice invoice open 12', note: "the payer's page" }, 60)).toEqual(["  pinvoice invoice open 12   # the payer's page"]);
    const folded = stepLines({ command: 'npx pinvoice invoice get 12 --watch --base-url http://127.0.0.1:4010', note: 'until paid' }, 30);
    expect(folded[0]).toBe('  # until paid');
    for (const line of folded) expect(displayWidth(line)).toBeLessThanOrEqual(30);
    expect(folded.slice(1).map((line) => line.trim().replace(/ \\$/, '')).join(' ')).toBe('npx pinvoice invoice get 12 --watch --base-url http://127.0.0.1:4010');
    expect(folded.slice(1, -1).every((line) => line.endsWith(' \\'))).toBe(true);
  });
});

describe('foldMessage: a message on a terminal', () => {
  it('folds at spaces, keeps a `quoted command` whole, indents what follows; off a terminal, nothing changes', () => {
    const text = 'pinvoice: a refund without a terminal to confirm it on needs --yes: run `pinvoice invoice refund 12 --yes` from the script';
    expect(foldMessage(text, undefined)).toBe(text);
    const lines = foldMessage(text, 40).split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(40);
    expect(lines).toContain('  `pinvoice invoice refund 12 --yes`');
    expect(lines.map((line) => line.trim()).join(' ')).toBe(text);
  });
});
