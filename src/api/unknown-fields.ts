// Which fields of a request body its schema does not know, at any depth. The known names are read from
// the zod schemas themselves (walking objects' shapes through optional, nullable, default, pipe and
// union), never listed by hand, so a field added to a schema is known here at once. The CLI refuses a
// payload holding unknown fields (a misspelt `payer.emial` would be dropped silently); the server
// accepts it, as production does, and names what it ignored (ignored-fields.ts).
import type { z } from 'zod';
import type { ErrorDetail } from './schemas.js';
import { jsonPath } from './validate.js';
import { suggestField } from './did-you-mean.js';
import { IGNORED_FIELDS_MAX_PATHS, ignoredFieldsValue } from './ignored-fields.js';
import { layoutOf } from './schema-layout.js';

export type FieldPath = (string | number)[];

export interface UnknownField {
  path: FieldPath;
  /** the names the schema knows where the field was found, in the schema's order */
  known: readonly string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every field of `value` that `schema` does not know, in document order (depth first, keys in the order
 * they came), at most `limit` of them. An unknown field's own content is not looked into; a value of the
 * wrong type (a string where an object goes) is the schema's to refuse, not reported here.
 */
export function findUnknownFields(schema: z.ZodType, value: unknown, limit = Number.POSITIVE_INFINITY): UnknownField[] {
  const found: UnknownField[] = [];
  const walk = (current: z.ZodType, at: unknown, path: FieldPath): void => {
    const layout = layoutOf(current);
    if (Array.isArray(at) && layout.element) {
      for (let i = 0; i < at.length && found.length < limit; i++) walk(layout.element, at[i], [...path, i]);
      return;
    }
    if (!isObject(at) || !layout.fields || layout.freeKeys) return;
    for (const key of Object.keys(at)) {
      if (found.length >= limit) return;
      const field = layout.fields.get(key);
      if (field) walk(field, at[key], [...path, key]);
      else found.push({ path: [...path, key], known: [...layout.fields.keys()] });
    }
  };
  walk(schema, value, []);
  return found;
}

/** The Pinvoice-Ignored-Fields header for a body read with `schema`: its unknown fields, sought no further than the cap needs. */
export function ignoredFieldsHeader(schema: z.ZodType, body: unknown): string | undefined {
  return ignoredFieldsValue(findUnknownFields(schema, body, IGNORED_FIELDS_MAX_PATHS + 1).map((field) => field.path));
}

/** `payer.emial: is not a field of this request; did you mean payer.email?`, as a detail (a CLI's message, a batch line's `details`). */
export function unknownFieldDetails(fields: readonly UnknownField[]): ErrorDetail[] {
  return fields.map(({ path, known }) => {
    const name = path.at(-1);
    const suggestion = typeof name === 'string' ? suggestField(name, known) : undefined;
    const hint = suggestion === undefined ? '' : `; did you mean ${jsonPath([...path.slice(0, -1), suggestion])}?`;
    return { path: jsonPath(path), message: `is not a field of this request${hint}` };
  });
}

/**
 * `parsed` (the schema's output, which drops what it does not know) with the unknown fields of `raw`
 * put back where they were: what `--allow-unknown-fields` sends.
 */
export function withUnknownFields<T>(schema: z.ZodType, parsed: T, raw: unknown): T {
  const unknown = findUnknownFields(schema, raw);
  if (unknown.length === 0) return parsed;
  const out = structuredClone(parsed) as unknown;
  for (const { path } of unknown) {
    const parents = path.slice(0, -1);
    const key = path.at(-1) as string;
    const target = parents.reduce<unknown>((node, step) => (node as Record<PropertyKey, unknown> | undefined)?.[step], out);
    const source = parents.reduce<unknown>((node, step) => (node as Record<PropertyKey, unknown> | undefined)?.[step], raw);
    if (isObject(target) && isObject(source)) putInOrder(target, source, key);
  }
  return out as T;
}

/** Sets `target[key]` to `source[key]`, the keys of `target` then in the order `source` has them (so a gateway names them in the file's order). */
function putInOrder(target: Record<string, unknown>, source: Record<string, unknown>, key: string): void {
  const order = Object.keys(source);
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const entries = [...Object.entries(target), [key, source[key]] as const].sort(([a], [b]) => rank(a) - rank(b));
  for (const name of Object.keys(target)) delete target[name];
  // defined, not assigned: a key of the sender's may be `__proto__`
  for (const [name, value] of entries) Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}
