// The terminal QR of a pix code: Unicode half blocks, two module rows per text line. With colour, in
// colours of its own: left to the terminal's default colours, a light theme would show it inverted (dark
// modules in the light background colour), and phones refuse that; so every cell says its colours, dark
// modules black, light modules and the quiet zone white, on any theme. Without colour (NO_COLOR,
// --no-color, TERM=dumb) not one escape is written: the blocks are drawn in the terminal's own text colour
// on its own background, and the theme (--qr-theme) says which modules the text colour paints: the dark
// ones on a light theme, the light ones and the quiet zone on a dark theme.
import { createRequire } from 'node:module';
import type { QRCode } from 'qrcode';
import type { QrTheme } from './colour.js';

/**
 * Error correction L (7 % of the symbol restorable): our pix codes are 150 to 200 characters, and only
 * at L do the server's fit version 7 (45 modules, 24 lines); M needs version 8 or 9. A screen is not a
 * printed sticker that gets scratched, so the lower level loses nothing a payer needs.
 */
const LEVEL = 'L';
/** Quiet zone, in modules: one above and below (an 80×24 terminal has no line to spare), two beside (columns are cheap). */
const QUIET_ROWS = 1;
const QUIET_COLUMNS = 2;

// xterm's 256-colour cube: 16 is #000000 and 231 #ffffff in every terminal. The 16 basic colours (30–37,
// 90–97) are the theme's to repaint (Solarized's "black" is dark teal, many light themes' "white" is
// grey), so they would not give a phone the contrast it needs.
const BLACK = 16;
const WHITE = 231;
const fg = (colour: number) => `\u001b[38;5;${colour}m`;
const bg = (colour: number) => `\u001b[48;5;${colour}m`;
const RESET = '\u001b[0m';
const UPPER_HALF = '\u2580';
const LOWER_HALF = '\u2584';
const FULL_BLOCK = '\u2588';

export interface QrStyle {
  /** cells in explicit black and white (escape codes); false: the terminal's own colours, no escape at all */
  colour: boolean;
  /** without colour: the terminal's polarity (default dark) */
  theme?: QrTheme;
  /**
   * One text line less (23 for a version 7 symbol, whose 24 leave no line for the shell's prompt on an
   * 80×24 terminal): the quiet row above the symbol is left out, the one below kept. Only where the
   * terminal's background is light and stands in for it: on a dark one, phones find no edge there.
   */
  compact?: boolean;
}

export interface QrDrawing {
  /** the text lines: with colour, each setting its own colours and ending with a reset; without, blocks and spaces only */
  lines: string[];
  /** the symbol's version (1 to 40) */
  version: number;
  /** the symbol's modules a side, without the quiet zone (4 × version + 17) */
  size: number;
  /** columns each line takes on a terminal */
  width: number;
}

function symbolOf(text: string): QRCode {
  // Loaded here, when a QR is drawn: most commands never draw one, and start-up should not pay for it.
  const { create } = createRequire(import.meta.url)('qrcode') as typeof import('qrcode');
  return create(text, { errorCorrectionLevel: LEVEL });
}

/**
 * One text line: the module row `top` and the one under it. A cell whose two modules match is a space
 * in their colour (a background fills the whole cell, where a font's full block may leave gaps between
 * lines); two that differ are an upper half block, the top module's colour over the bottom one's.
 */
function drawColourLine(dark: (row: number, column: number) => boolean, top: number, columns: number): string {
  let line = '';
  let foreground: number | undefined;
  let background: number | undefined;
  for (let column = -QUIET_COLUMNS; column < columns - QUIET_COLUMNS; column++) {
    const upper = dark(top, column) ? BLACK : WHITE;
    const lower = dark(top + 1, column) ? BLACK : WHITE;
    if (lower !== background) line += bg((background = lower));
    if (upper !== lower && upper !== foreground) line += fg((foreground = upper));
    line += upper === lower ? ' ' : UPPER_HALF;
  }
  return line + RESET;
}

/** One text line without escapes: a block where the text colour paints (its "ink"), a space where the background shows. */
function drawPlainLine(ink: (row: number, column: number) => boolean, top: number, columns: number): string {
  let line = '';
  for (let column = -QUIET_COLUMNS; column < columns - QUIET_COLUMNS; column++) {
    const upper = ink(top, column);
    const lower = ink(top + 1, column);
    line += upper ? (lower ? FULL_BLOCK : UPPER_HALF) : lower ? LOWER_HALF : ' ';
  }
  return line;
}

/** The QR of text as terminal lines, inside its light quiet zone; every module outside the symbol is light. */
export function drawQr(text: string, style: QrStyle = { colour: true }): QrDrawing {
  const symbol = symbolOf(text);
  const size = symbol.modules.size;
  const dark = (row: number, column: number) => row >= 0 && row < size && column >= 0 && column < size && symbol.modules.get(row, column) === 1;
  const width = size + 2 * QUIET_COLUMNS;
  const ink = style.theme === 'light' ? dark : (row: number, column: number) => !dark(row, column);
  const drawLine = style.colour ? (top: number) => drawColourLine(dark, top, width) : (top: number) => drawPlainLine(ink, top, width);
  const lines: string[] = [];
  // an odd count of rows leaves the last line's lower half: it is one more row of quiet zone
  for (let top = style.compact ? 0 : -QUIET_ROWS; top < size + QUIET_ROWS; top += 2) lines.push(drawLine(top));
  return { lines, version: symbol.version, size, width };
}

/**
 * The QR of text as a receipt lays it out (layoutReceipt's `qr`): compact when the layout asks, only where
 * the terminal's light background stands in for the top quiet row (QrStyle.compact); whole elsewhere.
 */
export const receiptQr = (text: string, style: QrStyle) => (compact: boolean): QrDrawing =>
  drawQr(text, { ...style, compact: compact && style.theme === 'light' });

/** The QR block for text, without a trailing newline. */
export function renderQr(text: string, style?: QrStyle): string {
  return drawQr(text, style).lines.join('\n');
}
