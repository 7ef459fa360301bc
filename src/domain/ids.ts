// Identifiers. Randomness comes in as bytes so the rules stay pure and testable.

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `INV-20261122-000042-8391`: creation date, the integer id, four random digits. */
export function makeSecureId(id: number, createdAt: Date, random: Uint8Array): string {
  const day = createdAt.toISOString().slice(0, 10).replace(/-/g, '');
  const suffix = (((random[0] ?? 0) << 8) | (random[1] ?? 0)) % 10_000;
  return `INV-${day}-${String(id).padStart(6, '0')}-${String(suffix).padStart(4, '0')}`;
}

export const SECURE_ID_PATTERN = /^INV-\d+(?:-\d+)+$/;

export function isSecureId(text: string): boolean {
  return SECURE_ID_PATTERN.test(text);
}

/** Letters and digits drawn from the bytes; 62 symbols, rejection sampling keeps them uniform. */
export function alphanumeric(random: Uint8Array, length: number): string {
  let out = '';
  for (const byte of random) {
    if (out.length === length) break;
    if (byte < 248) out += ALPHANUMERIC[byte % 62];
  }
  if (out.length < length) throw new RangeError(`need more random bytes for ${length} characters`);
  return out;
}

/** Digits and letters in ASCII order, so that strings of one length sort as the numbers they spell. */
const ORDERED = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TIME_SYMBOLS = 8;

/** A time in milliseconds as 8 symbols that sort as the times do (good for 6,900 years from 1970). */
export function orderedTime(ms: number): string {
  let out = '';
  for (let rest = Math.max(0, Math.floor(ms)), i = 0; i < TIME_SYMBOLS; i++, rest = Math.floor(rest / 62)) out = ORDERED[rest % 62] + out;
  return out;
}

/**
 * token_checkout: 32 letters and digits; needs at least 48 random bytes. Without `createdAt`, all
 * random (about 190 bits). With it, the first 8 spell the creation time in an order that sorts, and
 * the other 24 are random (about 142 bits, still beyond guessing): new tokens land at the end of the
 * token index instead of on a random page of it, one page written per commit instead of one per charge.
 */
export function makeCheckoutToken(random: Uint8Array, createdAt?: Date): string {
  if (createdAt === undefined) return alphanumeric(random, 32);
  return orderedTime(createdAt.getTime()) + alphanumeric(random, 32 - TIME_SYMBOLS);
}

/**
 * The pix txid: 32 letters and digits (the contract allows 26 to 35). With `createdAt`, made as a
 * checkout token is (8 symbols of the time, then 24 random): a charge is found by its pix code through
 * an index on the txid (GET /api/v2/invoices?pix_code=…), and new txids land at that index's end.
 */
export function makeTxid(random: Uint8Array, createdAt?: Date): string {
  return makeCheckoutToken(random, createdAt);
}
