// The drift report for a terminal: the counts, then one block per group, worst first. Every text from
// the journal (paths, samples, reasons) is made terminal-safe before colour is added.
import type { DriftGroup, DriftReport } from '../../../api/drift.js';
import type { Severity } from '../../../api/findings.js';
import type { Palette } from '../colour.js';
import { dateTime } from '../format.js';
import { safeData } from '../safe-text.js';
import { acceptanceWords, groupName, headline } from './words.js';

const LABEL_WIDTH = 12;

function paintSeverity(severity: Severity, palette: Palette): (text: string) => string {
  return severity === 'error' ? palette.bad : severity === 'warning' ? palette.warn : palette.info;
}

function line(label: string, value: string, palette: Palette): string {
  return `  ${palette.dim(label.padEnd(LABEL_WIDTH))}${value}`;
}

function block(group: DriftGroup, palette: Palette): string {
  const accepted = group.state === 'accepted';
  const severity = paintSeverity(group.severity, palette)(group.severity.toUpperCase());
  const title = `${accepted ? palette.dim(group.severity.toUpperCase()) : severity}  ${palette.bold(group.kind)}  ${groupName(group)}  ×${group.count}`;
  const lines = [
    title,
    line('expected', group.expected, palette),
    line('seen', group.samples.join('; '), palette),
    line('first seen', dateTime(group.first_seen), palette),
    line('last seen', dateTime(group.last_seen), palette),
    line('entries', group.entry_ids.join(', '), palette),
  ];
  const acceptance = acceptanceWords(group);
  if (acceptance !== undefined) lines.push(`  ${accepted ? palette.ok(acceptance) : palette.warn(acceptance)}`);
  return lines.join('\n');
}

export function renderText(report: DriftReport, palette: Palette): string {
  const safe = safeData(report);
  return [palette.heading(headline(safe)), ...safe.groups.map((group) => block(group, palette))].join('\n\n');
}
