// The proxy's checks of an answer body: a walk of the operation's zod schema (what serve writes) over
// the JSON production sent, each difference a finding (contract, "Checks, out of band"). Members and
// values come from the schemas; what the specification shows of a record, which integers are cents
// and which strings have a written form, from the registries of spec-shape.ts.
import type { z } from 'zod';
import { FINDING_KINDS, type Finding, type FindingKind } from './findings.js';
import { pointerSegment } from './json-pointer.js';
import { layoutOf, peel } from './schema-layout.js';
import { isDateLike, shapeOf, stringShape, timestampForm, valueOrShape } from './shape-sample.js';
import { inCents, specShows, writtenAs } from './spec-shape.js';

/** A finding before the exchange it belongs to is known (operation, direction, status). */
export type Difference = Pick<Finding, 'severity' | 'kind' | 'path' | 'expected' | 'seen'>;

export const difference = (kind: FindingKind, path: string, expected: string, seen: string): Difference =>
  ({ severity: FINDING_KINDS[kind], kind, path, expected, seen });

export const TIMESTAMP_WORDS = 'timestamp, 3 fraction digits, Z';
const DATE_WORDS = 'date, YYYY-MM-DD';
/** How many of an enum's values `expected` names before `…`. */
const SHOWN_VALUES = 6;

/** Differences of one answer, one per (kind, path): the first seen (a polled list repeats them). */
class Differences {
  readonly byKey = new Map<string, Difference>();
  errors = 0;
  add(kind: FindingKind, path: string, expected: string, seen: string): void {
    const key = `${kind} ${path}`;
    if (this.byKey.has(key)) return;
    const found = difference(kind, path, expected, seen);
    this.byKey.set(key, found);
    if (found.severity === 'error') this.errors++;
  }
  addAll(other: Differences): void {
    for (const found of other.byKey.values()) this.add(found.kind, found.path, found.expected, found.seen);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const def = (schema: z.ZodType) => schema._zod.def as unknown as Record<string, unknown> & { type: string };
const isInteger = (schema: z.ZodType) => typeof def(schema).format === 'string' && /int/.test(def(schema).format as string);
const valuesOf = (schema: z.ZodType): unknown[] =>
  (def(schema).type === 'enum' ? Object.values(def(schema).entries as object) : [...(def(schema).values as Iterable<unknown>)]);
const oneOf = (values: readonly unknown[]) =>
  `one of ${values.slice(0, SHOWN_VALUES).map(String).join(', ')}${values.length > SHOWN_VALUES ? ', …' : ''}`;

/** What a schema has, in words (`integer`, `timestamp, 3 fraction digits, Z`, `one of pending, paid, …`). */
export function words(schema: z.ZodType): string {
  const { inner } = peel(schema);
  const { type, format } = def(inner);
  if (type === 'record') return 'object';
  if (type === 'number') return isInteger(inner) ? 'integer' : 'number';
  if (type === 'string') return format === 'datetime' ? TIMESTAMP_WORDS : format === 'date' ? DATE_WORDS : writtenAsOf(inner)?.words ?? 'string';
  if (type === 'enum' || type === 'literal') return oneOf(valuesOf(inner));
  if (type === 'union') return [...new Set((def(inner).options as z.ZodType[]).map(words))].join(' or ');
  return type;
}

/** The members production is asked for: what the specification shows, by default the schema's required members. */
const shownCache = new WeakMap<z.ZodType, readonly string[]>();
function shownMembers(schema: z.ZodObject): readonly string[] {
  let shown = shownCache.get(schema);
  if (shown === undefined) {
    const shape = schema.shape as Record<string, z.ZodType>;
    shown = specShows.get(schema)?.members ?? Object.keys(shape).filter((name) => shape[name]?._zod.optin !== 'optional');
    shownCache.set(schema, shown);
  }
  return shown;
}

function checkObject(schema: z.ZodObject, value: Record<string, unknown>, path: string, found: Differences): void {
  const { fields, freeKeys } = layoutOf(schema);
  for (const key of Object.keys(value)) {
    const field = fields?.get(key);
    const at = `${path}/${pointerSegment(key)}`;
    if (field) check(field, value[key], at, found);
    else if (!freeKeys) found.add('unknown-field', at, 'no such member', shapeOf(value[key]));
  }
  for (const member of shownMembers(schema)) {
    if (!Object.hasOwn(value, member)) found.add('missing-field', `${path}/${pointerSegment(member)}`, 'a member of the record', 'absent');
  }
}

/** A registry's entry for a schema, looked up once (a registry's own lookup walks the schema's parents). */
function marked<M extends object>(registry: z.core.$ZodRegistry<M>): (schema: z.ZodType) => M | undefined {
  const known = new WeakMap<z.ZodType, { entry: M | undefined }>();
  return (schema) => {
    let found = known.get(schema);
    if (!found) known.set(schema, (found = { entry: registry.get(schema) as M | undefined }));
    return found.entry;
  };
}
const writtenAsOf = marked(writtenAs);
const inCentsOf = marked(inCents);

function checkString(schema: z.ZodType, value: string, path: string, found: Differences): void {
  const { format, pattern } = def(schema);
  if (format === 'datetime' || format === 'date') {
    // the format's own pattern, as zod checks it (a failed safeParse costs an error object per value)
    if ((pattern as RegExp).test(value)) return;
    const form = format === 'datetime' ? timestampForm(value) !== undefined : isDateLike(value);
    found.add(form ? 'format' : 'type', path, words(schema), stringShape(value));
    return;
  }
  const written = writtenAsOf(schema);
  if (written && !written.pattern.test(value)) found.add('format', path, written.words, stringShape(value));
}

function checkNumber(schema: z.ZodType, value: number, path: string, found: Differences): void {
  if (!isInteger(schema) || Number.isInteger(value)) return;
  if (inCentsOf(schema)) found.add('format', path, 'integer amount in cents', shapeOf(value));
  else found.add('type', path, 'integer', shapeOf(value));
}

function checkValue(schema: z.ZodType, value: unknown, path: string, found: Differences): void {
  const values = valuesOf(schema);
  if (values.includes(value)) return;
  if (typeof value === typeof values[0]) found.add('new-value', path, words(schema), valueOrShape(value));
  else found.add('type', path, typeof values[0] === 'string' ? 'string' : words(schema), shapeOf(value));
}

/** Of several schemas, the one the value fits best (fewest errors, then fewest differences): its differences only. */
function bestOf(options: readonly z.ZodType[], value: unknown, path: string, found: Differences, checkOne = check): void {
  let best: Differences | undefined;
  for (const option of options) {
    const trial = new Differences();
    checkOne(option, value, path, trial);
    if (!best || trial.errors < best.errors || (trial.errors === best.errors && trial.byKey.size < best.byKey.size)) best = trial;
    if (best.byKey.size === 0) break;
  }
  if (best) found.addAll(best);
}

const JSON_TYPE: Record<string, (value: unknown) => boolean> = {
  object: isObject,
  record: isObject,
  array: Array.isArray,
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number',
  boolean: (value) => typeof value === 'boolean',
};

function check(schema: z.ZodType, value: unknown, path: string, found: Differences): void {
  const { inner, nullable } = peel(schema);
  const { type } = def(inner);
  if (type === 'union') return bestOf(def(inner).options as z.ZodType[], value, path, found);
  if (type === 'unknown' || type === 'any' || (value === null && (nullable || type === 'null'))) return;
  if (value === null) return found.add('null', path, words(inner), 'null');
  if (type === 'enum' || type === 'literal') return checkValue(inner, value, path, found);
  const fits = JSON_TYPE[type];
  if (fits && !fits(value)) return found.add('type', path, words(inner), shapeOf(value));
  if (type === 'object') checkObject(inner as z.ZodObject, value as Record<string, unknown>, path, found);
  else if (type === 'record') for (const member of Object.values(value as object)) check(def(inner).valueType as z.ZodType, member, `${path}/*`, found);
  else if (type === 'array') for (const element of value as unknown[]) check(def(inner).element as z.ZodType, element, `${path}/*`, found);
  else if (type === 'string') checkString(inner, value as string, path, found);
  else if (type === 'number') checkNumber(inner, value as number, path, found);
}

/**
 * The answer read as the CLI reads it (`data ?? answer`: production wraps refund, 3-D Secure and Company
 * Infos answers in `data`): an object schema without a `data` member is checked against what `data`
 * holds, at `/data/…`, and the envelope's other members are unknown.
 */
function checkAnswer(schema: z.ZodType, value: unknown, _path: string, found: Differences): void {
  const fields = layoutOf(schema).fields;
  if (!fields || fields.has('data') || !isObject(value) || !isObject(value.data)) return check(schema, value, '', found);
  for (const key of Object.keys(value)) {
    if (key !== 'data') found.add('unknown-field', `/${pointerSegment(key)}`, 'no such member', shapeOf(value[key]));
  }
  check(schema, value.data, '/data', found);
}

/** How an answer body differs from its schema; of a union's branches, only the one it fits best is reported. */
export function answerFindings(schema: z.ZodType, body: unknown): Difference[] {
  const found = new Differences();
  const { inner } = peel(schema);
  const options = def(inner).type === 'union' ? (def(inner).options as z.ZodType[]) : [schema];
  bestOf(options, body, '', found, checkAnswer);
  return [...found.byKey.values()];
}
