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

/** token_checkout: 32 alphanumeric characters, about 190 bits; needs at least 48 random bytes. */
export function makeCheckoutToken(random: Uint8Array): string {
  return alphanumeric(random, 32);
}

/** The pix txid: 32 letters and digits (the contract allows 26 to 35). */
export function makeTxid(random: Uint8Array): string {
  return alphanumeric(random, 32);
}
