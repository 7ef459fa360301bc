// The ground floor of the tolerant reader: take a value from wherever a gateway plausibly put it, as
// the type the CLI needs, or nothing. Nothing here throws: a value of another type is not taken, and
// the caller shows "—" for it (and the raw answer keeps it, for --json and the "Other fields" section).

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at a dotted path ("invoice.status"), own properties only ("__proto__" finds nothing inherited). */
export function at(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (!isRecord(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/** The first of the paths that holds something: not undefined, null or blank text. */
export function first(value: unknown, paths: readonly string[]): unknown {
  for (const path of paths) {
    const found = at(value, path);
    if (found !== undefined && found !== null && !(typeof found === 'string' && found.trim() === '')) return found;
  }
  return undefined;
}

/** Text, for a string or a number (an id sent as either); objects and booleans are not text. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A whole number, sent as a number or as digits in a string (PHP back ends send both). */
export function int(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/**
 * An amount in cents. A whole number is cents, as the specification's integer fields are; anything else
 * (19.9, "19,90") could be reais or cents, so it is never guessed: it is kept as the text sent, which
 * the renderer shows as sent.
 */
export type Cents = number | { readonly asSent: string };

export function cents(value: unknown): Cents | undefined {
  const whole = int(value);
  if (whole !== undefined) return whole;
  if (typeof value === 'number' && Number.isFinite(value)) return { asSent: String(value) };
  if (typeof value === 'string' && value.trim() !== '') return { asSent: value.trim() };
  return undefined;
}

/** A number (a percentage such as 3.99), sent as a number or a numeric string. */
export function decimal(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/** true/false, 1/0, "true"/"false", "1"/"0" (PHP writes booleans as any of them). */
export function bool(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

/** An array, or none: anything else is not a list. */
export const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

/** What a gateway's answer holds under `data`, when it wraps it so (production's habit), else the answer itself. */
export const unwrapData = (answer: unknown): unknown => (isRecord(answer) && isRecord(answer.data) ? answer.data : answer);
