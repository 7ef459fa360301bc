// What every format of the drift report says the same way: the counts of its header line, a group's
// name, and what the accept file made of it. The formats only lay these out and escape them.
import type { DriftGroup, DriftReport, FailOn } from '../../../api/drift.js';
import { SEVERITIES, type Severity } from '../../../api/findings.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 errors, 1 warning" (severities with none left out; "none" when all are). */
export function bySeverity(counts: Record<Severity, number>): string {
  const said = [...SEVERITIES].reverse().filter((severity) => counts[severity] > 0).map((severity) => plural(counts[severity], severity));
  return said.length === 0 ? 'none' : said.join(', ');
}

const total = (counts: Record<Severity, number>) => counts.error + counts.warning + counts.info;

/** "120 exchanges read, 14 with findings: 3 groups count (1 error, 2 warnings); 1 accepted; 1 expired acceptance" */
export function headline(report: DriftReport): string {
  const { counted, accepted, expired } = report.summary;
  const scope = [report.operation && `operation ${report.operation}`, report.since && `since ${report.since}`].filter(Boolean).join(', ');
  const read = `${plural(report.entries, 'exchange')} read${scope ? ` (${scope})` : ''}, ${report.entries_with_findings} with findings`;
  if (report.groups.length === 0) return `${read}: no drift`;
  const parts = [`${plural(total(counted), 'group')} ${total(counted) === 1 ? 'counts' : 'count'} (${bySeverity(counted)})`];
  if (total(accepted) > 0) parts.push(`${total(accepted)} accepted`);
  if (total(expired) > 0) parts.push(`${plural(total(expired), 'acceptance')} expired (counted again)`);
  return `${read}: ${parts.join('; ')}`;
}

/** "createInvoice answer /data/amount" (the body itself: "(body)") */
export const groupName = (group: DriftGroup) => `${group.operation} ${group.direction} ${group.path === '' ? '(body)' : group.path}`;

/** What the accept file made of a group, or undefined when no entry matched it. */
export function acceptanceWords(group: DriftGroup): string | undefined {
  if (group.acceptance === null) return undefined;
  const { reason, until } = group.acceptance;
  return group.state === 'accepted' ? `accepted until ${until}: ${reason}` : `acceptance expired (until ${until}), counted again: ${reason}`;
}

/** "1 group at or above error fails the run" / "no group at or above warning" / "--fail-on never". */
export function verdict(failingCount: number, failOn: FailOn): string {
  if (failOn === 'never') return 'nothing fails the run (--fail-on never)';
  return failingCount === 0 ? `no group at or above ${failOn} is left: the run passes` : `${plural(failingCount, 'group')} at or above ${failOn} ${failingCount === 1 ? 'fails' : 'fail'} the run`;
}
