// Finding journal entries by a pattern, and explaining a miss: every member the pattern gives must match
// (`body` as a subset: objects by member, arrays by position); when nothing matches, the entries closest
// to the pattern, each with what differs, as JSON pointers into the body or the pattern's member names.
import { pathMatcher } from '../../base/glob.js';
import { NEAR_MISSES, type Difference, type JournalEntry, type NearMiss, type RequestPattern } from '../../api/journal.js';

/** The pattern, checked, with its charge resolved to an id (undefined: it names none of the company's). */
export interface Pattern extends Omit<RequestPattern, 'invoice_id'> {
  invoiceId?: number | null;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

export function statusMatches(expected: number | string, status: number | null): boolean {
  if (typeof expected === 'number') return status === expected;
  return status !== null && String(status)[0] === expected[0];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * How two bodies are compared: a pattern is a subset (members the entry has beyond it do not count);
 * an exact comparison (a replay's) also names what only `received` has, and `alike` says where two
 * values count as the same whatever they are (a member left out, two volatile values of one kind).
 */
export interface Comparison {
  exact: boolean;
  alike?: (at: string, expected: unknown, received: unknown) => boolean;
}
const SUBSET: Comparison = { exact: false };

/** Where `received` falls short of `expected` (a subset, or exactly): each leaf that differs or is missing. */
export function bodyDifferences(expected: unknown, received: unknown, at: string, out: Difference[], how: Comparison = SUBSET): void {
  if (how.alike?.(at, expected, received)) return;
  if (isObject(expected) || Array.isArray(expected)) {
    const container = Array.isArray(expected) ? Array.isArray(received) : isObject(received);
    if (!container) {
      out.push({ path: at, expected, ...(received !== undefined && { received }) });
      return;
    }
    for (const [key, value] of Object.entries(expected)) {
      const next = (received as Record<string, unknown>)[key];
      bodyDifferences(value, next, `${at}/${escapePointer(key)}`, out, how);
    }
    if (!how.exact) return;
    for (const [key, value] of Object.entries(received as object)) {
      const path = `${at}/${escapePointer(key)}`;
      if (!Object.hasOwn(expected, key) && !how.alike?.(path, undefined, value)) out.push({ path, expected: undefined, received: value });
    }
    return;
  }
  if (!Object.is(expected, received) && !(expected === null && received === null)) out.push({ path: at, expected, ...(received !== undefined && { received }) });
}

/** What differs between the pattern and an entry (none: it matches); near misses are ordered by how many members differ. */
export function differences(pattern: Pattern, entry: JournalEntry): { list: Difference[]; weight: number } {
  const list: Difference[] = [];
  const add = (difference: Difference) => void list.push(difference);
  if (pattern.direction !== undefined && pattern.direction !== entry.direction) add({ path: 'direction', expected: pattern.direction, received: entry.direction });
  if (pattern.method !== undefined && pattern.method.toUpperCase() !== entry.method) add({ path: 'method', expected: pattern.method.toUpperCase(), received: entry.method });
  if (pattern.path !== undefined && !pathMatcher(pattern.path)(entry.path)) add({ path: 'path', expected: pattern.path, received: entry.path });
  if (pattern.status !== undefined && !statusMatches(pattern.status, entry.status)) add({ path: 'status', expected: pattern.status, received: entry.status });
  if (pattern.invoiceId !== undefined && (pattern.invoiceId === null || !entry.invoice_ids.includes(pattern.invoiceId))) {
    add({ path: 'invoice_id', expected: pattern.invoiceId, received: entry.invoice_ids });
  }
  for (const [name, value] of Object.entries(pattern.query ?? {})) {
    const got = entry.query[name];
    if (got !== value && !(Array.isArray(got) && got.includes(value))) add({ path: `query.${name}`, expected: value, ...(got !== undefined && { received: got }) });
  }
  if (pattern.body !== undefined) {
    const found: Difference[] = [];
    bodyDifferences(pattern.body, entry.body, '', found);
    for (const difference of found) add(difference);
  }
  return { list, weight: list.length };
}

/** The entries that match (oldest first), or, when none does, the closest few (closest first, newest among equals). */
export function find(pattern: Pattern, entries: readonly JournalEntry[]): { data: JournalEntry[]; near_misses: NearMiss[] } {
  const scored = entries.map((entry) => ({ entry, ...differences(pattern, entry) }));
  const data = scored.filter((s) => s.list.length === 0).map((s) => s.entry);
  if (data.length > 0) return { data, near_misses: [] };
  const near = scored
    .sort((a, b) => a.weight - b.weight || b.entry.id - a.entry.id)
    .slice(0, NEAR_MISSES)
    .map((s) => ({ entry: s.entry, differences: s.list, problems: s.entry.problems }));
  return { data, near_misses: near };
}
