// The terminal QR of a pix code: Unicode half blocks, two module rows per text line, in colours of its
// own. A QR is a picture, not decorated text: left to the terminal's default colours, a light theme
// shows it inverted (dark modules in the light background colour), and phones refuse it. So every cell
// says its colours: dark modules black, light modules and the quiet zone white, on any theme.
import { createRequire } from 'node:module';
import type { QRCode } from 'qrcode';

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

export interface QrDrawing {
  /** the text lines, each setting its own colours and ending with a reset */
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
function drawLine(dark: (row: number, column: number) => boolean, top: number, columns: number): string {
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

/** The QR of text as terminal lines, inside its white quiet zone; every module outside the symbol is light. */
export function drawQr(text: string): QrDrawing {
  const symbol = symbolOf(text);
  const size = symbol.modules.size;
  const dark = (row: number, column: number) => row >= 0 && row < size && column >= 0 && column < size && symbol.modules.get(row, column) === 1;
  const width = size + 2 * QUIET_COLUMNS;
  const lines: string[] = [];
  // an odd count of rows leaves the last line's lower half: it is one more row of quiet zone
  for (let top = -QUIET_ROWS; top < size + QUIET_ROWS; top += 2) lines.push(drawLine(dark, top, width));
  return { lines, version: symbol.version, size, width };
}

/** The QR block for text, without a trailing newline. */
export function renderQr(text: string): string {
  return drawQr(text).lines.join('\n');
}
