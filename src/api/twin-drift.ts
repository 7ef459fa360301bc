// The twin-drift report (contract, "Production through a proxy", "Twin drift"): how far `pinvoice
// serve` is from production, shape by shape. Production's answers come from a proxy's journal, serve's
// from the same creates sent to it again; for each (operation, method, status) the members each side
// sends, as JSON pointers with their JSON types, never a value. `pinvoice drift --against --format json`.
import { z } from 'zod';
import type { Severity } from './findings.js';

/** Each kind of twin drift and its severity (docs/proxy.md, "How far the twin is from production"). */
export const TWIN_KINDS = {
  /** both sides send the member, of other JSON types: a client written against serve misreads production */
  'types-differ': 'error',
  /** production sends a member serve never does: a test against serve never sees it */
  'only-production': 'warning',
  /** production answered a status to the operation that serve never did for the same requests */
  'status-only-production': 'warning',
  /** serve sends a member production never does: code may come to rely on it */
  'only-serve': 'info',
  /** serve answered a status production never did for the same requests */
  'status-only-serve': 'info',
} as const satisfies Record<string, Severity>;
export type TwinKind = keyof typeof TWIN_KINDS;
export const TWIN_KIND_NAMES = Object.keys(TWIN_KINDS) as TwinKind[];

/** The JSON types a member is said to have. */
export const JSON_TYPES = ['null', 'boolean', 'number', 'string', 'array', 'object'] as const;
export type JsonType = (typeof JSON_TYPES)[number];

const side = () => z.object({
  types: z.array(z.enum(JSON_TYPES)).describe('the JSON types this side sent the member with (empty: never sent)'),
  answers: z.int().describe("how many of this side's answers of the (operation, method, status) held the member"),
  of: z.int().describe("how many answers of the (operation, method, status) this side gave"),
});

export const TwinGroup = z.object({
  operation: z.string().describe('the operationId'),
  method: z.string(),
  status: z.int().describe('the HTTP status both sides are compared at'),
  kind: z.enum(TWIN_KIND_NAMES as [TwinKind, ...TwinKind[]]),
  severity: z.enum(['info', 'warning', 'error']),
  path: z.string().describe('a JSON pointer, array indices as * (`/data/items/*/unitPrice`); `` for a status kind (the answer as a whole)'),
  production: side(),
  serve: side(),
  entry_ids: z.array(z.int()).max(5).describe("production's journal entries of the last five answers that showed it (`pinvoice logs show ID --journal FILE`)"),
  state: z.enum(['counted', 'accepted', 'expired']),
  acceptance: z.object({ reason: z.string(), until: z.string() }).nullable(),
});
export type TwinGroup = z.infer<typeof TwinGroup>;

const count = () => z.int();

export const TwinDriftReport = z.object({
  against: z.string().describe('the origin of the `pinvoice serve` compared'),
  since: z.string().nullable(),
  operation: z.string().nullable().describe('only groups of this operation (null: every operation)'),
  resent: z.object({
    creates: count().describe('creates of the journal sent again to serve'),
    refunds: count().describe('refunds of those charges sent again'),
    lookups: count().describe('lookups of those charges made on serve, as production was asked them'),
    cards_replaced: count().describe("card creates sent with a serve test card in place of the redacted card (same outcome as production's answer)"),
  }),
  skipped: z.array(z.object({ reason: z.string(), count: count() })).describe('what was not sent again, and why'),
  answers: z.object({ production: count(), serve: count() }).describe('answers compared on each side'),
  pairs: count().describe('(operation, method, status) both sides answered: compared member by member'),
  fidelity: z.object({
    matched: count().describe("production's members (operation, method, status, path) serve sends with the same JSON type"),
    of: count().describe("production's members"),
    ratio: z.number().nullable().describe('matched / of, 0 to 1 (null: production sent nothing to compare)'),
  }),
  groups: z.array(TwinGroup).describe('worst first: severity, then operation, status and path'),
  summary: z.object({
    counted: z.object({ error: count(), warning: count(), info: count() }),
    accepted: z.object({ error: count(), warning: count(), info: count() }),
    expired: z.object({ error: count(), warning: count(), info: count() }),
  }),
});
export type TwinDriftReport = z.infer<typeof TwinDriftReport>;
