// Text that comes from data (names, URLs, reasons, notes, event fields) may hold terminal controls:
// ESC sequences that clear the screen, retitle the window or hide text, BEL, the C1 CSI, bidirectional
// overrides that reorder what is read. The server refuses them in new requests, but an older database
// or a production gateway can still send them, so the CLI does not trust it: every renderer passes its
// data through safeData before adding colour, and the output path escapes whatever else slipped past.
// Each such character becomes a visible escape (`\x1b`, `\u202e`), never nothing, so that support staff
// see that something odd was there.
import { CONTROL_CHARACTERS } from '../../domain/text.js';
import { SGR_SOURCE } from './width.js';

/** The one set of control characters (src/domain/text.ts), which the server also refuses. */
const UNSAFE = CONTROL_CHARACTERS;
/** Our own colour, as chalk writes it (SGR sequences only), or a character to escape. */
const SGR_OR_UNSAFE = new RegExp(`(${SGR_SOURCE})|${UNSAFE.source}`, 'gu');
const SHORT: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function visible(char: string): string {
  const short = SHORT[char];
  if (short !== undefined) return short;
  const code = char.codePointAt(0) ?? 0;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** "a\u001b[2Jb" -> "a\\x1b[2Jb": every control character made visible; any other text unchanged. */
export function safeText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** A copy of a value with every string in it (object keys too) passed through safeText. */
export function safeData<T>(value: T): T {
  if (typeof value === 'string') return safeText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => safeData(item)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [safeText(key), safeData(item)])) as T;
  }
  return value;
}

/**
 * The last guard before a terminal, for whole rendered texts: keeps line breaks, and our colour codes
 * when colour is on; escapes every other control character.
 */
export function safeOutput(text: string, colour: boolean): string {
  if (!colour) return text.replace(UNSAFE, (char) => (char === '\n' ? char : visible(char)));
  return text.replace(SGR_OR_UNSAFE, (match, sgr: string | undefined) => sgr ?? (match === '\n' ? match : visible(match)));
}

/** Characters JSON.stringify leaves raw that a terminal may still act on: DEL, C1, bidi controls, line separators. */
const JSON_UNSAFE = /[\u007f-\u009f\p{Bidi_Control}\u2028\u2029]/gu;

/**
 * JSON text with those characters written as \u escapes: the same JSON value, byte for byte apart from
 * them (structural JSON is ASCII, so they can only be inside strings), and nothing raw for a terminal.
 */
export function safeJson(text: string): string {
  return text.replace(JSON_UNSAFE, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}
