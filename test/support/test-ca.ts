// A throwaway certificate authority for TLS tests, made with the openssl command line in a fresh temp
// folder: leaves a client should trust (given the CA) and the three kinds it must refuse.
// `openssl ca` signs every CA leaf because OpenSSL 3.0's `x509 -req` cannot back-date (no negative
// -days, no -not_before before 3.4), and one way of signing for all kinds keeps them comparable.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type LeafKind = 'valid' | 'expired' | 'wrong-host' | 'self-signed';

export interface TestCa {
  dir: string;
  caCertPath: string;
  /** PEM */
  leaf(kind?: LeafKind): { key: string; cert: string };
  /** deletes the folder; call it in afterAll (vitest's workers end without an 'exit' event, so the fallback below rarely runs) */
  remove(): void;
}

// Our own minimal configuration, so the system's openssl.cnf (absent, or adding extensions) plays no part.
const CONFIG = `
[req]
distinguished_name = dn
[dn]
[ca]
default_ca = testca
[testca]
dir = .
database = index.txt
serial = serial
new_certs_dir = issued
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
[anything]
commonName = supplied
[ca_ext]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[localhost]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1
[wrong_host]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:wrong.example
`;

const made: string[] = [];
let cleanupRegistered = false;

export function makeTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'pinvoice-test-ca-'));
  made.push(dir);
  if (!cleanupRegistered) {
    cleanupRegistered = true;
    process.once('exit', () => made.forEach((path) => rmSync(path, { recursive: true, force: true })));
  }
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  writeFileSync(join(dir, 'openssl.cnf'), CONFIG);
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'serial'), '1000\n');
  mkdirSync(join(dir, 'issued'));
  const newKey = (file: string) => openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file);

  newKey('ca.key');
  openssl('req', '-config', 'openssl.cnf', '-x509', '-new', '-key', 'ca.key', '-subj', '/CN=pinvoice throwaway test CA', '-days', '30', '-extensions', 'ca_ext', '-out', 'ca.pem');

  const cache = new Map<LeafKind, { key: string; cert: string }>();
  const make = (kind: LeafKind) => {
    const name = kind.replace('-', '_');
    newKey(`${name}.key`);
    const section = kind === 'wrong-host' ? 'wrong_host' : 'localhost';
    const subject = `/CN=${kind === 'wrong-host' ? 'wrong.example' : 'localhost'}`;
    if (kind === 'self-signed') {
      openssl('req', '-config', 'openssl.cnf', '-x509', '-new', '-key', `${name}.key`, '-subj', subject, '-days', '30', '-extensions', section, '-out', `${name}.pem`);
    } else {
      openssl('req', '-config', 'openssl.cnf', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`);
      const validity = kind === 'expired' ? ['-startdate', '20200101000000Z', '-enddate', '20200201000000Z'] : ['-days', '30'];
      openssl('ca', '-batch', '-notext', '-config', 'openssl.cnf', '-cert', 'ca.pem', '-keyfile', 'ca.key', '-extensions', section, ...validity, '-in', `${name}.csr`, '-out', `${name}.pem`);
    }
    const leaf = { key: readFileSync(join(dir, `${name}.key`), 'utf8'), cert: readFileSync(join(dir, `${name}.pem`), 'utf8') };
    // A leaf that is not what its kind says would make a refusal test pass for the wrong reason.
    const x509 = new X509Certificate(leaf.cert);
    const expired = new Date(x509.validTo).getTime() < Date.now();
    const byCa = x509.checkIssued(new X509Certificate(readFileSync(join(dir, 'ca.pem'))));
    if (expired !== (kind === 'expired') || byCa !== (kind !== 'self-signed')) throw new Error(`test CA: the ${kind} leaf came out wrong`);
    return leaf;
  };

  return {
    dir,
    caCertPath: join(dir, 'ca.pem'),
    leaf(kind = 'valid') {
      let leaf = cache.get(kind);
      if (!leaf) cache.set(kind, (leaf = make(kind)));
      return leaf;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
