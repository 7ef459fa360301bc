// A receipt on a terminal: what a command made or did, what the payer needs (a pix code, a boleto
// line), the QR, and what to run next, laid out to fit one screen (as gh and stripe answer a create
// with what was made and what to do next, not the whole object). Three layouts, the first that fits:
// - stacked: the payment, the QR, then the summary and the next step as the last lines (they stay on
//   screen when the QR's top scrolls away on a short terminal);
// - beside: the QR on the left and the rest in a column beside it, for a terminal too short to stack;
// - stacked again, when the terminal is too narrow for a column beside the QR.
// Nothing is wider than the terminal, but a code printed bare (stacked), which the terminal folds and
// copies back whole: a fold of ours would put newlines into what the payer pastes.
import type { Step } from './next-step.js';
import { displayWidth } from './width.js';

export interface ReceiptPayment {
  /** "pix copy-and-paste code:", "boleto line (due 2026-12-01, in 3 days):" */
  label: string;
  /** printed bare on its own line when stacked; folded to the column beside a QR */
  value: string;
  /** beside a QR, where the value is folded: how to see it whole */
  whole?: string;
}

export interface Receipt {
  /** "Created pix charge 12 (INV-…) R$ 25,00 — pending", then detail lines (expiry, fee, refunds) */
  summary: string[];
  payment?: ReceiptPayment | undefined;
  next: Step[];
}

export interface Screen {
  columns: number;
  rows: number;
}

export interface QrLines {
  lines: string[];
  width: number;
}

/** Columns between the QR and the text beside it. */
const GAP = 2;
/** The narrowest column beside a QR worth reading. */
const MIN_SIDE = 24;

/** A code cut every `width` characters, its spaces kept: a word wrap would drop the spaces it breaks at. */
const cut = (text: string, width: number) => Array.from({ length: Math.ceil(text.length / width) }, (_, i) => text.slice(i * width, (i + 1) * width));

/** Text wrapped at its spaces to `width` columns (a longer word cut), an amount's "R$ 25,00" never parted. */
function fit(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.replace(/R\$ /g, 'R$\u00a0').split(' ')) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (displayWidth(joined) <= width) line = joined;
    else {
      if (line !== '') lines.push(line);
      const pieces = displayWidth(word) <= width ? [word] : cut(word, width);
      lines.push(...pieces.slice(0, -1));
      line = pieces.at(-1) ?? '';
    }
  }
  lines.push(line);
  return lines.map((each) => each.replace(/\u00a0/g, ' '));
}
/** Lines a bare value takes once the terminal folds it. */
const folded = (text: string, columns: number) => Math.max(1, Math.ceil(displayWidth(text) / columns));

/**
 * A command as lines of at most `width` columns: folded at spaces with a trailing ` \` (a shell reads
 * the lines back as one command), its note beside it when it fits, else on a line of its own above.
 */
export function stepLines(step: Step, width: number, indent = '  '): string[] {
  const room = width - indent.length;
  const note = step.note === undefined ? undefined : `# ${step.note}`;
  if (note !== undefined && displayWidth(step.command) + 3 + displayWidth(note) <= room) return [`${indent}${step.command}   ${note}`];
  const lines: string[] = note === undefined ? [] : fit(note, room).map((line) => `${indent}${line}`);
  let current = '';
  for (const word of step.command.split(' ')) {
    const next = current === '' ? word : `${current} ${word}`;
    // a continued line needs room for " \"; the lines after it are indented two more
    if (current !== '' && displayWidth(next) > room - 2) {
      lines.push(`${indent}${current} \\`);
      current = `  ${word}`;
    } else current = next;
  }
  lines.push(`${indent}${current}`);
  return lines.flatMap((line) => (displayWidth(line) <= width ? [line] : fit(line, width)));
}

function nextLines(next: readonly Step[], width: number): string[] {
  return next.length === 0 ? [] : ['Next:', ...next.flatMap((step) => stepLines(step, width))];
}

function summaryLines(receipt: Receipt, width: number): string[] {
  return receipt.summary.flatMap((line) => fit(line, width));
}

function stacked(receipt: Receipt, qr: QrLines | undefined, columns: number): { lines: string[]; height: number } {
  const payment = receipt.payment === undefined ? [] : [...fit(receipt.payment.label, columns), receipt.payment.value];
  const lines = [...payment, ...(qr?.lines ?? []), ...summaryLines(receipt, columns), ...nextLines(receipt.next, columns)];
  const height = lines.reduce((total, line) => total + (line === receipt.payment?.value ? folded(line, columns) : 1), 0);
  return { lines, height };
}

function beside(receipt: Receipt, qr: QrLines, columns: number): string[] {
  const side = columns - qr.width - GAP;
  const payment = receipt.payment;
  const text = [
    ...summaryLines(receipt, side),
    ...(payment === undefined ? [] : ['', ...fit(payment.label, side), ...cut(payment.value, side), ...(payment.whole === undefined ? [] : fit(payment.whole, side))]),
    ...(receipt.next.length === 0 ? [] : ['', ...nextLines(receipt.next, side)]),
  ];
  const blank = ' '.repeat(qr.width);
  return Array.from({ length: Math.max(qr.lines.length, text.length) }, (_, row) => {
    const right = text[row] ?? '';
    return right === '' ? (qr.lines[row] ?? '') : `${qr.lines[row] ?? blank}${' '.repeat(GAP)}${right}`;
  });
}

/**
 * The receipt's lines for a screen, leaving its last row to the shell's prompt. `qr(compact)` draws
 * the QR, compact (one line less) when the whole one and a prompt do not fit the screen's height.
 */
export function layoutReceipt(receipt: Receipt, screen: Screen, qr?: (compact: boolean) => QrLines): string[] {
  const room = screen.rows - 1;
  const whole = qr?.(false);
  const drawing = whole !== undefined && whole.lines.length > room ? qr?.(true) : whole;
  const first = stacked(receipt, drawing, screen.columns);
  if (drawing === undefined || first.height <= room) return first.lines;
  if (screen.columns - drawing.width - GAP >= MIN_SIDE) return beside(receipt, drawing, screen.columns);
  return first.lines;
}
