// cli-table3 wrappers that fit the terminal. Its own colouring is switched off (head and border styles
// empty) so that every escape code comes from the palette, and a disabled palette really means plain
// text. Its own wrapping is off too: it measures UTF-16 units and can cut a colour code in two, so
// cells arrive here already wrapped (layout.ts) to widths chosen for the whole table.
import Table from 'cli-table3';
import type { Palette } from './colour.js';
import { fitWidths, longestWord, wrapText, type ColumnNeeds } from './layout.js';
import { safeOutput, safeText } from './safe-text.js';
import { blockWidth, terminalWidth } from './width.js';

export type Cell = string | { content: string; hAlign: 'right' };
export type Row = readonly [label: string, value: Cell];
/**
 * A column's title. Kept columns (ids, dates, amounts) give way only when nothing else can: text
 * columns wrap between words first. Words longer than WORD_LIMIT may be broken before a kept value.
 */
export type Column = string | { title: string; keep: true };

const WORD_LIMIT = 30;
const PADDING = 2;

/** Right-aligned cell, for amounts and counts. */
export function right(content: string): Cell {
  return { content, hAlign: 'right' };
}

/** A column whose values are kept whole while text columns can still wrap. */
export function keep(title: string): Column {
  return { title, keep: true };
}

const contentOf = (cell: Cell) => (typeof cell === 'string' ? cell : cell.content);
const withContent = (cell: Cell, content: string): Cell => (typeof cell === 'string' ? content : { ...cell, content });
const titleOf = (column: Column) => (typeof column === 'string' ? column : column.title);

function needsOf(column: Column, cells: readonly string[], heading: string | undefined): ColumnNeeds {
  const all = heading === undefined ? cells : [heading, ...cells];
  const natural = Math.max(1, ...all.map(blockWidth));
  const words = Math.max(0, ...all.map(longestWord));
  const kept = typeof column !== 'string' && column.keep ? Math.max(0, ...cells.map(blockWidth)) : 0;
  return { natural, minimum: Math.max(Math.min(words, WORD_LIMIT), Math.min(kept, WORD_LIMIT)) };
}

interface Grid {
  columns: readonly Column[];
  head?: readonly string[] | undefined;
  rows: readonly (readonly Cell[])[];
  /** rules between rows once a row spans lines (a key-value table's labels already mark each row) */
  rules: boolean;
}

/**
 * Every cell passes safeOutput before it is measured: renderers make their data safe first (safeData),
 * and this catches a cell that skipped it, keeping colour codes only when the palette writes some.
 */
function drawTable(grid: Grid, palette: Palette, width: number): string {
  const { columns, head } = grid;
  const rows = grid.rows.map((row) => row.map((cell) => withContent(cell, safeOutput(contentOf(cell), palette.enabled))));
  const chrome = columns.length * (PADDING + 1) + 1;
  const needs = columns.map((column, i) => needsOf(column, rows.map((row) => contentOf(row[i] ?? '')), head?.[i]));
  const widths = fitWidths(needs, width - chrome);
  const wrapped = rows.map((row) => row.map((cell, i) => withContent(cell, wrapText(contentOf(cell), widths[i] ?? 1))));
  const compact = !grid.rules || wrapped.every((row) => row.every((cell) => !contentOf(cell).includes('\n')));
  const table = new Table({
    ...(head && { head: head.map((title, i) => wrapText(title, widths[i] ?? 1)) }),
    colWidths: widths.map((w) => w + PADDING),
    style: { head: [], border: [], compact },
  });
  table.push(...wrapped);
  return table.toString();
}

/** Two columns: a dimmed label and its value, `width` columns wide at most. */
export function keyValueTable(rows: readonly Row[], palette: Palette, width = terminalWidth()): string {
  const labelled = rows.map(([label, value]) => [palette.dim(label), value] as const);
  return drawTable({ columns: [keep('label'), 'value'], rows: labelled, rules: false }, palette, width);
}

/** A table with a header row, `width` columns wide at most. */
export function gridTable(columns: readonly Column[], rows: readonly (readonly Cell[])[], palette: Palette, width = terminalWidth()): string {
  return drawTable({ columns, head: columns.map((column) => palette.bold(titleOf(column))), rows, rules: true }, palette, width);
}

/** A titled block; the title may hold what a user typed (an id), so it is made safe like data. */
export function section(title: string, body: string, palette: Palette): string {
  return `${palette.heading(safeText(title))}\n${body}`;
}
