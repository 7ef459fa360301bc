// The twin-drift comparison: production's answers and serve's, each reduced to its members (JSON
// pointers, array indices as `*`, the findings' form) with their JSON types, compared for each
// (operation, method, status). Pure: answers in, groups and the fidelity figure out. No value is kept
// past the walk, so none can reach the report.
import { pointerSegment } from '../../api/json-pointer.js';
import { TWIN_KINDS, type JsonType, type TwinDriftReport, type TwinGroup, type TwinKind } from '../../api/twin-drift.js';
import { severityRank } from '../../api/findings.js';

export interface Answer {
  operation: string;
  method: string;
  status: number;
  /** the answer's JSON value */
  body: unknown;
  /** production's journal entry (serve's answers have none) */
  entryId?: number;
}

const typeOf = (value: unknown): JsonType =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : (typeof value as 'string' | 'number' | 'boolean');

/** Every member of a JSON value with the type it has there; the body itself is `` (not a member). */
export function membersOf(value: unknown, path = '', into = new Map<string, Set<JsonType>>()): Map<string, Set<JsonType>> {
  if (Array.isArray(value)) for (const element of value) visit(element, `${path}/*`, into);
  else if (typeOf(value) === 'object') for (const [key, member] of Object.entries(value as object)) visit(member, `${path}/${pointerSegment(key)}`, into);
  return into;
}

function visit(value: unknown, path: string, into: Map<string, Set<JsonType>>): void {
  const types = into.get(path) ?? new Set<JsonType>();
  types.add(typeOf(value));
  into.set(path, types);
  membersOf(value, path, into);
}

/** What one side sent for one (operation, method, status): each member's types and how many answers held it. */
interface Side {
  answers: number;
  members: Map<string, { types: Set<JsonType>; answers: number; entries: number[] }>;
}

const keyOf = (answer: Answer) => JSON.stringify([answer.operation, answer.method, answer.status]);

function tally(answers: readonly Answer[]): Map<string, Side> {
  const sides = new Map<string, Side>();
  for (const answer of answers) {
    const side = sides.get(keyOf(answer)) ?? { answers: 0, members: new Map() };
    sides.set(keyOf(answer), side);
    side.answers++;
    for (const [path, types] of membersOf(answer.body)) {
      const member = side.members.get(path) ?? { types: new Set(), answers: 0, entries: [] };
      side.members.set(path, member);
      types.forEach((type) => member.types.add(type));
      member.answers++;
      if (answer.entryId !== undefined) member.entries = [...member.entries, answer.entryId].slice(-5);
    }
  }
  return sides;
}

/**
 * Whether two sides' types of a member are the same for a reader: null is a value's state (a pending
 * charge's paidAt), so it counts only where one side sends nothing but null and the other never does.
 */
export function sameTypes(production: Set<JsonType>, serve: Set<JsonType>): boolean {
  const bare = (types: Set<JsonType>) => [...types].filter((type) => type !== 'null').sort().join();
  const [p, s] = [bare(production), bare(serve)];
  if (p === '' || s === '') return (p === '' && serve.has('null')) || (s === '' && production.has('null')) || p === s;
  return p === s;
}

const sorted = (types: Set<JsonType> | undefined) => [...(types ?? [])].sort();
const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/'));

function group(kind: TwinKind, key: string, path: string, production: Side | undefined, serve: Side | undefined): TwinGroup {
  const [operation, method, status] = JSON.parse(key) as [string, string, number];
  const p = production?.members.get(path);
  const s = serve?.members.get(path);
  const entries = path === '' ? [...(production?.members.values() ?? [])].flatMap((member) => member.entries) : p?.entries ?? [];
  return {
    operation, method, status, kind, severity: TWIN_KINDS[kind], path,
    production: { types: sorted(p?.types), answers: path === '' ? production?.answers ?? 0 : p?.answers ?? 0, of: production?.answers ?? 0 },
    serve: { types: sorted(s?.types), answers: path === '' ? serve?.answers ?? 0 : s?.answers ?? 0, of: serve?.answers ?? 0 },
    entry_ids: [...new Set(entries)].sort((a, b) => a - b).slice(-5),
    state: 'counted', acceptance: null,
  };
}

/** Every answer of the side is `{data: {…}}` and nothing else (production's refund, 3-D Secure and Company Infos answers). */
const wrapped = (side: Side) => side.members.get('/data')?.types.size === 1 && side.members.get('/data')?.types.has('object') === true
  && [...side.members.keys()].every((path) => path === '/data' || path.startsWith('/data/'));

/** A side's members as the CLI reads the answer (`data ?? answer`): those under `/data`, moved to the top. */
const unwrapped = (side: Side): Side => ({
  answers: side.answers,
  members: new Map([...side.members].filter(([path]) => path.startsWith('/data/')).map(([path, member]) => [path.slice('/data'.length), member])),
});

/**
 * The groups of one (operation, method, status) both sides answered; a member under one that only one
 * side sends is not said again. Where one side wraps its record in `data` and the other does not, the
 * wrapping is one group at `/data` and the records are compared as the CLI reads them (`data ?? answer`).
 */
function comparePair(key: string, wholeProduction: Side, wholeServe: Side): { groups: TwinGroup[]; matched: number; of: number } {
  const groups: TwinGroup[] = [];
  let [production, serve] = [wholeProduction, wholeServe];
  if (wrapped(production) !== wrapped(serve)) {
    groups.push(group(wrapped(production) ? 'only-production' : 'only-serve', key, '/data', production, serve));
    [production, serve] = [wrapped(production) ? unwrapped(production) : production, wrapped(serve) ? unwrapped(serve) : serve];
  }
  let matched = 0;
  const onlyOne = (from: Side, other: Side, kind: TwinKind) => {
    for (const path of from.members.keys()) {
      if (other.members.has(path)) continue;
      if (!from.members.has(parentOf(path)) || other.members.has(parentOf(path))) groups.push(group(kind, key, path, production, serve));
    }
  };
  onlyOne(production, serve, 'only-production');
  onlyOne(serve, production, 'only-serve');
  for (const [path, member] of production.members) {
    const other = serve.members.get(path);
    if (other === undefined) continue;
    if (sameTypes(member.types, other.types)) matched++;
    else groups.push(group('types-differ', key, path, production, serve));
  }
  return { groups, matched, of: production.members.size };
}

export const compareGroups = (a: TwinGroup, b: TwinGroup) =>
  severityRank(b.severity) - severityRank(a.severity) || a.operation.localeCompare(b.operation) || a.status - b.status || a.path.localeCompare(b.path) || a.kind.localeCompare(b.kind);

export type Comparison = Pick<TwinDriftReport, 'groups' | 'pairs' | 'fidelity' | 'answers'>;

/** Production's answers against serve's, shape by shape; `operation` keeps only that operation's. */
export function compareAnswers(production: readonly Answer[], serve: readonly Answer[], operation?: string): Comparison {
  const only = (answers: readonly Answer[]) => answers.filter((answer) => operation === undefined || answer.operation === operation);
  const [p, s] = [tally(only(production)), tally(only(serve))];
  const groups: TwinGroup[] = [];
  let matched = 0;
  let of = 0;
  let pairs = 0;
  for (const [key, side] of p) {
    const other = s.get(key);
    if (other === undefined) {
      of += side.members.size;
      groups.push(group('status-only-production', key, '', side, undefined));
      continue;
    }
    pairs++;
    const compared = comparePair(key, side, other);
    groups.push(...compared.groups);
    matched += compared.matched;
    of += compared.of;
  }
  for (const [key, side] of s) if (!p.has(key)) groups.push(group('status-only-serve', key, '', undefined, side));
  return {
    groups: groups.sort(compareGroups),
    pairs,
    fidelity: { matched, of, ratio: of === 0 ? null : matched / of },
    answers: { production: only(production).length, serve: only(serve).length },
  };
}
