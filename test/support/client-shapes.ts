// Writes src/client/shapes.ts from the zod response schemas and the operation table, so that the
// client can check an answer and build a path without loading zod (see src/client/read-shape.ts). Only what
// read-shape.ts can check as zod would is described; anything else (a refine, a bound, a catchall) throws.
import type { z } from 'zod';
import * as postbacks from '../../src/api/postbacks.js';
import * as schemas from '../../src/api/schemas.js';
import { OPERATIONS } from '../../src/api/operations.js';
import { SCHEMAS } from '../../src/client/parse.js';
import type { Shape } from '../../src/client/read-shape.js';

type Def = z.core.$ZodTypeDef & Record<string, any>;

/** The formats whose zod check is their pattern alone, and the name their pattern is written under. */
const PATTERN_FORMATS: Record<string, string> = { datetime: 'ISO_DATETIME', date: 'ISO_DATE' };
const formatOf = new Map<string, string>();

export function shapeOf(schema: z.ZodType, where = '(schema)'): Shape {
  const def = schema._zod.def as Def;
  const unsupported = (what: string) => new Error(`${where}: ${what} cannot be checked without zod`);
  if (def.checks?.length) throw unsupported('a refinement or bound');
  switch (def.type) {
    case 'string':
      if (def.format === undefined) return 'string';
      if (!(def.format in PATTERN_FORMATS) || !(def.pattern instanceof RegExp) || /[gy]/.test(def.pattern.flags)) throw unsupported(`format ${def.format}`);
      formatOf.set(String(def.pattern), def.format);
      return { pattern: def.pattern };
    case 'number':
      if (def.format === undefined) return 'number';
      if (def.format === 'safeint') return 'int';
      throw unsupported(`number format ${def.format}`);
    case 'boolean':
      return 'boolean';
    case 'enum':
      return { oneOf: Object.values(def.entries as Record<string, string>) };
    case 'literal':
      return { oneOf: def.values as (string | number | boolean | null)[] };
    case 'nullable':
      return { nullable: shapeOf(def.innerType, where) };
    case 'optional':
      return { optional: shapeOf(def.innerType, where) };
    case 'array':
      return { array: shapeOf(def.element, `${where}[]`) };
    case 'record': {
      const key = def.keyType._zod.def as Def;
      const value = def.valueType._zod.def as Def;
      if (key.type !== 'string' || key.format !== undefined || key.checks?.length || value.type !== 'unknown') throw unsupported('a record other than of strings to unknown');
      return 'record';
    }
    case 'object':
      if (def.catchall !== undefined) throw unsupported('an object that keeps or refuses extra fields');
      return { object: Object.fromEntries(Object.entries(def.shape as Record<string, z.ZodType>).map(([name, field]) => [name, shapeOf(field, `${where}.${name}`)])) };
    default:
      throw unsupported(`type ${def.type}`);
  }
}

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const canonical = (shape: Shape) => JSON.stringify(shape, (_key, value: unknown) => (value instanceof RegExp ? `/${value.source}/${value.flags}` : value));

/** The exported object schemas of src/api that read-shape.ts can check, by name: nested shapes equal to one are written as its name. */
function namedShapes(): Map<string, Shape> {
  const named = new Map<string, Shape>();
  for (const [name, value] of Object.entries({ ...schemas, ...postbacks })) {
    if (typeof value !== 'object' || value === null || !('_zod' in value)) continue;
    try {
      const shape = shapeOf(value as z.ZodType, name);
      if (typeof shape === 'object' && 'object' in shape && ![...named.values()].some((s) => canonical(s) === canonical(shape))) named.set(name, shape);
    } catch {
      // a request schema with refinements: not an answer the client checks
    }
  }
  return named;
}

export function shapesModule(): string {
  const named = namedShapes();
  const byCanonical = new Map([...named].map(([name, shape]) => [canonical(shape), name]));
  const patterns = new Map<string, string>();
  const consts: string[] = [];
  const written = new Set<string>();

  /** ISO_DATETIME, or ISO_DATETIME_2 for a second pattern of that format (another precision). */
  const patternName = (pattern: RegExp): string => {
    const key = String(pattern);
    if (!patterns.has(key)) {
      const base = PATTERN_FORMATS[formatOf.get(key) as string] as string;
      const taken = [...patterns.values()].filter((name) => name === base || name.startsWith(`${base}_`)).length;
      patterns.set(key, taken ? `${base}_${taken + 1}` : base);
    }
    return patterns.get(key) as string;
  };

  function write(shape: Shape, depth: number, self?: string): string {
    if (typeof shape === 'string') return `'${shape}'`;
    const name = byCanonical.get(canonical(shape));
    if (name !== undefined && name !== self) {
      define(name);
      return name;
    }
    if ('pattern' in shape) return `{ pattern: ${patternName(shape.pattern)} }`;
    if ('oneOf' in shape) return `{ oneOf: [${shape.oneOf.map((value) => (typeof value === 'string' ? quote(value) : String(value))).join(', ')}] }`;
    if ('nullable' in shape) return `{ nullable: ${write(shape.nullable, depth)} }`;
    if ('optional' in shape) return `{ optional: ${write(shape.optional, depth)} }`;
    if ('array' in shape) return `{ array: ${write(shape.array, depth)} }`;
    const pad = '  '.repeat(depth + 1);
    const fields = Object.entries(shape.object).map(([key, field]) => `${pad}${/^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key)}: ${write(field, depth + 1)},`);
    return `{ object: {\n${fields.join('\n')}\n${'  '.repeat(depth)}} }`;
  }

  function define(name: string): void {
    if (written.has(name)) return;
    written.add(name);
    const text = write(named.get(name) as Shape, 0, name);
    consts.push(`const ${name}: Shape = ${text};`);
  }

  const entries = Object.entries(SCHEMAS).flatMap(([name, schema]) => {
    try {
      const text = write(shapeOf(schema as z.ZodType, name), 1);
      return [text === name ? `  ${name},` : `  ${name}: ${text},`];
    } catch {
      return [];
    }
  });
  const operations = OPERATIONS.map((op) => `  ${op.id}: { name: ${quote(op.name)}, path: ${quote(op.path)} },`);
  return [
    '// Generated from the response schemas (src/api, as src/client/parse.ts names them) and the operation',
    '// table by test/unit/client-shapes.test.ts, which fails when this file no longer matches them: run',
    '// that test with -u to write it again. Do not edit by hand. The client checks answers with these',
    '// shapes (read-shape.ts) and builds paths from these operations without loading zod.',
    "import type { Shape } from './read-shape.js';",
    "import type { SchemaName } from './parse.js';",
    '',
    ...[...patterns].map(([regex, name]) => `const ${name} = ${regex};`),
    '',
    ...consts.flatMap((text) => [text, '']),
    'export const SHAPES: Partial<Record<SchemaName, Shape>> = {',
    ...entries,
    '};',
    '',
    '/** Each operation\'s name (for messages) and path, as in src/api/operations.ts. */',
    'export const OPERATIONS = {',
    ...operations,
    '} as const;',
    '',
  ].join('\n');
}
