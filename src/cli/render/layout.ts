// Fitting a table to the terminal: how wide each column may be, and each cell's text wrapped to it.
import { displayWidth, graphemesOf, SGR_SOURCE } from './width.js';

export interface ColumnNeeds {
  /** the widest line of the column: what it takes when nothing has to give */
  natural: number;
  /** the narrowest it can get before words (or, for kept columns, values) are broken */
  minimum: number;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/**
 * Column widths that add up to at most `budget`, shrinking the widest columns first (a common cap,
 * lowered until the widths fit): first down to each column's minimum, then, when even the minimums
 * do not fit, into the words themselves. A table too wide even at one column each keeps that.
 */
export function fitWidths(columns: readonly ColumnNeeds[], budget: number): number[] {
  const natural = columns.map((column) => column.natural);
  if (sum(natural) <= budget) return natural;
  const minimum = columns.map((column) => Math.min(column.minimum, column.natural));
  const wordsFit = sum(minimum) <= budget;
  const floors = wordsFit ? minimum : minimum.map(() => 1);
  const ceilings = wordsFit ? natural : minimum;
  const capped = (cap: number) => ceilings.map((ceiling, i) => Math.max(floors[i] ?? 1, Math.min(ceiling, cap)));
  let cap = Math.max(...ceilings);
  while (cap > 1 && sum(capped(cap)) > budget) cap--;
  const widths = capped(cap);
  // The cap moves in whole columns; what it leaves over goes to the columns it held back.
  let spare = budget - sum(widths);
  for (let i = 0; i < widths.length && spare > 0; i++) {
    if ((widths[i] ?? 0) < (ceilings[i] ?? 0)) {
      widths[i] = (widths[i] ?? 0) + 1;
      spare--;
    }
  }
  return widths;
}

const SGR = new RegExp(`(${SGR_SOURCE})`);
const SGR_ALL = new RegExp(SGR_SOURCE, 'g');

/** A word longer than the width, cut into pieces that fit; colour codes ride along and count nothing. */
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const token of word.split(SGR)) {
    if (SGR.test(token)) {
      piece += token;
      continue;
    }
    for (const grapheme of graphemesOf(token)) {
      const size = displayWidth(grapheme);
      if (used > 0 && used + size > width) {
        pieces.push(piece);
        piece = '';
        used = 0;
      }
      piece += grapheme;
      used += size;
    }
  }
  pieces.push(piece);
  return pieces;
}

function wrapLine(line: string, width: number): string[] {
  if (displayWidth(line) <= width) return [line];
  const lines: string[] = [];
  let current = '';
  let used = 0;
  for (const [, space = '', word = ''] of line.matchAll(/(\s*)(\S+)/g)) {
    const size = displayWidth(word);
    const gap = used === 0 ? 0 : displayWidth(space);
    if (used + gap + size <= width) {
      current += (used === 0 ? '' : space) + word;
      used += gap + size;
      continue;
    }
    if (used > 0) lines.push(current);
    const pieces = size <= width ? [word] : breakWord(word, width);
    lines.push(...pieces.slice(0, -1));
    current = pieces.at(-1) ?? '';
    used = displayWidth(current);
  }
  if (current !== '') lines.push(current);
  return lines;
}

/** The code that ends an SGR attribute, for the attributes chalk writes. */
function closerOf(code: number): number | undefined {
  if (code === 1 || code === 2) return 22;
  if (code >= 3 && code <= 9) return code + 20;
  if ((code >= 30 && code <= 38) || (code >= 90 && code <= 97)) return 39;
  if ((code >= 40 && code <= 48) || (code >= 100 && code <= 107)) return 49;
  return undefined;
}

/** Each line ends the colours still open and the next one reopens them, so no border or padding is painted. */
function carryColour(lines: string[]): string[] {
  const open = new Map<number, string>();
  return lines.map((line) => {
    const reopen = [...open.values()].join('');
    for (const [sequence] of line.matchAll(SGR_ALL)) {
      const code = Number(sequence.slice(2, -1).split(';')[0] || 0);
      const closer = closerOf(code);
      if (code === 0) open.clear();
      else if (closer !== undefined) open.set(closer, sequence);
      else open.delete(code);
    }
    const close = [...open.keys()].map((closer) => `\u001b[${closer}m`).join('');
    return reopen + line + close;
  });
}

/** Text wrapped to `width` columns: at spaces where it can, inside words where it must. */
export function wrapText(text: string, width: number): string {
  const lines = text.split('\n').flatMap((line) => wrapLine(line, Math.max(1, width)));
  return lines.length < 2 ? text : carryColour(lines).join('\n');
}

/** The widest word of a text (what a column cannot go below without breaking words). */
export function longestWord(text: string): number {
  return Math.max(0, ...text.split(/\s+/).map(displayWidth));
}
