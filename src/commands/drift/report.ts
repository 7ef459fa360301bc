// `pinvoice drift`: reads the proxy's journal, builds the report (src/proxy/drift), prints it in the
// format asked for on stdout, and fails the run (exit 15, a message on stderr) when a group at or above
// --fail-on counts. Every mistake in what was given is found before the journal is read.
import { closeSync, openSync, readSync } from 'node:fs';
import { operationProblem } from '../../api/drift.js';
import { parseDuration } from '../../base/duration.js';
import { InputError } from '../../base/input-error.js';
import { unreadable } from '../../base/read-input.js';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import { when } from '../../cli/when.js';
import { readAcceptFile } from '../../proxy/drift/accept.js';
import { buildReport, failing } from '../../proxy/drift/report.js';
import { acceptanceWords, groupName, verdict } from '../../cli/render/drift/words.js';
import { openProxyJournal, type ProxyJournal } from '../../proxy/journal.js';
import type { AnyGroup, AnyReport } from '../../cli/render/drift/words.js';
import type { DriftFlags } from './index.js';

/** --since as an instant: a duration back from now, a date (its start in the user's zone) or a date-time. */
function sinceInstant(text: string, now: Date): Date {
  const seconds = parseDuration(text);
  return seconds === undefined ? new Date(when('--since', text)) : new Date(now.getTime() - seconds * 1000);
}

/** The journal a file holds; a file it cannot read, or one that is no proxy's journal, is an input error naming it. */
async function openJournal(file: string): Promise<ProxyJournal> {
  try {
    // (opened and read: a folder opens, and only its reading says what it is)
    const fd = openSync(file, 'r');
    try {
      readSync(fd, Buffer.alloc(1), 0, 1, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw unreadable('--journal', file, error);
  }
  try {
    return await openProxyJournal(file);
  } catch (error) {
    throw new InputError(`--journal: ${(error as Error).message}`);
  }
}

async function render(report: AnyReport, flags: DriftFlags, format: string, out: Output, now: Date): Promise<void> {
  if (format === 'json') return out.jsonData(report);
  if (format === 'markdown') return out.data((await import('../../cli/render/drift/markdown.js')).renderMarkdown(report, flags.failOn));
  if (format === 'junit') return out.data((await import('../../cli/render/drift/junit.js')).renderJunit(report, flags.failOn, now));
  out.data((await import('../../cli/render/drift/text.js')).renderText(report, out.palette));
}

export async function drift(flags: DriftFlags): Promise<void> {
  const format = flags.json ? 'json' : flags.format;
  if (flags.json && flags.format !== 'text' && flags.format !== 'json') throw usageError(`--json and --format ${flags.format} ask for two formats: give one`);
  const out = createOutput({ json: format === 'json', color: flags.color, utc: flags.utc });
  const problem = flags.operation === undefined ? undefined : operationProblem(flags.operation);
  if (problem !== undefined) throw usageError(`--operation: ${JSON.stringify(flags.operation)} ${problem}`);
  const now = new Date();
  const since = flags.since === undefined ? undefined : sinceInstant(flags.since, now);
  const accept = flags.accept === undefined ? [] : await readAcceptFile(flags.accept);
  if (flags.against === undefined && (flags.profile !== undefined || flags.tokenFile !== undefined)) throw usageError(`${flags.profile !== undefined ? '--profile' : '--token-file'} goes with --against URL (the pinvoice serve it names takes that token)`);
  const journal = await openJournal(flags.journal);
  let report: AnyReport;
  try {
    const entries = journal.entries(since === undefined ? {} : { since: since.getTime() });
    report = flags.against === undefined
      ? await buildReport(entries, { since, operation: flags.operation, accept, now })
      : await (await import('./against.js')).twinDrift(entries, { against: flags.against, profile: flags.profile, tokenFile: flags.tokenFile, since, operation: flags.operation, accept, now });
  } finally {
    await journal.close();
  }
  await render(report, flags, format, out, now);
  for (const group of (report.groups as AnyGroup[]).filter((g) => g.state === 'expired')) out.message(`pinvoice: ${group.kind} at ${groupName(group)}: ${acceptanceWords(group)}`);
  const failed = failing<AnyGroup>(report, flags.failOn).length;
  if (failed > 0) throw new CliError(verdict(failed, flags.failOn), EXIT.drift);
}
