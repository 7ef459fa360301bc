// The drift report as JUnit XML, which CI servers read (Jenkins, GitLab, GitHub's test reporters): one
// testsuite per operation, one testcase per group. A group that fails the run at --fail-on is a
// <failure>; an accepted or less severe group passes, and its <system-out> says why.
import type { DriftGroup, FailOn } from '../../../api/drift.js';
import type { TwinGroup } from '../../../api/twin-drift.js';
import { safeData } from '../safe-text.js';
import { fails } from '../../../proxy/drift/report.js';
import { acceptanceWords, groupName, headlines, isTwinGroup, twinSides, type AnyGroup, type AnyReport } from './words.js';

/** Characters XML 1.0 cannot hold at all (safeData has already made the controls visible; this is the last guard). */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export const xml = (text: string) => text.replace(NOT_XML, '').replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

function twinDetails(group: TwinGroup): string {
  return [
    `${group.severity} ${group.kind} at ${groupName(group)}`,
    ...twinSides(group).map(([label, value]) => `${label}: ${value}`),
    ...(group.entry_ids.length === 0 ? [] : [`production's entries: ${group.entry_ids.join(', ')} (pinvoice logs show ID --journal FILE)`]),
    ...(group.acceptance === null ? [] : [acceptanceWords(group) ?? '']),
  ].join('\n');
}

function details(group: AnyGroup): string {
  if (isTwinGroup(group)) return twinDetails(group);
  return [
    `${group.severity} ${group.kind} at ${groupName(group)}, seen in ${group.count} exchange${group.count === 1 ? '' : 's'}`,
    `expected: ${group.expected}`,
    `seen: ${group.samples.join('; ')}`,
    `first seen ${group.first_seen}, last seen ${group.last_seen}`,
    `entries: ${group.entry_ids.join(', ')} (pinvoice logs show ID --journal FILE)`,
    ...(group.acceptance === null ? [] : [acceptanceWords(group) ?? '']),
  ].join('\n');
}

/** What a failure's message says: the contract's expectation, or a twin's production side. */
const failureWords = (group: AnyGroup) => (isTwinGroup(group) ? twinSides(group).map(([label, value]) => `${label}: ${value}`).join(', ') : `expected ${(group as DriftGroup).expected}`);

function testcase(group: AnyGroup, failOn: FailOn): string {
  const open = `    <testcase classname="${xml(`drift.${group.operation}`)}" name="${xml(`${group.kind} ${groupName(group)}`)}" time="0">`;
  if (fails(group, failOn)) {
    return `${open}\n      <failure message="${xml(`${group.severity} ${group.kind}: ${failureWords(group)}`)}" type="${xml(group.kind)}">${xml(details(group))}</failure>\n    </testcase>`;
  }
  const why = group.state === 'accepted' ? 'passes: accepted' : `passes: below --fail-on ${failOn}`;
  return `${open}\n      <system-out>${xml(`${why}\n${details(group)}`)}</system-out>\n    </testcase>`;
}

function suite(name: string, cases: readonly string[], failures: number, timestamp: string): string {
  return `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="0" timestamp="${timestamp}">\n${cases.join('\n')}\n  </testsuite>`;
}

export function renderJunit(report: AnyReport, failOn: FailOn, now: Date): string {
  const safe = safeData(report);
  const groups: AnyGroup[] = safe.groups;
  // JUnit's timestamp has no zone: the UTC time, without its Z
  const timestamp = now.toISOString().slice(0, 19);
  const operations = [...new Set(groups.map((group) => group.operation))].sort();
  const suites = operations.map((operation) => {
    const ofIt = groups.filter((group) => group.operation === operation);
    return suite(`drift ${operation}`, ofIt.map((group) => testcase(group, failOn)), ofIt.filter((group) => fails(group, failOn)).length, timestamp);
  });
  // a journal with no drift is one passing case, so that CI shows the check ran
  if (suites.length === 0) suites.push(suite('drift', [`    <testcase classname="drift" name="no drift" time="0">\n      <system-out>${xml(headlines(safe).join('\n'))}</system-out>\n    </testcase>`], 0, timestamp));
  const failures = groups.filter((group) => fails(group, failOn)).length;
  const tests = Math.max(1, groups.length);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="pinvoice drift" tests="${tests}" failures="${failures}" errors="0" time="0">\n${suites.join('\n')}\n</testsuites>\n`;
}
