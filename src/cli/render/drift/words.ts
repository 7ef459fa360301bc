// What every format of the drift report says the same way: the counts of its header line, a group's
// name, and what the accept file made of it. The formats only lay these out and escape them.
import type { DriftGroup, DriftReport, FailOn } from '../../../api/drift.js';
import { SEVERITIES, type Severity } from '../../../api/findings.js';
import type { TwinDriftReport, TwinGroup } from '../../../api/twin-drift.js';

/** Either report `pinvoice drift` prints: the journal's findings, or (--against) the twin's drift. */
export type AnyReport = DriftReport | TwinDriftReport;
export type AnyGroup = DriftGroup | TwinGroup;
export const isTwinReport = (report: AnyReport): report is TwinDriftReport => 'against' in report;
export const isTwinGroup = (group: AnyGroup): group is TwinGroup => 'serve' in group;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 errors, 1 warning" (severities with none left out; "none" when all are). */
export function bySeverity(counts: Record<Severity, number>): string {
  // ("3 info", as one says it: info is no count noun)
  const said = [...SEVERITIES].reverse().filter((severity) => counts[severity] > 0).map((severity) => plural(counts[severity], severity, severity === 'info' ? 'info' : undefined));
  return said.length === 0 ? 'none' : said.join(', ');
}

const total = (counts: Record<Severity, number>) => counts.error + counts.warning + counts.info;

/** "120 exchanges read, 14 with findings: 3 groups count (1 error, 2 warnings); 1 accepted; 1 expired acceptance" */
/** "operation createInvoice, since 2026-11-25T03:00:00.000Z" (empty: the whole journal) */
const scopeWords = (report: Pick<DriftReport, 'operation' | 'since'>) =>
  [report.operation && `operation ${report.operation}`, report.since && `since ${report.since}`].filter(Boolean).join(', ');

export function headline(report: DriftReport): string {
  const scope = scopeWords(report);
  const read = `${plural(report.entries, 'exchange')} read${scope ? ` (${scope})` : ''}, ${report.entries_with_findings} with findings`;
  if (report.groups.length === 0) return `${read}: no drift`;
  return `${read}: ${countsWords(report.summary)}`;
}

/** "3 groups count (1 error, 2 warnings); 1 accepted; 1 acceptance expired (counted again)" */
function countsWords({ counted, accepted, expired }: DriftReport['summary']): string {
  const parts = [`${plural(total(counted), 'group')} ${total(counted) === 1 ? 'counts' : 'count'} (${bySeverity(counted)})`];
  if (total(accepted) > 0) parts.push(`${total(accepted)} accepted`);
  if (total(expired) > 0) parts.push(`${plural(total(expired), 'acceptance')} expired (counted again)`);
  return parts.join('; ');
}

const pathWords = (path: string) => (path === '' ? '(body)' : path);

/** "createInvoice answer /data/amount" (the body itself: "(body)"); a twin group's: "createInvoice POST 200 /data/pix" */
export const groupName = (group: AnyGroup) =>
  (isTwinGroup(group) ? `${group.operation} ${group.method} ${group.status} ${pathWords(group.path)}` : `${group.operation} ${group.direction} ${pathWords(group.path)}`);

/** One side of a twin group: "string (3 of 3 answers)", "never (0 of 2 answers)"; for a status kind, how many answers it gave. */
function sideWords(side: TwinGroup['production'], status: boolean): string {
  const answers = plural(side.of, 'answer');
  if (status) return side.of === 0 ? 'never answered it' : `${answers}`;
  return side.types.length === 0 ? `never (0 of ${answers})` : `${side.types.join(' or ')} (${side.answers} of ${answers})`;
}

/** What a twin group says of each side: the member's JSON types there, or the status answered. */
export function twinSides(group: TwinGroup): [label: string, value: string][] {
  const status = group.kind.startsWith('status-');
  return [['production', sideWords(group.production, status)], ['serve', sideWords(group.serve, status)]];
}

const percent = (ratio: number | null) => (ratio === null ? 'none' : `${(Math.floor(ratio * 1000) / 10).toFixed(1)}%`);

/** The twin-drift report's header lines: the fidelity and the groups, what was sent again, what was skipped. */
export function twinHeadlines(report: TwinDriftReport): string[] {
  const { fidelity, resent, answers } = report;
  const scope = scopeWords(report);
  const total = report.groups.length === 0 ? 'no drift' : countsWords(report.summary);
  const cards = resent.cards_replaced === 0 ? '' : ` (${resent.cards_replaced} with a serve test card for its redacted card)`;
  const lines = [
    `twin drift against ${report.against}${scope ? ` (${scope})` : ''}: fidelity ${percent(fidelity.ratio)} (${fidelity.matched} of ${plural(fidelity.of, 'production member')} sent by serve with the same type); ${total}`,
    `sent again: ${plural(resent.creates, 'create')}${cards}, ${plural(resent.refunds, 'refund')}, ${plural(resent.lookups, 'lookup')}; compared: ${plural(report.pairs, '(operation, method, status) pair')}, ${plural(answers.production, 'production answer')}, ${plural(answers.serve, 'serve answer')}`,
  ];
  if (report.skipped.length > 0) lines.push(`skipped: ${report.skipped.map(({ reason, count }) => `${count} ${reason}`).join('; ')}`);
  if (resent.creates === 0) lines.push('the journal holds no create to send again: nothing of serve to compare');
  return lines;
}

/** Every header line of either report. */
export const headlines = (report: AnyReport): string[] => (isTwinReport(report) ? twinHeadlines(report) : [headline(report)]);

/** What the accept file made of a group, or undefined when no entry matched it. */
export function acceptanceWords(group: AnyGroup): string | undefined {
  if (group.acceptance === null) return undefined;
  const { reason, until } = group.acceptance;
  return group.state === 'accepted' ? `accepted until ${until}: ${reason}` : `acceptance expired (until ${until}), counted again: ${reason}`;
}

/** "1 group at or above error fails the run" / "no group at or above warning" / "--fail-on never". */
export function verdict(failingCount: number, failOn: FailOn): string {
  if (failOn === 'never') return 'nothing fails the run (--fail-on never)';
  return failingCount === 0 ? `no group at or above ${failOn} is left: the run passes` : `${plural(failingCount, 'group')} at or above ${failOn} ${failingCount === 1 ? 'fails' : 'fail'} the run`;
}
