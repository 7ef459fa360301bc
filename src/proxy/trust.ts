// The certificate authorities the proxy trusts for an https:// origin: the system's (the bundle the
// operating system keeps, where one is found: a company's own CA installed there is trusted as curl
// trusts it), Node's own, and NODE_EXTRA_CA_CERTS. Node trusts only its own and the extra ones by
// default, and a `ca` given replaces both, so all three are given together.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

/** Where Debian/Ubuntu/Alpine, Fedora/RHEL and macOS/BSD keep the system's bundle. */
const SYSTEM_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** The CAs to trust, or undefined when no system bundle is found (Node's defaults, NODE_EXTRA_CA_CERTS included, then hold). */
export function trustedAuthorities(env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const system = SYSTEM_BUNDLES.map(read).find((text) => text !== undefined && text.includes('BEGIN CERTIFICATE'));
  if (system === undefined) return undefined;
  const extra = env.NODE_EXTRA_CA_CERTS ? read(env.NODE_EXTRA_CA_CERTS) : undefined;
  return [...rootCertificates, system, ...(extra === undefined ? [] : [extra])];
}
