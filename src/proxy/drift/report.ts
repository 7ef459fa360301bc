// The drift report: a journal's findings grouped by (operation, direction, kind, path), counted,
// matched with the accept file and put worst first. Pure: the entries and the time come in, the
// report goes out (the command, and the proxy's GET /_pinvoice/drift, read the journal).
import type { Acceptance, DriftGroup, DriftReport, FailOn } from '../../api/drift.js';
import { severityRank, type Finding, type Severity } from '../../api/findings.js';
import { judge } from './accept.js';

export interface ReportEntry {
  id: number;
  at: string;
  findings: readonly Finding[];
}

export interface ReportOptions {
  since?: Date | undefined;
  operation?: string | undefined;
  accept?: readonly Acceptance[] | undefined;
  now: Date;
}

/** How many entry ids and samples a group keeps. */
const KEEP = 5;

type Tally = Omit<DriftGroup, 'state' | 'acceptance'>;

const groupKey = (finding: Finding) => JSON.stringify([finding.operation, finding.direction, finding.kind, finding.path]);

function startGroup(finding: Finding, entry: ReportEntry): Tally {
  const { operation, direction, kind, severity, path, expected } = finding;
  return { operation, direction, kind, severity, path, count: 0, first_seen: entry.at, last_seen: entry.at, entry_ids: [], expected, samples: [] };
}

/** One exchange's finding of this group: counted once per exchange, however many items showed it. */
function addTo(group: Tally, finding: Finding, entry: ReportEntry, counted: boolean): void {
  if (!group.samples.includes(finding.seen) && group.samples.length < KEEP) group.samples.push(finding.seen);
  if (counted) return;
  group.count++;
  if (Date.parse(entry.at) < Date.parse(group.first_seen)) group.first_seen = entry.at;
  if (Date.parse(entry.at) >= Date.parse(group.last_seen)) group.last_seen = entry.at;
  // the latest ids: older entries are the first a bounded journal drops
  group.entry_ids = [...group.entry_ids, entry.id].slice(-KEEP);
}

/** Worst first: severity, then count, then a stable order of what names the group. */
export function compareGroups(a: Tally, b: Tally): number {
  return severityRank(b.severity) - severityRank(a.severity) || b.count - a.count
    || a.operation.localeCompare(b.operation) || a.path.localeCompare(b.path) || a.direction.localeCompare(b.direction) || a.kind.localeCompare(b.kind);
}

const zero = (): Record<Severity, number> => ({ error: 0, warning: 0, info: 0 });

/** The groups counted, accepted and expired, by severity (the twin-drift report's too). */
export function summarise(groups: readonly Pick<DriftGroup, 'state' | 'severity'>[]): DriftReport['summary'] {
  const summary = { counted: zero(), accepted: zero(), expired: zero() };
  for (const group of groups) {
    if (group.state === 'accepted') summary.accepted[group.severity]++;
    else summary.counted[group.severity]++;
    if (group.state === 'expired') summary.expired[group.severity]++;
  }
  return summary;
}

/** The report of these entries (oldest first or not), as of `options.now`. */
export async function buildReport(entries: Iterable<ReportEntry> | AsyncIterable<ReportEntry>, options: ReportOptions): Promise<DriftReport> {
  const since = options.since?.getTime();
  const tallies = new Map<string, Tally>();
  let read = 0;
  let withFindings = 0;
  for await (const entry of entries) {
    if (since !== undefined && Date.parse(entry.at) < since) continue;
    read++;
    const findings = entry.findings.filter((finding) => options.operation === undefined || finding.operation === options.operation);
    if (findings.length > 0) withFindings++;
    const seen = new Set<string>();
    for (const finding of findings) {
      const key = groupKey(finding);
      const group = tallies.get(key) ?? startGroup(finding, entry);
      tallies.set(key, group);
      addTo(group, finding, entry, seen.has(key));
      seen.add(key);
    }
  }
  const groups = [...tallies.values()].sort(compareGroups).map((group) => ({ ...group, ...judge(group, options.accept ?? [], options.now) }));
  return {
    since: options.since?.toISOString() ?? null,
    operation: options.operation ?? null,
    entries: read,
    entries_with_findings: withFindings,
    groups,
    summary: summarise(groups),
  };
}

/** Whether a group fails the run at this --fail-on: it counts (not accepted) and is that severe or worse. */
export function fails(group: Pick<DriftGroup, 'state' | 'severity'>, failOn: FailOn): boolean {
  return failOn !== 'never' && group.state !== 'accepted' && severityRank(group.severity) >= severityRank(failOn);
}

/** The groups that fail the run at this --fail-on. */
export function failing<G extends Pick<DriftGroup, 'state' | 'severity'>>(report: { groups: readonly G[] }, failOn: FailOn): G[] {
  return report.groups.filter((group) => fails(group, failOn));
}
