// Reading a zod schema's shape, shared by the unknown-field finder (unknown-fields.ts) and the proxy's
// checks (finding-rules.ts): what a wrapper wraps, and what fields, element or free keys a value of
// the schema has. Read from the schemas themselves, so a field added to one is known everywhere at once.
import { z } from 'zod';

export interface Peeled {
  /** the schema under its wrappers */
  inner: z.ZodType;
  /** a wrapper lets the value be null */
  nullable: boolean;
}

const peeled = new WeakMap<z.ZodType, Peeled>();

/** The schema a wrapper wraps: wrappers change what a value may be (absent, null), not its fields. */
export function peel(schema: z.ZodType): Peeled {
  let found = peeled.get(schema);
  if (!found) peeled.set(schema, (found = peelNow(schema)));
  return found;
}

function peelNow(schema: z.ZodType): Peeled {
  let current = schema;
  let nullable = false;
  for (;;) {
    if (current instanceof z.ZodNullable) nullable = true;
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault
      || current instanceof z.ZodPrefault || current instanceof z.ZodNonOptional || current instanceof z.ZodReadonly
      || current instanceof z.ZodCatch || current instanceof z.ZodLazy) current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodPipe) current = current.in as z.ZodType; // a request is checked against what goes in
    else return { inner: current, nullable };
  }
}

export const unwrap = (schema: z.ZodType): z.ZodType => peel(schema).inner;

/** What a schema says of the values it takes: an object's fields, an array's element, or any keys at all (a record). */
export interface Layout {
  fields?: Map<string, z.ZodType>;
  element?: z.ZodType;
  /** an object of free keys (a record such as `metadata`, a loose object): none of them is unknown */
  freeKeys?: boolean;
}

/** Two layouts as one (the branches of a union, the sides of an intersection); the first branch naming a field wins. */
function merge(a: Layout, b: Layout): Layout {
  const fields = a.fields || b.fields ? new Map([...(b.fields ?? []), ...(a.fields ?? [])]) : undefined;
  return { fields, element: a.element ?? b.element, freeKeys: a.freeKeys === true || b.freeKeys === true };
}

const layouts = new WeakMap<z.ZodType, Layout>();

export function layoutOf(given: z.ZodType): Layout {
  const cached = layouts.get(given);
  if (cached) return cached;
  const schema = unwrap(given);
  let layout: Layout = {};
  if (schema instanceof z.ZodObject) {
    const catchall = schema._zod.def.catchall;
    layout = { fields: new Map(Object.entries(schema.shape as Record<string, z.ZodType>)), freeKeys: catchall !== undefined && !(catchall instanceof z.ZodNever) };
  } else if (schema instanceof z.ZodRecord || schema instanceof z.ZodAny || schema instanceof z.ZodUnknown) layout = { freeKeys: true };
  else if (schema instanceof z.ZodArray) layout = { element: schema.element as z.ZodType };
  else if (schema instanceof z.ZodUnion) layout = (schema.options as z.ZodType[]).map(layoutOf).reduce(merge, {});
  else if (schema instanceof z.ZodIntersection) layout = merge(layoutOf(schema._zod.def.left as z.ZodType), layoutOf(schema._zod.def.right as z.ZodType));
  layouts.set(given, layout);
  return layout;
}
