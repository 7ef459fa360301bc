import { describe, it, expect } from 'vitest';
import { createPalette } from '../../src/cli/render/colour.js';
import { renderQr } from '../../src/cli/render/qr.js';
import { renderTransaction } from '../../src/cli/render/transaction.js';
import { buildPixCode } from '../../src/domain/pix.js';
import { pixTransaction } from '../support/fixtures.js';
import { decodeTerminalQr, terminalQrModules } from '../support/qr-decode.js';
import { readTransaction } from '../../src/client/read/transaction.js';

const PIX = { merchantName: 'Pinvoice Sandbox', merchantCity: 'Sao Paulo', amountCents: 1990, url: 'pix.pinvoice.local/qr/v2/ABCDEFGHIJKLMNOPQRSTUVWXYZ123456' };
const code = buildPixCode(PIX);

describe('renderQr', () => {
  it('draws a pix BR Code that decodes back to the same code', () => {
    expect(decodeTerminalQr(renderQr(code))).toBe(code);
  });

  it.each([
    ['a single character', 'x'],
    ['digits', '12345678901234567890'],
    ['a URL', 'https://pix.pinvoice.local/checkout/Qm9uZGlhUGl4Q2hlY2tvdXRUb2tlbjEy'],
    ['a static pix code', buildPixCode({ merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', amountCents: 1250, key: '+5511987654321' })],
    ['accented UTF-8 text', 'São Paulo — ação ✓'],
    ['500 characters', 'ABCDEFGHIJ'.repeat(50)],
  ])('round-trips %s', (_name, text) => expect(decodeTerminalQr(renderQr(text))).toBe(text));

  it('draws a changed code differently', () => {
    const changed = buildPixCode({ ...PIX, amountCents: 1991 });
    const decoded = decodeTerminalQr(renderQr(changed));
    expect(decoded).toBe(changed);
    expect(decoded).not.toBe(code);
    expect(renderQr(changed)).not.toBe(renderQr(code));
  });

  it('is a rectangle of half blocks with no escape codes and no trailing newline', () => {
    const block = renderQr(code);
    const lines = block.split('\n');
    expect(block).toMatch(/^[█▀▄ \n]+$/);
    expect(block.endsWith('\n')).toBe(false);
    expect(new Set(lines.map((line) => [...line].length)).size).toBe(1);
    const modules = terminalQrModules(block);
    // one module of border on each side, and a version 1 to 40 symbol (21 to 177 modules) inside
    expect(((modules?.[0]?.length ?? 0) - 2 - 17) % 4).toBe(0);
  });

  it('survives rendering inside a transaction', () => {
    const qr = renderQr(code);
    const output = renderTransaction(readTransaction(pixTransaction()), { palette: createPalette(true), qr });
    const lines = output.split('\n');
    const start = lines.indexOf(qr.split('\n')[0] ?? '');
    const drawn = lines.slice(start, start + qr.split('\n').length).join('\n');
    expect(decodeTerminalQr(drawn)).toBe(code);
  });
});

describe('decodeTerminalQr', () => {
  it('returns null for text that is not a drawn QR', () => {
    expect(decodeTerminalQr('')).toBeNull();
    expect(decodeTerminalQr('hello, world')).toBeNull();
    expect(decodeTerminalQr('████\n████')).toBeNull();
  });

  it('returns null when the finder patterns are wiped out', () => {
    const wiped = renderQr(code)
      .split('\n')
      .map((line, row) => (row < 5 ? '█'.repeat([...line].length) : line))
      .join('\n');
    expect(decodeTerminalQr(wiped)).toBeNull();
  });

  it('ignores colour escape codes around the block', () => {
    expect(decodeTerminalQr(`\u001b[37m${renderQr(code)}\u001b[39m`)).toBe(code);
  });
});
