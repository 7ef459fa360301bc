// The pix location's keys on disk: one folder per data folder (beside a SQLite file, see
// keyFolderFor), owner-only. The CA is made once: every file is written whole under a temporary name
// and then linked to its own (link fails when the name exists), so of two servers starting together
// one wins and the other reads the winner's. Private keys never leave this folder or the process.
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IssuedPair } from './issue.js';

export interface KeyPair extends IssuedPair {
  /** the certificate, DER */
  der: Buffer;
}

export interface LocationKeys {
  /** the CA certificate alone (PEM), for NODE_EXTRA_CA_CERTS */
  caPath: string;
  ca: KeyPair;
  /** the host names' certificate: TLS and the JWS */
  leaf: KeyPair;
  /** a leaf of the same CA whose time is over, made on first use (chaos: expired_certificate) */
  expired(): Promise<KeyPair>;
}

const DAY_MS = 86_400_000;
const LEAF_DAYS = 365;
/** a leaf this close to its end is replaced at start, not left to expire under a running server */
const RENEW_BEFORE_MS = 7 * DAY_MS;

const issuing = () => import('./issue.js');

/** Owner-only folder; one that others may read is tightened (it holds private keys). */
function ownFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stat = statSync(folder);
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw new Error(`the pix key folder ${folder} belongs to another user; remove it or choose another --db`);
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(folder, 0o700);
}

function readPair(path: string): KeyPair | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const { cert, key } = JSON.parse(text) as IssuedPair;
  return { cert, key, der: new X509Certificate(cert).raw };
}

/** Writes the file whole, then gives it its name unless another process already did: what is on disk is returned. */
function createOnce(path: string, pair: IssuedPair): KeyPair {
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, JSON.stringify(pair), { mode: 0o600 });
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  return readPair(path) as KeyPair;
}

/** Replaces a file whole (the public CA certificate, written again from ca.json on each start). */
function replaceFile(path: string, text: string): void {
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, path);
}

async function ensureCa(folder: string, now: Date): Promise<KeyPair> {
  ownFolder(folder);
  const path = join(folder, 'ca.json');
  return readPair(path) ?? createOnce(path, await (await issuing()).issueCa(now));
}

/** Whether the leaf is valid a week from now and names every host. */
function covers(pair: KeyPair, hosts: readonly string[], now: Date): boolean {
  const cert = new X509Certificate(pair.cert);
  if (new Date(cert.validTo).getTime() - RENEW_BEFORE_MS < now.getTime()) return false;
  return hosts.every((host) => (cert.checkHost(host) ?? cert.checkIP(host)) !== undefined);
}

const hostsKey = (hosts: readonly string[]) => createHash('sha256').update([...hosts].sort().join(' ')).digest('hex').slice(0, 16);

async function ensureLeaf(folder: string, ca: KeyPair, hosts: readonly string[], now: Date): Promise<KeyPair> {
  const path = join(folder, `leaf-${hostsKey(hosts)}.json`);
  const kept = readPair(path);
  if (kept && covers(kept, hosts, now)) return kept;
  const fresh = await (await issuing()).issueLeaf({ ca, hosts, notBefore: new Date(now.getTime() - DAY_MS), notAfter: new Date(now.getTime() + LEAF_DAYS * DAY_MS) });
  // a leaf past its time is set aside; the first process to write the new one wins, as for the CA
  if (kept) renameSync(path, `${path}.${now.getTime()}.old`);
  return createOnce(path, fresh);
}

/** The CA certificate's path, the CA made first when the folder has none (`pinvoice serve ca`). */
export async function caCertificatePath(folder: string, now = new Date()): Promise<string> {
  const ca = await ensureCa(folder, now);
  const caPath = join(folder, 'ca.crt');
  replaceFile(caPath, ca.cert);
  return caPath;
}

/** The CA, and a leaf for these host names (made or renewed as needed). */
export async function locationKeys(folder: string, hosts: readonly string[], now = new Date()): Promise<LocationKeys> {
  const caPath = await caCertificatePath(folder, now);
  const ca = readPair(join(folder, 'ca.json')) as KeyPair;
  const leaf = await ensureLeaf(folder, ca, hosts, now);
  let expired: Promise<KeyPair> | undefined;
  const makeExpired = async (): Promise<KeyPair> => {
    const path = join(folder, `expired-${hostsKey(hosts)}.json`);
    const made = readPair(path);
    if (made) return made;
    const notAfter = new Date(now.getTime() - DAY_MS);
    return createOnce(path, await (await issuing()).issueLeaf({ ca, hosts, notBefore: new Date(notAfter.getTime() - 30 * DAY_MS), notAfter }));
  };
  return { caPath, ca, leaf, expired: () => (expired ??= makeExpired()) };
}
