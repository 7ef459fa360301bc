// The pix location's keys: a CA made once, and leaves it issues for the server's host names, kept in
// a vault: a folder on this machine (beside a SQLite file, see keyFolderFor), owner-only, or the
// database itself (PostgreSQL, nodes on several machines). Either way a pair is written once: of two
// servers starting together one wins and the other reads the winner's. Private keys never leave the
// vault or the process; the CA certificate alone is written to `ca.crt` for clients to trust.
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { ownFolder, writeNewPrivateFile, writePrivateFile, type Notify } from '../../base/private-file.js';
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

const toStderr: Notify = (line) => console.error(line);
const ADVICE = ', or choose another --db';

/** The folder as a vault: a pair per JSON file, written whole under a temporary name, then linked to its own (which fails when taken); `advice` ends a refusal. */
export function folderVault(folder: string, notify: Notify = toStderr, advice = ADVICE): KeyVault {
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
    ownFolder(folder, notify, advice);
    try {
      writeNewPrivateFile(path(name), JSON.stringify(pair));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
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

async function ensureCa(vault: KeyVault, now: Date, name?: string): Promise<KeyPair> {
  return withDer((await vault.read('ca')) ?? (await vault.createOnce('ca', await (await issuing()).issueCa(now, name))));
}

async function ensureLeaf(vault: KeyVault, ca: KeyPair, hosts: readonly string[], now: Date): Promise<KeyPair> {
  const name = `leaf-${hostsKey(hosts)}`;
  const kept = await vault.read(name);
  if (kept && covers(kept, hosts, now)) return withDer(kept);
  const fresh = await (await issuing()).issueLeaf({ ca, hosts, notBefore: new Date(now.getTime() - DAY_MS), notAfter: new Date(now.getTime() + LEAF_DAYS * DAY_MS) });
  return withDer(kept ? await vault.replace(name, kept.cert, fresh) : await vault.createOnce(name, fresh));
}

/** Writes the CA certificate alone into the folder (again on each start: the same text), for clients to trust. */
function writeCaFile(folder: string, ca: StoredKeyPair, notify: Notify, advice = ADVICE): string {
  ownFolder(folder, notify, advice);
  const caPath = join(folder, 'ca.crt');
  writePrivateFile(caPath, ca.cert, notify);
  return caPath;
}

/** The CA certificate's path, the CA made first when the vault has none (`pinvoice serve ca`). */
export async function caCertificatePath(folder: string, vault?: KeyVault, now = new Date(), notify: Notify = toStderr): Promise<string> {
  return writeCaFile(folder, await ensureCa(vault ?? folderVault(folder, notify), now), notify);
}

/**
 * A CA of another pinvoice command kept in a folder of its own, as serve's is (`pinvoice proxy
 * --forward`'s, beside its journal): the pair made once (its key 0600 in the 0700 folder, never
 * anywhere else), `ca.crt` written for clients. `name` is its subject's; `advice` ends a refusal.
 */
export async function folderCa(folder: string, options: { name: string; advice: string; now?: Date; notify?: Notify }): Promise<{ caPath: string; ca: KeyPair }> {
  const notify = options.notify ?? toStderr;
  const ca = await ensureCa(folderVault(folder, notify, options.advice), options.now ?? new Date(), options.name);
  return { caPath: writeCaFile(folder, ca, notify, options.advice), ca };
}

/** The CA, and a leaf for these host names (made or renewed as needed); `folder` gets ca.crt, `vault` (default: the folder) holds the pairs. */
export async function locationKeys(folder: string, hosts: readonly string[], given?: KeyVault, now = new Date(), notify: Notify = toStderr): Promise<LocationKeys> {
  const vault = given ?? folderVault(folder, notify);
  const ca = await ensureCa(vault, now);
  const caPath = writeCaFile(folder, ca, notify);
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
