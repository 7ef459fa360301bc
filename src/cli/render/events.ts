// Postback events and their delivery attempts, as tables and as one-line summaries.
import type { DeliveryAttempt, WebhookEvent } from '../../api/postbacks.js';
import type { Palette } from './colour.js';
import { DASH, dateTime } from './format.js';
import { safeData } from './safe-text.js';
import { gridTable, keep, keyValueTable, section } from './table.js';
import { terminalWidth } from './width.js';

/** "200 in 12 ms", "HTTP 500 in 3 ms", "connection refused by 127.0.0.1:9 (2 ms)"; then what sandbox chaos injected. */
export function attemptResult(attempt: DeliveryAttempt, palette: Palette): string {
  const chaos = attempt.injected.length > 0 ? `\n${palette.warn(`chaos: ${attempt.injected.join(', ')}`)}` : '';
  if (attempt.status_code !== null) {
    const text = `HTTP ${attempt.status_code} in ${attempt.duration_ms} ms`;
    return (attempt.delivered ? palette.ok(text) : palette.bad(text)) + chaos;
  }
  return palette.bad(`${attempt.error ?? 'no answer'} (${attempt.duration_ms} ms)`) + chaos;
}

export function deliveryState(event: WebhookEvent, palette: Palette): string {
  switch (event.state) {
    case 'delivered': return palette.ok('delivered');
    case 'failed': return palette.bad('failed');
    case 'no_url': return palette.dim('no postback_url');
    default: return palette.warn(event.next_attempt_at ? `pending, next try ${dateTime(event.next_attempt_at)}` : 'pending');
  }
}

const attemptCount = (count: number) => (count === 1 ? '1 attempt' : `${count} attempts`);

// Six flat columns took 155; stacked in three (what, how it went, the last answer), a row fits 80
// with the event id whole and the first line still reading "invoice.paid │ delivered │ HTTP 200 …".
function eventRow(event: WebhookEvent, palette: Palette): string[] {
  const last = event.attempts.at(-1);
  return [
    `${event.event}\n${event.id}\n${dateTime(event.created_at)}`,
    `${deliveryState(event, palette)}\n${attemptCount(event.attempts.length)}`,
    last ? attemptResult(last, palette) : DASH,
  ];
}

/** The Postbacks section of `invoice get`, and the body of `events list`. */
export function renderEventTable(records: readonly WebhookEvent[], palette: Palette, title = 'Postbacks', width = terminalWidth()): string {
  if (records.length === 0) return section(title, palette.dim('no events'), palette);
  const rows = safeData(records).map((event) => eventRow(event, palette));
  return section(title, gridTable([keep('event'), 'delivery', 'last attempt'], rows, palette, width), palette);
}

/** Every delivery attempt: which event and when, beside where it went and what came back. */
export function renderAttempts(records: readonly WebhookEvent[], palette: Palette, width = terminalWidth()): string | null {
  const rows = safeData(records).flatMap((event) =>
    event.attempts.map((attempt, index) => [`${event.id}\n#${index + 1}  ${dateTime(attempt.at)}`, `${attempt.url}\n${attemptResult(attempt, palette)}`]),
  );
  if (rows.length === 0) return null;
  return section('Attempts', gridTable([keep('attempt'), 'url and answer'], rows, palette, width), palette);
}

/**
 * One event, as `events resend` shows it. The status is the one the event recorded (a `paid` event of a
 * charge refunded since still says paid), so it is labelled as the event's, beside the charge's id.
 */
export function renderEvent(record: WebhookEvent, palette: Palette, width = terminalWidth()): string {
  const event = safeData(record);
  const rows = [
    ['event id', event.id],
    ['event', event.event],
    ['charge', event.invoice_id],
    ['status in event', `${palette.status(event.status)} (the charge's status when the event was recorded)`],
    ['recorded', dateTime(event.created_at)],
    ['url', event.url || DASH],
    ['delivery', deliveryState(event, palette)],
    ['delivered at', dateTime(event.delivered_at)],
  ] as const;
  const attempts = renderAttempts([event], palette, width);
  return [section('Event', keyValueTable(rows, palette, width), palette), attempts].filter((s) => s !== null).join('\n\n');
}
