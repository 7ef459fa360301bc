// `pinvoice proxy --forward`'s local CA (contract, "Hard-coded hosts"): kept beside the proxy's journal
// (`<journal>.ca/`: the pair in ca.json, 0600, its certificate alone in ca.crt, in a 0700 folder), made
// as serve's is (server/pix-location/key-folder.ts and issue.ts). The certificates it signs for the
// hosts a client CONNECTs to are made once per host name in this process and kept in memory only.
import { createSecureContext, type SecureContext } from 'node:tls';
import { folderCa, type KeyPair } from '../server/pix-location/key-folder.js';

const DAY_MS = 86_400_000;
/** a leaf lives in memory only, for one run of the proxy: a month is more than a run needs */
const LEAF_DAYS = 31;

/** The CA's folder of a journal file. */
export const caFolderOf = (journalFile: string) => `${journalFile}.ca`;

/** The proxy's CA of this journal (made when absent) and its certificate's path, for NODE_EXTRA_CA_CERTS or curl's --cacert. */
export function proxyCa(journalFile: string, notify: (line: string) => void): Promise<{ caPath: string; ca: KeyPair }> {
  return folderCa(caFolderOf(journalFile), { name: 'pinvoice proxy local CA', advice: ', or choose another --journal', notify });
}

/**
 * A TLS context per host name as the client asked for it (a DNS name: a dNSName; an IP address: an
 * iPAddress), made on first use and kept: one key generation (~0.1 s) per host and run.
 */
export function leafContexts(ca: KeyPair): (host: string) => Promise<SecureContext> {
  const made = new Map<string, Promise<SecureContext>>();
  return (host) => {
    const key = host.toLowerCase();
    let context = made.get(key);
    if (context === undefined) {
      context = (async () => {
        const { issueLeaf } = await import('../server/pix-location/issue.js');
        const now = Date.now();
        const leaf = await issueLeaf({ ca, hosts: [key], notBefore: new Date(now - DAY_MS), notAfter: new Date(now + LEAF_DAYS * DAY_MS) });
        return createSecureContext({ key: leaf.key, cert: `${leaf.cert}${ca.cert}` });
      })();
      context.catch(() => made.delete(key));
      made.set(key, context);
    }
    return context;
  };
}
