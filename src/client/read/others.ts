// What an answer holds beyond what the CLI knows: fields nobody listed, and fields it knows sent in a
// shape it did not foresee (an object where it takes text). They are shown, as "path: value" lines,
// never dropped: support staff must see everything the gateway said.
import { isRecord } from './values.js';

/**
 * The fields a reader knows. `true`: a known field holding text, a number or a boolean; an object:
 * the known fields of an object; `[known]`: each element of a list.
 */
export type Known = true | { readonly [key: string]: Known } | readonly [Known];

export type OtherField = readonly [path: string, value: string];

/** Rows beyond this are summed up in one, pointing at --json. */
const MAX_ROWS = 60;
const MAX_DEPTH = 8;

const child = (path: string, key: string) =>
  /^[A-Za-z_$][\w$-]*$/.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;

/** Every leaf of a value the CLI does not know, with its path; null says nothing and is left out. */
function flatten(value: unknown, path: string, out: OtherField[], depth: number): void {
  if (value === null || value === undefined) return;
  if (depth > MAX_DEPTH) return void out.push([path, JSON.stringify(value).slice(0, 200)]);
  if (Array.isArray(value)) {
    if (value.length === 0) return void out.push([path, '[]']);
    return value.forEach((item, index) => flatten(item, `${path}[${index}]`, out, depth + 1));
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return void out.push([path, '{}']);
    return entries.forEach(([key, item]) => flatten(item, child(path, key), out, depth + 1));
  }
  out.push([path, String(value)]);
}

function walk(value: unknown, known: Known | undefined, path: string, out: OtherField[], depth: number): void {
  if (value === null || value === undefined) return;
  if (known === true && typeof value !== 'object') return;
  if (Array.isArray(known) && Array.isArray(value)) {
    return value.forEach((item, index) => walk(item, known[0], `${path}[${index}]`, out, depth + 1));
  }
  if (known !== undefined && known !== true && !Array.isArray(known) && isRecord(value)) {
    for (const [key, item] of Object.entries(value)) walk(item, Object.hasOwn(known, key) ? (known as Record<string, Known>)[key] : undefined, child(path, key), out, depth + 1);
    return;
  }
  flatten(value, path, out, depth);
}

/** The fields of `value` that `known` does not describe, in the answer's order, at most MAX_ROWS of them. */
export function otherFields(value: unknown, known: Known): OtherField[] {
  const out: OtherField[] = [];
  walk(value, known, '', out, 0);
  if (out.length <= MAX_ROWS) return out;
  return [...out.slice(0, MAX_ROWS - 1), ['…', `${out.length - MAX_ROWS + 1} more (see --json)`]];
}
