// One journal entry whole (`pinvoice logs show`): what it was, the headers kept, the body sent and the
// answer, pretty-printed, and the validation problems of a refusal. The server redacted it before it
// kept it (card number: first 6 and last 4; no security code; a token as its name and a hint).
import type { EntryView } from '../../client/read/journal.js';
import type { Palette } from './colour.js';
import { DASH, dateTime, orDash, yesNo } from './format.js';
import { arrow, duration, safeEntry, statusText } from './journal.js';
import { safeJson, safeText } from './safe-text.js';
import { gridTable, keep, keyValueTable, section, type Row } from './table.js';
import { terminalWidth } from './width.js';

const DIRECTION: Record<string, string> = {
  in: 'in: a request the sandbox received', out: 'out: a postback attempt the sandbox sent',
  tunnel: 'tunnel: a CONNECT to another host than the gateway, passed through untouched (none of its bytes kept)',
};

/**
 * A body as JSON, two spaces a level (its strings' controls escaped as JSON escapes them); text (a
 * receiver's answer, a body cut at the cap) as it is, made safe; none as "none".
 */
function bodyText(body: unknown, palette: Palette): string {
  if (body === null || body === undefined) return palette.dim('none');
  if (typeof body === 'string') return safeText(body);
  return safeJson(JSON.stringify(body, null, 2));
}

function summaryRows(entry: EntryView, palette: Palette): Row[] {
  const rows: Row[] = [
    ['time', dateTime(entry.at)],
    ['sandbox time', dateTime(entry.sandboxAt)],
    ['direction', `${arrow(entry)} ${DIRECTION[entry.direction ?? ''] ?? orDash(entry.direction)}`],
    ['method', orDash(entry.method)],
    ['path', `${orDash(entry.path)}${entry.query === '' ? '' : `?${entry.query}`}`],
    ['status', `${statusText(entry, palette)}${entry.error !== undefined && entry.status !== undefined ? ` (${entry.error})` : ''}`],
    ['took', duration(entry)],
  ];
  if (entry.direction === 'out') {
    return [...rows,
      ['event', `${orDash(entry.event)}${entry.eventId === undefined ? '' : ` (${entry.eventId})`}`],
      ['attempt', orDash(entry.attempt)],
      ['url', orDash(entry.url)],
      ['signed with', entry.signatureHeaders.length === 0 ? DASH : entry.signatureHeaders.join(', ')],
      ['error', orDash(entry.error)],
      ['charges', orDash(entry.chargeIds.join(', '))],
    ];
  }
  if (entry.direction === 'tunnel') return [...rows, ['error', orDash(entry.error)]];
  return [...rows,
    ['token', `${orDash(entry.tokenName)}${entry.tokenHint === undefined ? '' : ` (${entry.tokenHint})`}`],
    ['idempotency key', orDash(entry.idempotencyKey)],
    ['replayed', yesNo(entry.replayed)],
    ['charges', orDash(entry.chargeIds.join(', '))],
  ];
}

/** `logs show`: the summary, the headers, both bodies and the problems, each a section. */
export function renderJournalEntry(given: EntryView, palette: Palette, width = terminalWidth()): string {
  const entry = safeEntry(given);
  const parts = [
    section(`Entry ${entry.id ?? DASH}`, keyValueTable(summaryRows(entry, palette), palette, width), palette),
    section('Headers', entry.headers.length === 0 ? palette.dim('none kept') : gridTable([keep('name'), 'value'], entry.headers, palette, width), palette),
    section(entry.direction === 'out' ? 'Postback body' : 'Request body', bodyText(given.body, palette), palette),
    section(entry.direction === 'out' ? "Receiver's answer" : 'Answer', bodyText(given.responseBody, palette), palette),
  ];
  if (entry.problems.length > 0) {
    const rows = entry.problems.map((problem) => [problem.path || '(body)', problem.message]);
    parts.push(section('Problems', gridTable([keep('at (JSON pointer)'), 'problem'], rows, palette, width), palette));
  }
  if (given.findings.length > 0) {
    const rows = given.findings.map((finding) => [finding.severity, finding.kind, `${finding.direction === 'request' ? 'request ' : ''}${finding.path || '(body)'}`, finding.expected, finding.seen].map(safeText));
    parts.push(section('Findings (pinvoice drift)', gridTable(['severity', 'kind', keep('at'), 'expected', 'seen'], rows, palette, width), palette));
  }
  return parts.join('\n\n');
}
