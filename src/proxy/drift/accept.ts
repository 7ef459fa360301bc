// The accept file of `pinvoice drift --accept FILE`: drift known and accepted for a reason, each until a
// day. It is read strictly (a team keeps it in its repository; a typo must not silently accept nothing)
// and every bad member is named by its JSON path.
import { readTextFlag } from '../../base/read-input.js';
import { InputError } from '../../base/input-error.js';
import { parseDay } from '../../domain/day.js';
import { AcceptFile, type Acceptance, type DriftGroup, type GroupState } from '../../api/drift.js';
import { zodDetails } from '../../api/validate.js';

/** The instant an acceptance runs out: for a day, the midnight after it (UTC). */
const endOf = (acceptance: Acceptance) => parseDay(acceptance.until)?.end ?? 0;

/** The accept file's text checked: its rules, or an InputError naming the file and each bad member. */
export function parseAcceptText(text: string, file: string): Acceptance[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`--accept ${file}: not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(value)) throw new InputError(`--accept ${file}: must hold a JSON array of {operation, kind, path, reason, until}`);
  const parsed = AcceptFile.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = zodDetails(parsed.error).map((detail) => `${detail.path}: ${detail.message}`);
  throw new InputError(`--accept ${file}: ${problems.length === 1 ? 'a member is' : `${problems.length} members are`} not valid:\n  ${problems.join('\n  ')}`);
}

export async function readAcceptFile(file: string): Promise<Acceptance[]> {
  return parseAcceptText(await readTextFlag('--accept', file), file);
}

/** What an acceptance is matched against: a drift group's, or a twin-drift group's, names. */
type Named = Pick<DriftGroup, 'operation' | 'path'> & { kind: string };

const matches = (rule: Acceptance, group: Named) =>
  rule.operation === group.operation && rule.kind === group.kind && rule.path === group.path;

/**
 * What the accept file says of a group: accepted while a matching rule holds (the one that holds
 * longest), expired once every matching rule has run out (the one that ran out last is named), else counted.
 */
export function judge(group: Named, rules: readonly Acceptance[], now: Date): { state: GroupState; acceptance: { reason: string; until: string } | null } {
  const latest = rules.filter((rule) => matches(rule, group)).sort((a, b) => endOf(b) - endOf(a))[0];
  if (latest === undefined) return { state: 'counted', acceptance: null };
  return { state: now.getTime() < endOf(latest) ? 'accepted' : 'expired', acceptance: { reason: latest.reason, until: latest.until } };
}
