// The certificate authorities a payer's bank trusts: Node's bundled roots, NODE_EXTRA_CA_CERTS (Node 20
// has no API that lists them, so the file is read here) and --ca, a private CA given for the run. Both
// the TLS connection and the x5c chain of the signing key are checked against the same list.
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import { InputError } from '../../base/input-error.js';
import { pathProblem } from '../../base/path-problem.js';

export interface TrustedRoots {
  /** PEM texts, for the TLS connection's `ca` */
  pem: string[];
  /** the same, read, for the chain; parsed once asked for (a chain that ends in a private CA reads few) */
  certificates(): X509Certificate[];
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

async function pemFile(source: string, path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(`${source}: ${pathProblem(error, path, 'read')}`);
  }
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new InputError(`${source} ${path}: no PEM certificate (-----BEGIN CERTIFICATE-----) in it`);
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      throw new InputError(`${source} ${path}: a certificate in it cannot be read`);
    }
  }
  return blocks;
}

export async function trustedRoots(caFile: string | undefined, env = process.env): Promise<TrustedRoots> {
  const extra = env.NODE_EXTRA_CA_CERTS ? await pemFile('NODE_EXTRA_CA_CERTS', env.NODE_EXTRA_CA_CERTS).catch(() => []) : [];
  const given = caFile === undefined ? [] : await pemFile('--ca', caFile);
  const pem = [...rootCertificates, ...extra, ...given];
  let parsed: X509Certificate[] | undefined;
  return { pem, certificates: () => (parsed ??= pem.map((text) => new X509Certificate(text))) };
}
