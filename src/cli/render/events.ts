// Postback events and their delivery attempts, as tables and as one-line summaries, from the tolerant
// view of `pinvoice serve`'s event history (src/client/read/serve-answers.ts).
import { spokenDuration } from '../../base/spoken-duration.js';
import type { AttemptView, EventView } from '../../client/read/serve-answers.js';
import { statusLabel, type Palette } from './colour.js';
import { DASH, dateTime, orDash } from './format.js';
import { safeData } from './safe-text.js';
import { gridTable, keep, keyValueTable, section } from './table.js';
import { terminalWidth } from './width.js';

const plain = <T extends { raw: unknown }>(value: T): T => safeData({ ...value, raw: undefined });
const took = (attempt: AttemptView) => (attempt.durationMs === undefined ? '' : ` in ${spokenDuration(attempt.durationMs)}`);

/** "200 in 12 ms", "HTTP 500 in 3 ms", "connection refused by 127.0.0.1:9 (2 ms)"; then what sandbox chaos injected. */
export function attemptResult(attempt: AttemptView, palette: Palette): string {
  const chaos = attempt.injected.length > 0 ? `\n${palette.warn(`chaos: ${attempt.injected.join(', ')}`)}` : '';
  if (attempt.statusCode !== undefined) {
    const text = `HTTP ${attempt.statusCode}${took(attempt)}`;
    return (attempt.delivered ? palette.ok(text) : palette.bad(text)) + chaos;
  }
  return palette.bad(`${attempt.error ?? 'no answer'}${attempt.durationMs === undefined ? '' : ` (${spokenDuration(attempt.durationMs)})`}`) + chaos;
}

export function deliveryState(event: EventView, palette: Palette): string {
  switch (event.state) {
    case 'delivered': return palette.ok('delivered');
    case 'failed': return palette.bad('failed');
    case 'no_url': return palette.dim('no postback_url');
    case 'pending':
    case undefined:
      return palette.warn(event.nextAttemptAt ? `pending, next try ${dateTime(event.nextAttemptAt)}` : 'pending');
    default: return event.state;
  }
}

const attemptCount = (count: number) => (count === 1 ? '1 attempt' : `${count} attempts`);

// Six flat columns took 155; stacked in three (what, how it went, the last answer), a row fits 80
// with the event id whole and the first line still reading "invoice.paid │ delivered │ HTTP 200 …".
function eventRow(event: EventView, palette: Palette): string[] {
  const last = event.attempts.at(-1);
  return [
    `${orDash(event.event)}\n${orDash(event.id)}\n${dateTime(event.createdAt)}`,
    `${deliveryState(event, palette)}\n${attemptCount(event.attempts.length)}`,
    last ? attemptResult(last, palette) : DASH,
  ];
}

/** The Postbacks section of `invoice get`, and the body of `events list`. */
export function renderEventTable(records: readonly EventView[], palette: Palette, title = 'Postbacks', width = terminalWidth()): string {
  if (records.length === 0) return section(title, palette.dim('no events'), palette);
  const rows = records.map(plain).map((event) => eventRow(event, palette));
  return section(title, gridTable([keep('event'), 'delivery', 'last attempt'], rows, palette, width), palette);
}

/** Every delivery attempt: which event and when, beside where it went and what came back. */
export function renderAttempts(records: readonly EventView[], palette: Palette, width = terminalWidth()): string | null {
  const rows = records.map(plain).flatMap((event) =>
    event.attempts.map((attempt, index) => [`${orDash(event.id)}\n#${index + 1}  ${dateTime(attempt.at)}`, `${orDash(attempt.url)}\n${attemptResult(attempt, palette)}`]),
  );
  if (rows.length === 0) return null;
  return section('Attempts', gridTable([keep('attempt'), 'url and answer'], rows, palette, width), palette);
}

/**
 * One event, as `events resend` shows it. The status is the one the event recorded (a `paid` event of a
 * charge refunded since still says paid), so it is labelled as the event's, beside the charge's id.
 */
export function renderEvent(record: EventView, palette: Palette, width = terminalWidth()): string {
  const event = plain(record);
  const rows = [
    ['event id', orDash(event.id)],
    ['event', orDash(event.event)],
    ['charge', orDash(event.invoiceId)],
    ['status in event', `${statusLabel(event.status, palette)} (the charge's status when the event was recorded)`],
    ['recorded', dateTime(event.createdAt)],
    ['url', orDash(event.url)],
    ['delivery', deliveryState(event, palette)],
    ['delivered at', dateTime(event.deliveredAt)],
  ] as const;
  const attempts = renderAttempts([event], palette, width);
  return [section('Event', keyValueTable(rows, palette, width), palette), attempts].filter((s) => s !== null).join('\n\n');
}
