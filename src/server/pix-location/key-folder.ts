// The pix location's keys: a CA made once, and leaves it issues for the server's host names, kept in
// a vault: a folder on this machine (beside a SQLite file, see keyFolderFor), owner-only, or the
// database itself (PostgreSQL, nodes on several machines). Either way a pair is written once: of two
// servers starting together one wins and the other reads the winner's. Private keys never leave the
// vault or the process; the CA certificate alone is written to `ca.crt` for clients to trust.
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyVault, StoredKeyPair } from '../store/port.js';

export interface KeyPair extends StoredKeyPair {
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
const withDer = (pair: StoredKeyPair): KeyPair => ({ cert: pair.cert, key: pair.key, der: new X509Certificate(pair.cert).raw });

/** Owner-only folder; one that others may read is tightened (it holds private keys). */
function ownFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stat = statSync(folder);
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw new Error(`the pix key folder ${folder} belongs to another user; remove it or choose another --db`);
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(folder, 0o700);
}

const temporary = (path: string) => `${path}.${randomBytes(6).toString('hex')}.tmp`;

/** The folder as a vault: a pair per JSON file, written whole under a temporary name, then linked to its own (which fails when taken). */
export function folderVault(folder: string): KeyVault {
  const path = (name: string) => join(folder, `${name}.json`);
  const read = async (name: string): Promise<StoredKeyPair | undefined> => {
    try {
      return JSON.parse(readFileSync(path(name), 'utf8')) as StoredKeyPair;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
  const createOnce = async (name: string, pair: StoredKeyPair): Promise<StoredKeyPair> => {
    ownFolder(folder);
    const temp = temporary(path(name));
    writeFileSync(temp, JSON.stringify(pair), { mode: 0o600 });
    try {
      linkSync(temp, path(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temp);
    }
    return (await read(name)) as StoredKeyPair;
  };
  return {
    read,
    createOnce,
    async replace(name, oldCert, fresh) {
      // the old pair is set aside (once: a second writer finds it gone, or already new, and reads what is there)
      if ((await read(name))?.cert === oldCert) {
        try {
          renameSync(path(name), `${path(name)}.${Date.now()}.old`);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
      return createOnce(name, fresh);
    },
  };
}

/** Whether the leaf is valid a week from now and names every host. */
function covers(pair: StoredKeyPair, hosts: readonly string[], now: Date): boolean {
  const cert = new X509Certificate(pair.cert);
  if (new Date(cert.validTo).getTime() - RENEW_BEFORE_MS < now.getTime()) return false;
  return hosts.every((host) => (cert.checkHost(host) ?? cert.checkIP(host)) !== undefined);
}

const hostsKey = (hosts: readonly string[]) => createHash('sha256').update([...hosts].sort().join(' ')).digest('hex').slice(0, 16);

async function ensureCa(vault: KeyVault, now: Date): Promise<KeyPair> {
  return withDer((await vault.read('ca')) ?? (await vault.createOnce('ca', await (await issuing()).issueCa(now))));
}

async function ensureLeaf(vault: KeyVault, ca: KeyPair, hosts: readonly string[], now: Date): Promise<KeyPair> {
  const name = `leaf-${hostsKey(hosts)}`;
  const kept = await vault.read(name);
  if (kept && covers(kept, hosts, now)) return withDer(kept);
  const fresh = await (await issuing()).issueLeaf({ ca, hosts, notBefore: new Date(now.getTime() - DAY_MS), notAfter: new Date(now.getTime() + LEAF_DAYS * DAY_MS) });
  return withDer(kept ? await vault.replace(name, kept.cert, fresh) : await vault.createOnce(name, fresh));
}

/** Writes the CA certificate alone into the folder (again on each start: the same text), for clients to trust. */
function writeCaFile(folder: string, ca: StoredKeyPair): string {
  ownFolder(folder);
  const caPath = join(folder, 'ca.crt');
  const temp = temporary(caPath);
  writeFileSync(temp, ca.cert, { mode: 0o600 });
  renameSync(temp, caPath);
  return caPath;
}

/** The CA certificate's path, the CA made first when the vault has none (`pinvoice serve ca`). */
export async function caCertificatePath(folder: string, vault: KeyVault = folderVault(folder), now = new Date()): Promise<string> {
  return writeCaFile(folder, await ensureCa(vault, now));
}

/** The CA, and a leaf for these host names (made or renewed as needed); `folder` gets ca.crt, `vault` (default: the folder) holds the pairs. */
export async function locationKeys(folder: string, hosts: readonly string[], vault: KeyVault = folderVault(folder), now = new Date()): Promise<LocationKeys> {
  const ca = await ensureCa(vault, now);
  const caPath = writeCaFile(folder, ca);
  const leaf = await ensureLeaf(vault, ca, hosts, now);
  let expired: Promise<KeyPair> | undefined;
  const makeExpired = async (): Promise<KeyPair> => {
    const name = `expired-${hostsKey(hosts)}`;
    const made = await vault.read(name);
    if (made) return withDer(made);
    const notAfter = new Date(now.getTime() - DAY_MS);
    return withDer(await vault.createOnce(name, await (await issuing()).issueLeaf({ ca, hosts, notBefore: new Date(notAfter.getTime() - 30 * DAY_MS), notAfter })));
  };
  return { caPath, ca, leaf, expired: () => (expired ??= makeExpired()) };
}
