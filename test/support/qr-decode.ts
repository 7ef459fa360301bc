// Reads back a QR block drawn by qrcode-terminal's small mode, to prove the drawing scans.
// Each character is one column of two module rows (qrcode-terminal/lib/main.js): light modules are the
// drawn part of the glyph, dark modules are the terminal background showing through.
import jsqr from 'jsqr';

// jsqr is webpack-built CommonJS that sets exports.default: Node's ESM loader hands over the whole exports
// object, while vitest unwraps it to the function. Take whichever is callable.
type Decode = typeof jsqr.default;
const jsQR: Decode = typeof jsqr === 'function' ? (jsqr as Decode) : jsqr.default;

type Pair = readonly [top: boolean, bottom: boolean];

/** true = light module. */
const GLYPHS: ReadonlyMap<string, Pair> = new Map<string, Pair>([
  ['\u2588', [true, true]], // full block: both light
  ['\u2580', [true, false]], // upper half block: light over dark
  ['\u2584', [false, true]], // lower half block: dark over light
  [' ', [false, false]], // nothing drawn: both dark
]);

const SCALE = 4;
const QUIET = 4;

/** The block as rows of modules (true = light), or null when it holds a character that is not a half block. */
export function terminalQrModules(block: string): boolean[][] | null {
  // eslint-disable-next-line no-control-regex
  const plain = block.replace(/\u001b\[[0-9;]*m/g, '');
  const lines = plain.split('\n').filter((line) => line !== '').map((line) => [...line]);
  const width = Math.max(0, ...lines.map((chars) => chars.length));
  const rows: boolean[][] = [];
  for (const chars of lines) {
    // A short line is padded with light modules, as the quiet zone around it is.
    const padded = chars.concat(Array<string>(width - chars.length).fill('\u2588'));
    const pairs = padded.map((char) => GLYPHS.get(char));
    if (pairs.some((pair) => pair === undefined)) return null;
    rows.push(pairs.map((pair) => pair?.[0] === true), pairs.map((pair) => pair?.[1] === true));
  }
  return rows;
}

/** Modules to RGBA pixels, SCALE pixels a side, inside a light quiet zone of QUIET modules. */
function toImage(modules: boolean[][]): { data: Uint8ClampedArray; width: number; height: number } {
  const columns = modules[0]?.length ?? 0;
  const width = (columns + 2 * QUIET) * SCALE;
  const height = (modules.length + 2 * QUIET) * SCALE;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  modules.forEach((row, r) => {
    row.forEach((light, c) => {
      if (light) return;
      for (let y = (r + QUIET) * SCALE; y < (r + QUIET + 1) * SCALE; y++) {
        const start = (y * width + (c + QUIET) * SCALE) * 4;
        for (let i = start; i < start + SCALE * 4; i += 4) data.fill(0, i, i + 3);
      }
    });
  });
  return { data, width, height };
}

/** The text a drawn QR block encodes, or null when it cannot be read. */
export function decodeTerminalQr(block: string): string | null {
  const modules = terminalQrModules(block);
  if (modules === null || modules.length === 0) return null;
  const { data, width, height } = toImage(modules);
  return jsQR(data, width, height, { inversionAttempts: 'dontInvert' })?.data ?? null;
}
