// cli-table3 wrappers. Its own colouring is switched off (head and border styles empty) so that every
// escape code comes from the palette, and a disabled palette really means plain text.
import Table from 'cli-table3';
import type { Palette } from './colour.js';

export type Cell = Table.Cell;
export type Row = readonly [label: string, value: Cell];

// compact: no rule between rows, so a section reads as a block rather than a grid of boxes.
const PLAIN = { head: [], border: [], compact: true };

/** Right-aligned cell, for amounts and counts. */
export function right(content: string): Cell {
  return { content, hAlign: 'right' };
}

/** Two columns: a dimmed label and its value. */
export function keyValueTable(rows: readonly Row[], palette: Palette): string {
  const table = new Table({ style: PLAIN });
  for (const [label, value] of rows) table.push([palette.dim(label), value]);
  return table.toString();
}

/** A table with a header row. */
export function gridTable(head: readonly string[], rows: readonly Cell[][], palette: Palette): string {
  const table = new Table({ head: head.map((title) => palette.bold(title)), style: PLAIN });
  for (const row of rows) table.push(row);
  return table.toString();
}

export function section(title: string, body: string, palette: Palette): string {
  return `${palette.heading(title)}\n${body}`;
}
