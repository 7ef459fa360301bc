// The drift report as GitHub-flavoured Markdown, for a PR comment or $GITHUB_STEP_SUMMARY: the counts,
// then one table row per group, worst first. Texts from the journal are made visible (control
// characters as escapes) and then escaped, so no sample can break the table or inject HTML.
import type { DriftGroup, FailOn } from '../../../api/drift.js';
import type { TwinGroup } from '../../../api/twin-drift.js';
import { codeSpan, markdownEscape } from '../../../base/markdown.js';
import { safeData } from '../safe-text.js';
import { failing, fails } from '../../../proxy/drift/report.js';
import { acceptanceWords, headlines, isTwinReport, twinSides, verdict, type AnyGroup, type AnyReport } from './words.js';

const ICON: Record<DriftGroup['severity'], string> = { error: '🔴 error', warning: '🟠 warning', info: '🔵 info' };
const COLUMNS = ['severity', 'kind', 'operation', 'direction', 'path', 'count', 'expected', 'seen', 'first seen', 'last seen', 'entries', 'acceptance'];
const TWIN_COLUMNS = ['severity', 'kind', 'operation', 'method', 'status', 'path', 'production', 'serve', 'entries', 'acceptance'];

/** One line of a cell: Markdown's syntax escaped (a cell cannot hold a line break). */
const cell = (text: string) => markdownEscape(text.replace(/\s*\n\s*/g, ' '));
const code = (text: string) => (text === '' ? '*(body)*' : codeSpan(text));

const severityCell = (group: AnyGroup, failOn: FailOn) => (fails(group, failOn) ? `**${ICON[group.severity]}**` : ICON[group.severity]);

function twinRow(group: TwinGroup, failOn: FailOn): string {
  const cells = [
    severityCell(group, failOn), code(group.kind), code(group.operation), group.method, String(group.status), code(group.path),
    ...twinSides(group).map(([, value]) => cell(value)), group.entry_ids.join(', '), cell(acceptanceWords(group) ?? ''),
  ];
  return `| ${cells.join(' | ')} |`;
}

function row(group: DriftGroup, failOn: FailOn): string {
  const severity = severityCell(group, failOn);
  const cells = [
    severity, code(group.kind), code(group.operation), group.direction, code(group.path), String(group.count), cell(group.expected),
    group.samples.map(code).join('<br>'), group.first_seen, group.last_seen, group.entry_ids.join(', '), cell(acceptanceWords(group) ?? ''),
  ];
  return `| ${cells.join(' | ')} |`;
}

export function renderMarkdown(report: AnyReport, failOn: FailOn): string {
  const safe = safeData(report);
  const twin = isTwinReport(safe);
  const lines = [twin ? '## Twin drift report' : '## Drift report', '', ...headlines(safe).flatMap((line) => [cell(line), '']), `**${cell(verdict(failing<AnyGroup>(safe, failOn).length, failOn))}**`];
  const columns = twin ? TWIN_COLUMNS : COLUMNS;
  const rows = twin ? safe.groups.map((group) => twinRow(group, failOn)) : safe.groups.map((group) => row(group, failOn));
  if (rows.length > 0) lines.push('', `| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`, ...rows);
  return `${lines.join('\n')}\n`;
}
