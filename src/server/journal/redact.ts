// What the journal keeps of a request or an answer: redacted before it is stored, streamed or shown
// (contract, "The inspector"). A card number keeps its first 6 and last 4 digits wherever it is (a
// `card.number`, or any string that is one: digits that pass the Luhn check), a security code is
// removed, a secret's value is never kept, and a text above the cap is cut, the cut marked.
import { BODY_CAP_BYTES } from '../../api/journal.js';
import { maskCardNumber } from '../../domain/secrets.js';

/** Members removed wherever they are: security codes. */
const REMOVED = new Set(['security_code', 'cvv', 'cvc', 'cvv2', 'card_cvv']);
/** Members whose value is replaced: secrets and keys. */
const SECRET = new Set(['webhook_secret', 'secret', 'password', 'token', 'api_key', 'signing_key', 'authorization', 'private_key']);
export const REDACTED = '[redacted]';

/** 13 to 19 digits, spaces or dashes between them allowed, that pass the Luhn check: a card number. */
const DIGIT_RUN = /\d(?:[ -]?\d){12,18}/g;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** A run DIGIT_RUN found, as the card number's digits when it is one. */
function cardDigits(run: string): string | undefined {
  const digits = run.replace(/[ -]/g, '');
  return digits.length >= 13 && luhn(digits) ? digits : undefined;
}

/** A text with every card number in it masked. */
export function maskCardNumbers(text: string): string {
  if (!/\d{4}/.test(text)) return text;
  return text.replace(DIGIT_RUN, (run) => {
    const digits = cardDigits(run);
    return digits === undefined ? run : maskCardNumber(digits);
  });
}

/**
 * A request body as the journal keeps it: `card.number` masked whatever it holds, any other card number
 * masked where it stands, security codes removed, secrets replaced.
 */
export function redactValue(value: unknown, key = '', parent = ''): unknown {
  if (typeof value === 'string' || typeof value === 'number') {
    if (key === 'number' && parent === 'card') return maskCardNumber(String(value));
    if (typeof value === 'string') return SECRET.has(key) ? REDACTED : maskCardNumbers(value);
    const text = String(value);
    const masked = text.length >= 13 ? maskCardNumbers(text) : text;
    return masked === text ? value : masked;
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, '', key));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    const lower = name.toLowerCase();
    if (REMOVED.has(lower)) continue;
    out[name] = SECRET.has(lower) && member !== null && typeof member !== 'object' ? REDACTED : redactValue(member, lower, key);
  }
  return out;
}

/**
 * What may need redacting in a value's JSON text: a member named as a security code, a secret or a card
 * (whose `number` is masked whatever it holds; an address's `number` is not), or a card number (a run
 * of digits that passes the Luhn check). JSON.stringify writes names, digits, spaces and dashes as they
 * are (no escapes), and every run of a string or number in the value is a run of the text, so a text
 * without any of these is its own redaction. A run that is not a card number (a phone with its country
 * code: 13 digits) does not send the body through redactValue.
 */
// (`"card": null`, which every record of another method holds, needs nothing: only a card's object or list)
const NAMED = new RegExp(`"(?:${[...REMOVED, ...SECRET].join('|')})"\\s*:|"card"\\s*:\\s*[{[]`, 'i');

function holdsCardNumber(text: string): boolean {
  if (!/\d{4}/.test(text)) return false;
  for (const [run] of text.matchAll(DIGIT_RUN)) if (cardDigits(run) !== undefined) return true;
  return false;
}

/** A value's JSON text, redacted as redactValue does; made once when there is nothing to redact. */
export function redactedJson(value: unknown): string {
  const text = JSON.stringify(value);
  return NAMED.test(text) || holdsCardNumber(text) ? JSON.stringify(redactValue(value)) : text;
}

/** An answer's JSON text with secrets' values replaced (the webhook secret's own endpoint, a token). */
export function redactSecretText(text: string): string {
  return maskCardNumbers(text.replace(/("(?:webhook_secret|secret|token|signing_key)"\s*:\s*")(?:[^"\\]|\\.)*"/g, `$1${REDACTED}"`)
    // a dashboard sign-in link's one-time code
    .replace(/([?&]code=)[A-Za-z0-9_-]+/g, `$1${REDACTED}`));
}

/** A text within the cap, or its first part marked as cut. */
export function capped(text: string): string {
  if (text.length <= BODY_CAP_BYTES / 4) return text;
  const bytes = Buffer.byteLength(text);
  if (bytes <= BODY_CAP_BYTES) return text;
  return `${Buffer.from(text).subarray(0, BODY_CAP_BYTES).toString('utf8')}…[cut: ${bytes} bytes]`;
}

/** `name=value` pairs of a form or query text whose name is a security code or a secret. */
const PAIR = new RegExp(`((?:^|[?&;\\s])(?:${[...REMOVED, ...SECRET].join('|')})=)[^&;\\s]*`, 'gi');

/**
 * A body as text, whatever it holds, redacted as a JSON body is: JSON text through redactValue (only
 * when it may hold something to redact), any other text (a form, a page) with its card numbers masked
 * and its security codes' and secrets' values replaced.
 */
export function redactedText(text: string): string {
  if (!NAMED.test(text) && !holdsCardNumber(text) && !PAIR.test(text)) return text;
  PAIR.lastIndex = 0;
  try {
    return JSON.stringify(redactValue(JSON.parse(text)));
  } catch {
    return maskCardNumbers(text.replace(PAIR, `$1${REDACTED}`));
  }
}
