// The drift report for a terminal: the counts, then one block per group, worst first. Every text from
// the journal (paths, samples, reasons) is made terminal-safe before colour is added.
import type { DriftGroup } from '../../../api/drift.js';
import type { Severity } from '../../../api/findings.js';
import type { TwinGroup } from '../../../api/twin-drift.js';
import type { Palette } from '../colour.js';
import { dateTime } from '../format.js';
import { safeData } from '../safe-text.js';
import { acceptanceWords, groupName, headlines, isTwinGroup, twinSides, type AnyGroup, type AnyReport } from './words.js';

const LABEL_WIDTH = 12;

function paintSeverity(severity: Severity, palette: Palette): (text: string) => string {
  return severity === 'error' ? palette.bad : severity === 'warning' ? palette.warn : palette.info;
}

function line(label: string, value: string, palette: Palette): string {
  return `  ${palette.dim(label.padEnd(LABEL_WIDTH))}${value}`;
}

/** A journal finding's group: what the contract expected, what was seen, when. */
const findingLines = (group: DriftGroup, palette: Palette) => [
  line('expected', group.expected, palette),
  line('seen', group.samples.join('; '), palette),
  line('first seen', dateTime(group.first_seen), palette),
  line('last seen', dateTime(group.last_seen), palette),
  line('entries', group.entry_ids.join(', '), palette),
];

/** A twin group: each side's types (or status), and production's entries that showed it. */
const twinLines = (group: TwinGroup, palette: Palette) => [
  ...twinSides(group).map(([label, value]) => line(label, value, palette)),
  ...(group.entry_ids.length === 0 ? [] : [line('entries', group.entry_ids.join(', '), palette)]),
];

function block(group: AnyGroup, palette: Palette): string {
  const accepted = group.state === 'accepted';
  const severity = paintSeverity(group.severity, palette)(group.severity.toUpperCase());
  const count = isTwinGroup(group) ? '' : `  ×${group.count}`;
  const title = `${accepted ? palette.dim(group.severity.toUpperCase()) : severity}  ${palette.bold(group.kind)}  ${groupName(group)}${count}`;
  const lines = [title, ...(isTwinGroup(group) ? twinLines(group, palette) : findingLines(group, palette))];
  const acceptance = acceptanceWords(group);
  if (acceptance !== undefined) lines.push(`  ${accepted ? palette.ok(acceptance) : palette.warn(acceptance)}`);
  return lines.join('\n');
}

export function renderText(report: AnyReport, palette: Palette): string {
  const safe = safeData(report);
  const [first = '', ...more] = headlines(safe);
  return [[palette.heading(first), ...more].join('\n'), ...(safe.groups as AnyGroup[]).map((group) => block(group, palette))].join('\n\n');
}
