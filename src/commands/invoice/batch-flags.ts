// Which flags go with `invoice create --batch`: each line of the file is a whole create request, sent
// as it is with its own Idempotency-Key, so no flag may change a payload, its key, or ask for prompts.
import { usageError } from '../../cli/errors.js';
import type { CreateFlags } from './index.js';

export const DEFAULT_CONCURRENCY = 16;

/** What a batch reads of the flags: where, how many requests at once, and where the results go. */
export interface BatchFlags {
  path: string;
  concurrency: number;
  out?: string;
}

/**
 * The flags a batch takes: its own, the connection's, --json, --no-input (a batch never prompts anyway),
 * and --allow-unknown-fields (it changes no line: it lets the lines be sent as they are).
 */
const WITH_BATCH = new Set(['batch', 'concurrency', 'out', 'json', 'profile', 'baseUrl', 'debug', 'color', 'input', 'allowUnknownFields']);
const ONLY_WITH_BATCH = ['concurrency', 'out'] as const;

/** An option's attribute as it is typed: payerName -> --payer-name; a negated boolean (qr: false) -> --no-qr. */
export function flagName(attribute: string, value: unknown): string {
  return `--${value === false ? 'no-' : ''}${attribute.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Every flag given that does not go with --batch, as typed. */
export function batchConflicts(flags: Record<string, unknown>): string[] {
  return Object.entries(flags)
    .filter(([attribute, value]) => value !== undefined && !WITH_BATCH.has(attribute))
    .map(([attribute, value]) => flagName(attribute, value));
}

export function checkBatchFlags(flags: CreateFlags): BatchFlags {
  const path = flags.batch ?? '';
  const conflicts = batchConflicts(flags);
  if (conflicts.length > 0) {
    throw usageError(`--batch does not go with ${conflicts.join(', ')}: each line of the file is a whole create request, sent as it is with an Idempotency-Key derived from the file`);
  }
  if (path === '') throw usageError('--batch needs a file of create requests, one JSON object a line (or - for stdin)');
  return { path, concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY, out: flags.out };
}

/** A single create given a batch's own flags. */
export function checkSingleFlags(flags: CreateFlags): void {
  const given = ONLY_WITH_BATCH.filter((attribute) => flags[attribute] !== undefined);
  if (given.length > 0) throw usageError(`${given.map((a) => flagName(a, true)).join(' and ')} go${given.length === 1 ? 'es' : ''} with --batch only`);
}
