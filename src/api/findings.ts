// Findings: how an exchange seen through `pinvoice proxy` differs from the contract (contract,
// "Production through a proxy", "Checks, out of band"). The kinds and their severities are said here
// once; the rules that find them walk the schemas of src/api (finding-rules.ts), never a copy of them.
import { z } from 'zod';

export const SEVERITIES = ['info', 'warning', 'error'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Each kind of finding and its severity, as the contract grades them. */
export const FINDING_KINDS = {
  'unknown-field': 'info',
  'extra-header': 'info',
  'new-value': 'warning',
  format: 'warning',
  null: 'warning',
  type: 'error',
  'missing-field': 'error',
  'status-code': 'error',
  'error-shape': 'error',
  'not-json': 'error',
  request: 'error',
} as const satisfies Record<string, Severity>;
export type FindingKind = keyof typeof FINDING_KINDS;
export const KIND_NAMES = Object.keys(FINDING_KINDS) as FindingKind[];

/** Worst first: error 2, warning 1, info 0. */
export const severityRank = (severity: Severity): number => SEVERITIES.indexOf(severity);

export const Finding = z.object({
  severity: z.enum(SEVERITIES),
  kind: z.enum(KIND_NAMES as [FindingKind, ...FindingKind[]]),
  operation: z.string().describe('the operationId of the operation table (createInvoice, searchTransaction, …)'),
  direction: z.enum(['request', 'answer']),
  status: z.int().nullable().describe("the answer's HTTP status (null: none came)"),
  path: z.string().describe('a JSON pointer into the body, array indices as * (`/data/items/*/unitPrice`); `headers.<name>` for a header; `` for the body itself'),
  expected: z.string().describe('what the contract has there, in words (`string`, `one of pending, paid, …`, `timestamp, 3 fraction digits, Z`)'),
  seen: z.string().describe('the JSON type and a redacted, shape-only sample (`string INV-…`, `timestamp, 6 fraction digits`, `string "in_analysis"`)'),
});
export type Finding = z.infer<typeof Finding>;
