// The drift report (contract, "Production through a proxy", "Drift report"): the findings of a proxy's
// journal grouped by (operation, direction, kind, path) and counted, worst first; and the accept file
// that marks groups as known, each until a date. One shape for `pinvoice drift --format json` and the
// proxy's `GET /_pinvoice/drift`.
import { z } from 'zod';
import { DAY_OR_TIME, parseDay } from '../domain/day.js';
import { suggestField } from './did-you-mean.js';
import { KIND_NAMES, SEVERITIES, type FindingKind } from './findings.js';
import { OPERATIONS } from './operations.js';
import { TWIN_KIND_NAMES } from './twin-drift.js';

/** What --fail-on takes: a severity, or never (the report never fails). */
export const FAIL_ON = [...SEVERITIES, 'never'] as const;
export type FailOn = (typeof FAIL_ON)[number];

const OPERATION_IDS: readonly string[] = OPERATIONS.map((op) => op.id);

/** Why a name is not an operationId of the operation table (with the one it was probably meant to be), or undefined. */
export function operationProblem(name: string): string | undefined {
  if (OPERATION_IDS.includes(name)) return undefined;
  const suggestion = suggestField(name, OPERATION_IDS);
  return `is not an operation${suggestion ? `; did you mean ${suggestion}?` : ''} (one of ${OPERATION_IDS.join(', ')})`;
}

const kindEnum = z.enum(KIND_NAMES as [FindingKind, ...FindingKind[]], { error: `must be one of the finding kinds: ${KIND_NAMES.join(', ')}` });
/** An acceptance names a finding's kind, or a twin drift's (`drift --against`). */
const ACCEPTED_KINDS = [...KIND_NAMES, ...TWIN_KIND_NAMES];
const acceptedKind = z.enum(ACCEPTED_KINDS as [string, ...string[]], { error: `must be one of the finding kinds: ${KIND_NAMES.join(', ')}; or, for drift --against, ${TWIN_KIND_NAMES.join(', ')}` });

/** One entry of the accept file: a group known and accepted for a reason, until a date. */
export const Acceptance = z.strictObject({
  operation: z.string({ error: 'must be an operationId (createInvoice, searchTransaction, …)' }).superRefine((name, context) => {
    const problem = operationProblem(name);
    if (problem) context.addIssue({ code: 'custom', message: `${JSON.stringify(name)} ${problem}` });
  }),
  kind: acceptedKind,
  path: z.string({ error: 'must be the JSON pointer the report shows (`` for the body itself)' }),
  reason: z.string({ error: 'must say why the drift is accepted' }).trim().min(1, 'must say why the drift is accepted'),
  until: z.string({ error: `must be ${DAY_OR_TIME}` }).refine((text) => parseDay(text) !== undefined, `must be ${DAY_OR_TIME}`)
    .describe('the acceptance holds through this day (UTC) or until this instant; after it the group counts again'),
});
export type Acceptance = z.infer<typeof Acceptance>;
export const AcceptFile = z.array(Acceptance);

const timestamp = () => z.string().describe('ISO 8601 UTC, milliseconds, trailing Z');
const bySeverity = () => z.object({ error: z.int(), warning: z.int(), info: z.int() });

export const GROUP_STATES = ['counted', 'accepted', 'expired'] as const;
export type GroupState = (typeof GROUP_STATES)[number];

export const DriftGroup = z.object({
  operation: z.string().describe('the operationId'),
  direction: z.enum(['request', 'answer']),
  kind: kindEnum,
  severity: z.enum(SEVERITIES),
  path: z.string().describe('the JSON pointer, array indices as *; `headers.<name>` for a header'),
  count: z.int().describe('how many exchanges showed it'),
  first_seen: timestamp().describe('the `at` of the first exchange that showed it'),
  last_seen: timestamp().describe('the `at` of the last'),
  entry_ids: z.array(z.int()).max(5).describe('the journal entries of the last five exchanges that showed it (`pinvoice logs show ID --journal FILE`)'),
  expected: z.string().describe('what the contract has there'),
  samples: z.array(z.string()).max(5).describe('up to five distinct `seen` values, in the order first seen'),
  state: z.enum(GROUP_STATES).describe('counted; accepted (an acceptance holds: it does not count); expired (its acceptance has run out: it counts again)'),
  acceptance: z.object({ reason: z.string(), until: z.string() }).nullable().describe('the acceptance that matched, when one did'),
});
export type DriftGroup = z.infer<typeof DriftGroup>;

export const DriftReport = z.object({
  since: timestamp().nullable().describe('only exchanges from this instant on (null: the whole journal)'),
  operation: z.string().nullable().describe('only findings of this operation (null: every operation)'),
  entries: z.int().describe('exchanges read'),
  entries_with_findings: z.int().describe('of them, those with at least one finding (of the operation asked for)'),
  groups: z.array(DriftGroup).describe('worst first: severity, then count, then operation, path, direction and kind'),
  summary: z.object({
    counted: bySeverity().describe('groups that count (expired ones included), by severity'),
    accepted: bySeverity().describe('groups an acceptance holds'),
    expired: bySeverity().describe('groups whose acceptance has run out (also in counted)'),
  }),
});
export type DriftReport = z.infer<typeof DriftReport>;
