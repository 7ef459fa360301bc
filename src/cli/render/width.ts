// How wide text is on a terminal, and how wide the terminal is.

const ESC = '\u001b';
/** An SGR sequence (colour, bold, dim), the only escape our palette writes, as a RegExp source. */
export const SGR_SOURCE = `${ESC}\\[[0-9;]*m`;
const SGR = new RegExp(SGR_SOURCE, 'g');
// Made on first use: building one loads ICU's break rules (about 10 ms), which --help, --version and
// every message-only run would pay for nothing (main loads this module to escape its messages).
let segmenter: Intl.Segmenter | undefined;
const graphemes = () => (segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' }));

// East Asian Wide and Fullwidth blocks (as string-width, which cli-table3 measures with, counts them).
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], [0x2329, 0x232a], [0x2e80, 0x303e], [0x3041, 0x3247], [0x3250, 0x4dbf], [0x4e00, 0xa4c6],
  [0xa960, 0xa97c], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6b], [0xff01, 0xff60],
  [0xffe0, 0xffe6], [0x1b000, 0x1b001], [0x1f200, 0x1f251], [0x20000, 0x3fffd],
];
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]+$/u;
const EMOJI = /\p{Emoji_Presentation}|\uFE0F/u;

function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  if (EMOJI.test(grapheme)) return 2;
  const code = grapheme.codePointAt(0) ?? 0;
  return WIDE.some(([from, to]) => code >= from && code <= to) ? 2 : 1;
}

/** The user-perceived characters of a text: a letter and its accents, an emoji and its modifiers. */
export function graphemesOf(text: string): string[] {
  return Array.from(graphemes().segment(text), ({ segment }) => segment);
}

/** Columns text takes on a terminal: colour codes count nothing, accents join their letter, CJK counts two. */
export function displayWidth(text: string): number {
  let width = 0;
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  for (const { segment } of graphemes().segment(text.replace(SGR, ''))) width += graphemeWidth(segment);
  return width;
}

/** The widest line of a (multi-line) text. */
export function blockWidth(text: string): number {
  return Math.max(0, ...text.split('\n').map(displayWidth));
}

export const DEFAULT_WIDTH = 80;

/**
 * The width tables must fit: COLUMNS when it is set to a number (so tests and scripts can choose),
 * else the terminal's, else 80 (not a terminal, or a terminal that does not say).
 */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  const override = env.COLUMNS?.trim() ?? '';
  if (/^\d+$/.test(override) && Number(override) > 0) return Number(override);
  if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0) return stream.columns;
  return DEFAULT_WIDTH;
}

/** The terminal's height: LINES when it is set to a number (as COLUMNS sets the width), else the terminal's, else 24. */
export function terminalHeight(stream: { isTTY?: boolean; rows?: number } = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  const override = env.LINES?.trim() ?? '';
  if (/^\d+$/.test(override) && Number(override) > 0) return Number(override);
  return stream.isTTY === true && typeof stream.rows === 'number' && stream.rows > 0 ? stream.rows : 24;
}

/**
 * A message for a terminal `columns` wide: each line folded at its spaces, a `quoted command` kept
 * whole (it is to be copied), the lines after the first indented by two. A word wider than the
 * terminal stays whole on a line of its own, for the terminal to fold. Nothing changes off a terminal.
 */
export function foldMessage(text: string, columns: number | undefined): string {
  if (columns === undefined || columns <= 0) return text;
  return text.split('\n').map((line) => {
    if (displayWidth(line) <= columns) return line;
    const lead = /^\s*/.exec(line)?.[0] ?? '';
    const out: string[] = [];
    let current = '';
    for (const [word] of line.slice(lead.length).matchAll(/(?:`[^`]*`|\S)+/g)) {
      const next = current === '' ? `${out.length === 0 ? lead : `${lead}  `}${word}` : `${current} ${word}`;
      if (current !== '' && displayWidth(next) > columns) {
        out.push(current);
        current = `${lead}  ${word}`;
      } else current = next;
    }
    return [...out, current].join('\n');
  }).join('\n');
}
