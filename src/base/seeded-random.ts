// Ground floor (src/base): imports nothing of ours but src/domain.
// Bytes that look random and repeat: `serve --seed N` draws its ids, tokens and codes from them, so
// the same requests give the same answers on every run (a CI failure reproduces). Each purpose has a
// stream of its own, an AES-256-CTR keystream keyed by HMAC-SHA256(seed, purpose): drawing more for
// one purpose (a postback's jitter) never shifts another (the ids). Anyone who knows the seed knows
// the bytes: for a sandbox, never for a secret that guards something real.
import { createCipheriv, createHmac } from 'node:crypto';

/** What `seed` options take: `42` and `'42'` are the same seed. */
export type Seed = number | string;

/** The seed as the text its streams are keyed by; a RangeError for one that names nothing. */
export function seedText(seed: Seed): string {
  const text = typeof seed === 'number' && Number.isFinite(seed) ? String(seed) : typeof seed === 'string' ? seed : '';
  if (text === '') throw new RangeError('a seed is a finite number or a non-empty text');
  return text;
}

/** The stream of `purpose` under `seed`, n bytes a call; each call goes on where the last one stopped. */
export function seededBytes(seed: Seed, purpose: string): (n: number) => Uint8Array {
  const key = createHmac('sha256', seedText(seed)).update(purpose).digest();
  // a zero IV is safe here: each key encrypts one stream only, and the stream is the point, not secrecy
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  return (n) => new Uint8Array(cipher.update(Buffer.alloc(n)));
}

/** Numbers in [0, 1) from the stream of `purpose`, 48 bits each (where Math.random would be used). */
export function seededNumbers(seed: Seed, purpose: string): () => number {
  const bytes = seededBytes(seed, purpose);
  return () => Buffer.from(bytes(6)).readUIntBE(0, 6) / 2 ** 48;
}
