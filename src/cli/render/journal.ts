// The inspector's entries (`pinvoice logs`): one line each for `logs tail`, a table for `logs list`,
// from the tolerant view (src/client/read/journal.ts). Every text from the entry is made safe first.
import { spokenDuration } from '../../base/spoken-duration.js';
import type { EntryView } from '../../client/read/journal.js';
import type { Palette } from './colour.js';
import { DASH, dateTime, orDash } from './format.js';
import { safeData } from './safe-text.js';
import { gridTable, keep } from './table.js';
import { terminalWidth } from './width.js';

/** The entry's texts made terminal-safe (its raw answer left out: --json prints that as sent). */
export const safeEntry = (entry: EntryView): EntryView => safeData({ ...entry, raw: undefined });

/** → a request the sandbox received, ← a postback attempt it sent, ⇄ a proxy's tunnel to another host (--forward). */
const ARROWS: Record<string, string> = { in: '→', out: '←', tunnel: '⇄' };
export const arrow = (entry: EntryView): string => ARROWS[entry.direction ?? ''] ?? '?';

/** "422", coloured by its class; no answer: what went wrong instead, as a failure. */
export function statusText(entry: EntryView, palette: Palette): string {
  const { status } = entry;
  if (status === undefined) return palette.bad(entry.direction === 'out' ? (entry.error ?? 'no answer') : DASH);
  const paint = status >= 500 ? palette.bad : status >= 400 ? palette.warn : status >= 300 ? palette.info : palette.ok;
  return paint(String(status));
}

/** The path asked for with its query; a postback's whole URL. */
export const target = (entry: EntryView): string =>
  entry.direction === 'out' && entry.url !== undefined ? entry.url : `${orDash(entry.path)}${entry.query === '' ? '' : `?${entry.query}`}`;

/** Who sent it (the token's name) or what it was (the event and its attempt). */
export function source(entry: EntryView): string {
  if (entry.direction !== 'out') return orDash(entry.tokenName);
  return `${orDash(entry.event)}${entry.attempt === undefined ? '' : ` #${entry.attempt}`}`;
}

export const duration = (entry: EntryView): string => (entry.durationMs === undefined ? DASH : spokenDuration(entry.durationMs));

const charges = (entry: EntryView): string => (entry.chargeIds.length === 0 ? '' : `charge${entry.chargeIds.length > 1 ? 's' : ''} ${entry.chargeIds.join(', ')}`);

/** What a refusal was about: its first problems (JSON pointer and message), else its error code. */
function why(entry: EntryView): string {
  if (entry.problems.length > 0) {
    const shown = entry.problems.slice(0, 2).map((problem) => `${problem.path || '(body)'} ${problem.message}`);
    return `${shown.join('; ')}${entry.problems.length > 2 ? ` (+${entry.problems.length - 2} more)` : ''}`;
  }
  return entry.status !== undefined && entry.status >= 400 && entry.error !== undefined ? entry.error : '';
}

/** One line of `logs tail`: `12  2026-11-28 02:37:44 -03:00  → POST /api/v2/invoices  422  8 ms  token-1  /payer is required`. */
export function entryLine(given: EntryView, palette: Palette): string {
  const entry = safeEntry(given);
  const reason = why(entry);
  return [
    palette.dim(String(entry.id ?? DASH)),
    dateTime(entry.at),
    `${arrow(entry)} ${orDash(entry.method)} ${target(entry)}`,
    statusText(entry, palette),
    duration(entry),
    source(entry),
    entry.replayed === true ? palette.info('replayed') : '',
    charges(entry),
    reason === '' ? '' : palette.warn(reason),
  ].filter((part) => part !== '').join('  ');
}

/** "2026-11-28\n02:44:22": the date over the time, in the reader's zone (the list names it once). */
function stackedTime(at: string | undefined): string {
  const local = dateTime(at);
  return /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/.test(local) ? `${local.slice(0, 10)}\n${local.slice(11, 19)}` : local;
}

/**
 * `logs list`: one row an entry, stacked so that 80 columns hold it: the time, the request (direction,
 * method, then the path or postback URL), the answer and how long it took, who sent it or which event it
 * was, the charges it touched.
 */
export function renderJournalTable(entries: readonly EntryView[], palette: Palette, width = terminalWidth()): string {
  if (entries.length === 0) return palette.dim('no entries');
  const rows = entries.map(safeEntry).map((entry) => [
    String(entry.id ?? DASH),
    stackedTime(entry.at),
    `${arrow(entry)} ${orDash(entry.direction)} ${orDash(entry.method)}\n${target(entry)}`,
    `${statusText(entry, palette)}\n${duration(entry)}`,
    `${source(entry)}${entry.replayed === true ? `\n${palette.info('replayed')}` : ''}`,
    orDash(entry.chargeIds.join(', ')),
  ]);
  return gridTable([keep('id'), keep('time'), 'request', keep('answer'), 'token / event', 'charges'], rows, palette, width);
}
