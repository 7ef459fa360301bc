// The Pinvoice-Ignored-Fields response header: the fields of an accepted request body that the server
// did not know and so ignored (`postback, payer.emial`), so that a misspelt field is told, not lost. The
// paths come from the sender's keys, which may hold any character: each key is kept as it is when made
// of HTTP token characters, and percent-encoded (UTF-8) otherwise, `.` and `%` included, so the value is
// visible ASCII whatever was sent and a path reads back unambiguously. The list is capped. No zod
// here: the client reads the header without loading the schemas.
import type { FieldPath } from './unknown-fields.js';

export const IGNORED_FIELDS_HEADER = 'Pinvoice-Ignored-Fields';
/** At most this many paths, and this many bytes in all; beyond, the list ends with `, ...`. */
export const IGNORED_FIELDS_MAX_PATHS = 20;
export const IGNORED_FIELDS_MAX_BYTES = 1024;
/** What stands for the paths left out (ASCII: a header value cannot hold `…`); a key `...` is sent as `%2E%2E%2E`. */
export const MORE_FIELDS = '...';
const SEPARATOR = ', ';

export const IGNORED_FIELDS_DESCRIPTION = `Present when the request body held fields this operation does not know, which were ignored (never a 422): their JSON paths in document order, separated by ", " (\`postback, payer.emial, items[1].qty\`). A key made of anything but letters, digits and !#$&'*+-^_\`|~ is percent-encoded as UTF-8 (a dot is %2E, % is %25). At most ${IGNORED_FIELDS_MAX_PATHS} paths and ${IGNORED_FIELDS_MAX_BYTES} bytes: when more were ignored, the list ends with ", ${MORE_FIELDS}". pinvoice serve only: the production gateway does not send it.`;

/** HTTP token characters (RFC 9110 tchar) but `%`, which escapes, and `.`, which separates keys. */
const KEPT = /^[A-Za-z0-9!#$&'*+\-^_`|~]$/;
const utf8 = new TextEncoder();
const percent = (char: string) => [...utf8.encode(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const encodeKey = (key: string) => [...key].map((char) => (KEPT.test(char) ? char : percent(char))).join('');

/** ["items", 1, "qty"] -> "items[1].qty", in the header's encoding. */
export function headerPath(path: FieldPath): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out === '' ? encodeKey(key) : `${out}.${encodeKey(key)}`), '');
}

/** The header's value for these paths (`more`: others were left out before they were found), or undefined for none. */
export function ignoredFieldsValue(paths: readonly FieldPath[], more = false): string | undefined {
  if (paths.length === 0) return undefined;
  const shown: string[] = [];
  let bytes = 0;
  for (const path of paths.slice(0, IGNORED_FIELDS_MAX_PATHS)) {
    const text = headerPath(path);
    const cost = (shown.length > 0 ? SEPARATOR.length : 0) + text.length;
    // room is kept for the ", ..." that ends a list cut short
    if (bytes + cost + SEPARATOR.length + MORE_FIELDS.length > IGNORED_FIELDS_MAX_BYTES) break;
    shown.push(text);
    bytes += cost;
  }
  const cut = more || shown.length < paths.length;
  return [...shown, ...(cut ? [MORE_FIELDS] : [])].join(SEPARATOR);
}

/** The header as a list of paths (`...` last when the list was cut); none for no header, or an empty one. */
export function readIgnoredFields(value: string | null | undefined): string[] {
  return (value ?? '').split(',').map((path) => path.trim()).filter((path) => path !== '');
}
