// Postback events and their delivery attempts, as tables and as one-line summaries.
import type { DeliveryAttempt, WebhookEvent } from '../../api/postbacks.js';
import type { Palette } from './colour.js';
import { DASH, dateTime } from './format.js';
import { gridTable, keyValueTable, right, section } from './table.js';

/** "200 in 12 ms", "HTTP 500 in 3 ms", "connection refused by 127.0.0.1:9 (2 ms)". */
export function attemptResult(attempt: DeliveryAttempt, palette: Palette): string {
  if (attempt.status_code !== null) {
    const text = `HTTP ${attempt.status_code} in ${attempt.duration_ms} ms`;
    return attempt.delivered ? palette.ok(text) : palette.bad(text);
  }
  return palette.bad(`${attempt.error ?? 'no answer'} (${attempt.duration_ms} ms)`);
}

export function deliveryState(event: WebhookEvent, palette: Palette): string {
  switch (event.state) {
    case 'delivered': return palette.ok('delivered');
    case 'failed': return palette.bad('failed');
    case 'no_url': return palette.dim('no postback_url');
    default: return palette.warn(event.next_attempt_at ? `pending, next try ${dateTime(event.next_attempt_at)}` : 'pending');
  }
}

function lastResult(event: WebhookEvent, palette: Palette): string {
  const last = event.attempts.at(-1);
  return last ? attemptResult(last, palette) : DASH;
}

/** The Postbacks section of `invoice get`, and the body of `events list`. */
export function renderEventTable(events: readonly WebhookEvent[], palette: Palette, title = 'Postbacks'): string {
  if (events.length === 0) return section(title, palette.dim('no events'), palette);
  const rows = events.map((event) => [
    event.id,
    event.event,
    dateTime(event.created_at),
    deliveryState(event, palette),
    right(String(event.attempts.length)),
    lastResult(event, palette),
  ]);
  return section(title, gridTable(['event id', 'event', 'at', 'delivery', 'attempts', 'last attempt'], rows, palette), palette);
}

export function renderAttempts(events: readonly WebhookEvent[], palette: Palette): string | null {
  const rows = events.flatMap((event) =>
    event.attempts.map((attempt, index) => [event.id, right(String(index + 1)), dateTime(attempt.at), attempt.url, attemptResult(attempt, palette)]),
  );
  if (rows.length === 0) return null;
  return section('Attempts', gridTable(['event id', '#', 'at', 'url', 'result'], rows, palette), palette);
}

export function renderEvent(event: WebhookEvent, palette: Palette): string {
  const rows = [
    ['event id', event.id],
    ['event', event.event],
    ['charge', `${event.invoice_id} (${palette.status(event.status)})`],
    ['recorded', dateTime(event.created_at)],
    ['url', event.url || DASH],
    ['delivery', deliveryState(event, palette)],
    ['delivered at', dateTime(event.delivered_at)],
  ] as const;
  return [section('Event', keyValueTable(rows, palette), palette), renderAttempts([event], palette)].filter((s) => s !== null).join('\n\n');
}
