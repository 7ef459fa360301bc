// An answer read as its response schema reads it, without zod, for the schemas built only of what
// this knows (the shapes in shapes.ts, generated from the zod schemas): the fields of the schema, in
// its order, extra fields dropped, each checked as zod checks it. The response schemas hold no
// transforms or defaults, so for an answer that fits this is exactly what zod's parse returns. For
// one that does not, zod (about 60 ms of start-up) is loaded after all, to name the field, as before.

export type Shape =
  | 'string'
  | 'int'
  | 'number'
  | 'boolean'
  /** an object of any string keys and values (z.record(z.string(), z.unknown())) */
  | 'record'
  /** a string this matches (zod's own format patterns, without the g or y flag) */
  | { readonly pattern: RegExp }
  | { readonly oneOf: readonly (string | number | boolean | null)[] }
  | { readonly nullable: Shape }
  /** a field that may be absent (zod's optional): absent stays absent */
  | { readonly optional: Shape }
  | { readonly array: Shape }
  | { readonly object: Readonly<Record<string, Shape>> };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readArray(shape: Shape, value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: unknown[] = [];
  for (const item of value) {
    const read = readShape(shape, item);
    if (read === undefined) return undefined;
    out.push(read);
  }
  return out;
}

function readObject(shape: Readonly<Record<string, Shape>>, value: unknown): Record<string, unknown> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const optional = typeof field === 'object' && 'optional' in field;
    if (optional && value[key] === undefined) continue;
    const read = readShape(optional ? field.optional : field, value[key]);
    if (read === undefined) return undefined;
    out[key] = read;
  }
  return out;
}

/** What zod's parse returns for the value, or undefined when the value does not fit (zod then says why). */
export function readShape(shape: Shape, value: unknown): unknown {
  switch (shape) {
    case 'string': return typeof value === 'string' ? value : undefined;
    case 'int': return Number.isSafeInteger(value) ? value : undefined;
    case 'number': return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'boolean': return typeof value === 'boolean' ? value : undefined;
    // zod copies a record key by key, and a "__proto__" key does not survive the copy: zod's to handle
    case 'record': return isObject(value) && !Object.hasOwn(value, '__proto__') ? { ...value } : undefined;
  }
  if ('pattern' in shape) return typeof value === 'string' && shape.pattern.test(value) ? value : undefined;
  if ('oneOf' in shape) return shape.oneOf.includes(value as string) ? value : undefined;
  if ('nullable' in shape) return value === null ? null : readShape(shape.nullable, value);
  if ('optional' in shape) return value === undefined ? undefined : readShape(shape.optional, value);
  if ('array' in shape) return readArray(shape.array, value);
  return readObject(shape.object, value);
}
