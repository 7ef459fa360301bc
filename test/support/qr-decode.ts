// Reads back a QR drawn on a terminal, as a phone would see the screen. The text (our drawing, or a
// screen captured with `tmux capture-pane -p -e`) is painted into pixels under a theme: each cell's
// background, with a half block's drawn half (a full block's whole cell) in the foreground colour. The
// SGR colour codes in the text are honoured; where none is set, the theme's default colours apply, so
// a drawing that leaves any module to the defaults reads differently under a dark and a light theme.
import jsqr from 'jsqr';

// jsqr is webpack-built CommonJS that sets exports.default: Node's ESM loader hands over the whole exports
// object, while vitest unwraps it to the function. Take whichever is callable.
type Decode = typeof jsqr.default;
const jsQR: Decode = typeof jsqr === 'function' ? (jsqr as Decode) : jsqr.default;

type Rgb = readonly [number, number, number];

export interface Theme {
  name: string;
  foreground: Rgb;
  background: Rgb;
}

export const DARK_THEME: Theme = { name: 'dark', foreground: [204, 204, 204], background: [0, 0, 0] };
export const LIGHT_THEME: Theme = { name: 'light', foreground: [0, 0, 0], background: [255, 255, 255] };
export const THEMES = [DARK_THEME, LIGHT_THEME] as const;

// xterm's 16 colours (a theme may repaint these; ours keep xterm's), then its 6×6×6 cube and grey ramp.
const BASIC: Rgb[] = [
  [0, 0, 0], [205, 0, 0], [0, 205, 0], [205, 205, 0], [0, 0, 238], [205, 0, 205], [0, 205, 205], [229, 229, 229],
  [127, 127, 127], [255, 0, 0], [0, 255, 0], [255, 255, 0], [92, 92, 255], [255, 0, 255], [0, 255, 255], [255, 255, 255],
];
const CUBE = [0, 95, 135, 175, 215, 255];

function indexed(n: number): Rgb {
  if (n < 16) return BASIC[n] ?? [0, 0, 0];
  if (n < 232) return [CUBE[Math.floor((n - 16) / 36)] ?? 0, CUBE[Math.floor((n - 16) / 6) % 6] ?? 0, CUBE[(n - 16) % 6] ?? 0];
  const grey = 8 + 10 * (n - 232);
  return [grey, grey, grey];
}

/** A colour set by SGR, or undefined for the theme's default. */
interface Pen {
  fg: Rgb | undefined;
  bg: Rgb | undefined;
  reverse: boolean;
}

/** "38;5;16" and "38:5:16" alike: the numbers of one SGR sequence, applied to the pen. */
function applySgr(pen: Pen, params: string): void {
  const codes = params === '' ? [0] : params.split(/[;:]/).map(Number);
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] ?? 0;
    if (code === 0) Object.assign(pen, { fg: undefined, bg: undefined, reverse: false });
    else if (code === 7) pen.reverse = true;
    else if (code === 27) pen.reverse = false;
    else if (code >= 30 && code <= 37) pen.fg = indexed(code - 30);
    else if (code >= 90 && code <= 97) pen.fg = indexed(code - 90 + 8);
    else if (code >= 40 && code <= 47) pen.bg = indexed(code - 40);
    else if (code >= 100 && code <= 107) pen.bg = indexed(code - 100 + 8);
    else if (code === 39) pen.fg = undefined;
    else if (code === 49) pen.bg = undefined;
    else if (code === 38 || code === 48) {
      const colour: Rgb = codes[i + 1] === 5 ? indexed(codes[i + 2] ?? 0) : [codes[i + 2] ?? 0, codes[i + 3] ?? 0, codes[i + 4] ?? 0];
      i += codes[i + 1] === 5 ? 2 : 4;
      if (code === 38) pen.fg = colour;
      else pen.bg = colour;
    }
  }
}

/** Which parts of a cell its glyph covers, top half and bottom half: the rest shows the background. */
function coverage(char: string): readonly [boolean, boolean] | 'text' {
  if (char === '\u2580') return [true, false];
  if (char === '\u2584') return [false, true];
  if (char === '\u2588') return [true, true];
  if (char === ' ') return [false, false];
  return 'text';
}

/** A cell's two halves as colours (top, bottom) under the theme. */
type Cell = readonly [Rgb, Rgb];

/** The text as rows of cells under the theme; SGR state carries over from line to line, as on a terminal. */
function paintCells(text: string, theme: Theme): Cell[][] {
  const pen: Pen = { fg: undefined, bg: undefined, reverse: false };
  return text.split('\n').map((line) => {
    const cells: Cell[] = [];
    // eslint-disable-next-line no-control-regex
    for (const part of line.split(/(\u001b\[[0-9;:]*m)/)) {
      // eslint-disable-next-line no-control-regex
      const sgr = /^\u001b\[([0-9;:]*)m$/.exec(part);
      if (sgr) {
        applySgr(pen, sgr[1] ?? '');
        continue;
      }
      for (const char of part) {
        let ink = pen.fg ?? theme.foreground;
        let paper = pen.bg ?? theme.background;
        if (pen.reverse) [ink, paper] = [paper, ink];
        const covered = coverage(char);
        // a letter is mostly background: it counts as its cell's background, its strokes ignored
        cells.push(covered === 'text' ? [paper, paper] : [covered[0] ? ink : paper, covered[1] ? ink : paper]);
      }
    }
    return cells;
  });
}

const luminance = ([r, g, b]: Rgb) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

/** Cells as rows of pixel colours, two per line (a cell's halves), a short line padded with the theme's background. */
function moduleColours(text: string, theme: Theme): Rgb[][] {
  const cells = paintCells(text.replace(/\n+$/, ''), theme);
  const width = Math.max(0, ...cells.map((row) => row.length));
  const rows: Rgb[][] = [];
  for (const line of cells) {
    const padded = [...line, ...Array<Cell>(width - line.length).fill([theme.background, theme.background])];
    rows.push(padded.map((cell) => cell[0]), padded.map((cell) => cell[1]));
  }
  return width === 0 ? [] : rows;
}

/** The text as rows of modules, two per line: true where the colour is dark (below half luminance). */
export function terminalQrModules(text: string, theme: Theme = DARK_THEME): boolean[][] {
  return moduleColours(text, theme).map((row) => row.map((colour) => luminance(colour) < 128));
}

const SCALE = 4;
/** Screen around the text: a phone also sees the window's margin, in the theme's background. */
const MARGIN = 4;

/** Module colours to RGBA pixels, SCALE a side, inside a margin of the theme's background. */
function toImage(colours: Rgb[][], theme: Theme): { data: Uint8ClampedArray; width: number; height: number } {
  const columns = colours[0]?.length ?? 0;
  const width = (columns + 2 * MARGIN) * SCALE;
  const height = (colours.length + 2 * MARGIN) * SCALE;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = colours[Math.floor(y / SCALE) - MARGIN]?.[Math.floor(x / SCALE) - MARGIN] ?? theme.background;
      data.set([...colour, 255], (y * width + x) * 4);
    }
  }
  return { data, width, height };
}

/**
 * The text a drawn QR (or a screen holding one) encodes under the theme, or null when it cannot be read.
 * Never inverted: a phone's camera app does not try the negative either.
 */
export function decodeTerminalQr(text: string, theme: Theme = DARK_THEME): string | null {
  const colours = moduleColours(text, theme);
  if (colours.length === 0) return null;
  const { data, width, height } = toImage(colours, theme);
  return jsQR(data, width, height, { inversionAttempts: 'dontInvert' })?.data ?? null;
}
