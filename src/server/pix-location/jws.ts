// The JWS a payer's bank verifies, and the JWKS it verifies it with: the leaf's key signs (PS256), the
// header names the key (kid, x5t#S256) and where to find it (jku); the JWKS carries each key's chain.
import { createHash, createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { CompactSign } from 'jose';
import type { KeyPair, LocationKeys } from './key-folder.js';

export const JWS_ALG = 'PS256';

export interface PublishedKey {
  kty: string;
  n: string;
  e: string;
  kid: string;
  alg: string;
  use: 'sig';
  x5c: string[];
  'x5t#S256': string;
}

/** A signing key as the header and the JWKS name it: its kid is the certificate's SHA-256 thumbprint. */
export interface SigningKey {
  kid: string;
  thumbprint: string;
  privateKey: KeyObject;
  published: PublishedKey;
}

export function signingKey(pair: KeyPair, ca: KeyPair): SigningKey {
  const thumbprint = createHash('sha256').update(pair.der).digest('base64url');
  const { n, e, kty } = createPublicKey(pair.cert).export({ format: 'jwk' });
  const published: PublishedKey = {
    kty: String(kty), n: String(n), e: String(e), kid: thumbprint, alg: JWS_ALG, use: 'sig',
    x5c: [pair.der.toString('base64'), ca.der.toString('base64')],
    'x5t#S256': thumbprint,
  };
  return { kid: thumbprint, thumbprint, privateKey: createPrivateKey(pair.key), published };
}

/** What the location signs with: the leaf, and the expired leaf chaos may sign with instead. */
export interface LocationSigner {
  current: SigningKey;
  expired: SigningKey;
  jwks(): { keys: PublishedKey[] };
}

export async function createSigner(keys: LocationKeys): Promise<LocationSigner> {
  const current = signingKey(keys.leaf, keys.ca);
  const expired = signingKey(await keys.expired(), keys.ca);
  // the expired key is published too: a bank finds it by kid and refuses its chain, as it would a real PSP's
  return { current, expired, jwks: () => ({ keys: [current.published, expired.published] }) };
}

export interface SignOptions {
  key: SigningKey;
  jku: string;
  /** a kid other than the key's own (chaos: unknown_kid) */
  kid?: string;
}

export async function signPayload(payload: unknown, { key, jku, kid }: SignOptions): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: JWS_ALG, kid: kid ?? key.kid, 'x5t#S256': key.thumbprint, jku })
    .sign(key.privateKey);
}

/** A kid no JWKS of ours holds. */
export const unknownKid = () => randomBytes(32).toString('base64url');

/** The same header and payload, the signature's bytes altered (chaos: bad_signature). */
export function alterSignature(jws: string): string {
  const [header, payload, signature = ''] = jws.split('.');
  const bytes = Buffer.from(signature, 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 0xff;
  return `${header}.${payload}.${bytes.toString('base64url')}`;
}
