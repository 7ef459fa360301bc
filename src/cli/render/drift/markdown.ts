// The drift report as GitHub-flavoured Markdown, for a PR comment or $GITHUB_STEP_SUMMARY: the counts,
// then one table row per group, worst first. Texts from the journal are made visible (control
// characters as escapes) and then escaped, so no sample can break the table or inject HTML.
import type { DriftGroup, DriftReport, FailOn } from '../../../api/drift.js';
import { codeSpan, markdownEscape } from '../../../base/markdown.js';
import { safeData } from '../safe-text.js';
import { failing, fails } from '../../../proxy/drift/report.js';
import { acceptanceWords, headline, verdict } from './words.js';

const ICON: Record<DriftGroup['severity'], string> = { error: '🔴 error', warning: '🟠 warning', info: '🔵 info' };
const COLUMNS = ['severity', 'kind', 'operation', 'direction', 'path', 'count', 'expected', 'seen', 'first seen', 'last seen', 'entries', 'acceptance'];

/** One line of a cell: Markdown's syntax escaped (a cell cannot hold a line break). */
const cell = (text: string) => markdownEscape(text.replace(/\s*\n\s*/g, ' '));
const code = (text: string) => (text === '' ? '*(body)*' : codeSpan(text));

function row(group: DriftGroup, failOn: FailOn): string {
  const severity = fails(group, failOn) ? `**${ICON[group.severity]}**` : ICON[group.severity];
  const cells = [
    severity, code(group.kind), code(group.operation), group.direction, code(group.path), String(group.count), cell(group.expected),
    group.samples.map(code).join('<br>'), group.first_seen, group.last_seen, group.entry_ids.join(', '), cell(acceptanceWords(group) ?? ''),
  ];
  return `| ${cells.join(' | ')} |`;
}

export function renderMarkdown(report: DriftReport, failOn: FailOn): string {
  const safe = safeData(report);
  const lines = ['## Drift report', '', cell(headline(safe)), '', `**${cell(verdict(failing(safe, failOn).length, failOn))}**`];
  if (safe.groups.length > 0) {
    lines.push('', `| ${COLUMNS.join(' | ')} |`, `|${COLUMNS.map(() => '---').join('|')}|`, ...safe.groups.map((group) => row(group, failOn)));
  }
  return `${lines.join('\n')}\n`;
}
