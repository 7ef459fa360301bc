// The signing key's certificates (x5c), checked as a bank checks them: each issued and signed by the
// next, the last by a trusted root; the leaf valid now and for the location's host; the header's
// x5t#S256 and the JWK naming that same leaf. Node's X509Certificate does the reading and the maths.
import { createHash, createPublicKey, X509Certificate, type JsonWebKey } from 'node:crypto';
import { isIP } from 'node:net';
import type { TrustedRoots } from './trust.js';

/** "CN=pix.example, O=PSP": a certificate's name on one line. */
export const nameOf = (distinguished: string) => distinguished.split('\n').filter(Boolean).join(', ');

/** The x5c entries read (standard base64 DER, RFC 7517 §4.7); a message for the first that is not a certificate. */
export function readX5c(x5c: unknown): X509Certificate[] | string {
  if (!Array.isArray(x5c) || x5c.length === 0) return 'the key has no x5c (its certificate chain)';
  const certificates: X509Certificate[] = [];
  for (const [index, entry] of x5c.entries()) {
    try {
      if (typeof entry !== 'string') throw new TypeError('not text');
      certificates.push(new X509Certificate(Buffer.from(entry, 'base64')));
    } catch {
      return `x5c[${index}] is not a certificate (base64 DER)`;
    }
  }
  return certificates;
}

const outside = (cert: X509Certificate, now: Date) => now < new Date(cert.validFrom) || now > new Date(cert.validTo);

/** undefined when the chain holds: each certificate issued and signed by the next (a CA), the last by a trusted root. */
export function chainProblem(chain: X509Certificate[], roots: TrustedRoots, now: Date): string | undefined {
  for (let i = 0; i + 1 < chain.length; i++) {
    const cert = chain[i]!;
    const issuer = chain[i + 1]!;
    if (!issuer.ca) return `x5c[${i + 1}] (${nameOf(issuer.subject)}) is not a CA certificate, yet x5c[${i}] follows it`;
    if (!cert.checkIssued(issuer) || !cert.verify(issuer.publicKey)) return `x5c[${i}] (${nameOf(cert.subject)}) is not issued by x5c[${i + 1}] (${nameOf(issuer.subject)})`;
    if (outside(issuer, now)) return `x5c[${i + 1}] (${nameOf(issuer.subject)}) is valid from ${issuer.validFrom} to ${issuer.validTo}, not now`;
  }
  const last = chain.at(-1)!;
  const trusted = roots.certificates();
  if (trusted.some((root) => root.fingerprint256 === last.fingerprint256)) return undefined;
  if (trusted.some((root) => last.checkIssued(root) && last.verify(root.publicKey))) return undefined;
  return `the chain ends at a certificate issued by "${nameOf(last.issuer)}", which is not a CA trusted here (a private CA is trusted with --ca FILE)`;
}

/** undefined when the leaf is valid now and names the host (a DNS name, or an IP address). */
export function leafProblem(leaf: X509Certificate, hostname: string, now: Date): string | undefined {
  if (now > new Date(leaf.validTo)) return `the signing certificate (${nameOf(leaf.subject)}) expired on ${leaf.validTo}`;
  if (now < new Date(leaf.validFrom)) return `the signing certificate (${nameOf(leaf.subject)}) is not valid before ${leaf.validFrom}`;
  const bare = hostname.replace(/^\[|\]$/g, '');
  const named = isIP(bare) ? leaf.checkIP(bare) : leaf.checkHost(bare);
  return named === undefined ? `the signing certificate is not for ${bare} (${leaf.subjectAltName ?? nameOf(leaf.subject)})` : undefined;
}

/** The leaf's SHA-256 thumbprint as x5t#S256 writes it (base64url of the DER's digest). */
export const thumbprint = (leaf: X509Certificate) => createHash('sha256').update(leaf.raw).digest('base64url');

/** undefined when the JWK is the leaf's public key (compared as SPKI DER). */
export function keyProblem(jwk: Record<string, unknown>, leaf: X509Certificate): string | undefined {
  let spki: Buffer;
  try {
    spki = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }).export({ type: 'spki', format: 'der' });
  } catch {
    return 'the JWK cannot be read as a public key';
  }
  return spki.equals(leaf.publicKey.export({ type: 'spki', format: 'der' })) ? undefined : "the JWK's public key is not the signing certificate's";
}
