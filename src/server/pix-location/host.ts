// Where the pix location is: the host (and port) written into the codes, and the host names its
// certificate must name.
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { formatHostPort } from '../../base/host-port.js';

/** Names a client on this machine may use, always in the certificate. */
export const LOCAL_HOSTS = ['localhost', '127.0.0.1', '::1'] as const;

/** Addresses that listen on every interface (and none given). */
export const WILDCARDS: ReadonlySet<string> = new Set(['0.0.0.0', '::', '']);

/** The listening address as the codes name it: a wildcard is reached as localhost. */
export function listeningHost(host: string, address: AddressInfo | string | null): string {
  const port = typeof address === 'object' && address ? address.port : 0;
  return formatHostPort({ name: WILDCARDS.has(host) ? 'localhost' : host, port });
}

/** The host name of host[:port] ("[::1]:443" → "::1"). */
export function hostName(hostAndPort: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(hostAndPort);
  return bracketed ? (bracketed[1] ?? '') : (hostAndPort.split(':')[0] ?? '');
}

/** The certificate's names: the local ones, the listening host and the public host's name. */
export function certificateHosts(...hosts: (string | undefined)[]): string[] {
  const named = hosts.filter((host): host is string => Boolean(host) && !WILDCARDS.has(host as string));
  return [...new Set([...LOCAL_HOSTS, ...named.map((host) => host.toLowerCase())])];
}

/**
 * The key folder of a database: beside a SQLite file (`pinvoice.db` → `pinvoice.db.pix-keys/`), so a
 * copy of the file with its folder keeps its CA; in the data folder for :memory:. PostgreSQL keeps
 * the keys in the database: its folder (one per server and database, named by a hash of the URL
 * without its password) holds only the CA certificate for clients.
 */
export function keyFolderFor(db: string, dataDir: string): string {
  if (db === ':memory:') return join(dataDir, 'pix-keys');
  if (/^postgres(ql)?:\/\//i.test(db)) {
    const url = new URL(db);
    url.password = '';
    return join(dataDir, 'pix-keys', `postgres-${createHash('sha256').update(url.href).digest('hex').slice(0, 16)}`);
  }
  return join(dirname(db), `${basename(db)}.pix-keys`);
}

/** Where an app given no keys keeps them (tests, the testing module): one folder per user. */
export const scratchKeyFolder = () => join(tmpdir(), `pinvoice-pix-keys-${process.getuid?.() ?? 'user'}`);
