// What a finding says it saw: the JSON type and a shape, never the value (contract, "Checks, out of
// band": volatile values by their shape only). A person's name, e-mail, document, phone, card digits,
// tokens, pix codes and ids are all strings of some length or digits; only a short code-like word
// checked against a list of values (a status, a method) is shown as itself.

/** A short machine word (`in_analysis`, `boleto_hibrido`), shown as itself where a list of values is checked. */
export const CODE_LIKE = /^[a-z][a-z0-9_.-]{0,31}$/i;

/** A prefix that names what an id is (`INV-`, `evt_`, `gw_`), kept; all the rest of the id is not. */
const ID_PREFIX = /^([A-Z]{2,5}|[a-z]{2,5})[-_](?=.*\d)/;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,](\d+))?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const PHP_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DATE_LIKE = /^(?:\d{4}-\d{2}-\d{2}|\d{2}[/.-]\d{2}[/.-]\d{4}|\d{8})$/;

const fraction = (digits: number) => (digits === 0 ? 'no fraction digits' : `${digits} fraction digit${digits === 1 ? '' : 's'}`);

/** A date-time's written form in words (`timestamp, 6 fraction digits, offset -03:00`), or undefined for no date-time at all. */
export function timestampForm(text: string): string | undefined {
  if (PHP_TIME.test(text)) return 'timestamp, PHP form YYYY-MM-DD HH:MM:SS';
  const match = ISO_TIME.exec(text);
  if (!match) return undefined;
  const zone = match[2];
  const where = zone === undefined ? ', no zone' : zone.toUpperCase() === 'Z' ? '' : `, offset ${zone}`;
  return `timestamp, ${fraction(match[1]?.length ?? 0)}${where}`;
}

/** A string that is some form of date (`01/12/2026`, a date-time), as opposed to no date at all. */
export const isDateLike = (text: string): boolean => DATE_LIKE.test(text) || timestampForm(text) !== undefined;

/** A string by its shape: `string INV-…`, `string, 11 digits`, `string, 18 characters`, or a date-time's form. */
export function stringShape(text: string): string {
  if (text === '') return 'string, empty';
  const time = timestampForm(text);
  if (time !== undefined) return time;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return 'date, YYYY-MM-DD';
  if (/^\d+$/.test(text)) return `string, ${text.length} digit${text.length === 1 ? '' : 's'}`;
  const prefix = ID_PREFIX.exec(text);
  if (prefix) return `string ${prefix[0]}…`;
  return `string, ${[...text].length} character${text.length === 1 ? '' : 's'}`;
}

/** A JSON value by its type and shape. */
export function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'absent';
  if (typeof value === 'string') return stringShape(value);
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number with a fraction';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return `array of ${value.length}`;
  return 'object';
}

/** A value checked against a list of values: a short code-like word as itself (`string "in_analysis"`), else its shape. */
export const valueOrShape = (value: unknown): string =>
  (typeof value === 'string' && CODE_LIKE.test(value) ? `string ${JSON.stringify(value)}` : shapeOf(value));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A generated code: 20 or more letters, digits, `-` and `_`, with letters and digits both (a nonce, a hash, a token). */
const GENERATED = /^(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{20,}$/i;

/**
 * The kind of a volatile value (one made anew each time: a time, a UUID, a prefixed id, a generated
 * code), or undefined for any other: two values of one kind are the same to a replay's matching
 * (`pinvoice proxy --replay`), as a finding shows such values by their shape only.
 */
export function volatileKind(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (timestampForm(value) !== undefined) return 'timestamp';
  if (UUID.test(value)) return 'uuid';
  const prefix = ID_PREFIX.exec(value);
  if (prefix) return `id ${prefix[0]}`;
  return GENERATED.test(value) ? 'code' : undefined;
}
