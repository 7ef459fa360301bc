// `pinvoice serve ca`: the local CA certificate's path (made first when absent), for a client to trust
// serve --tls and the pix locations: NODE_EXTRA_CA_CERTS, `pix verify --ca`, a system trust store.
import { PrivateFileError } from '../../base/private-file.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { dataDir, defaultDbPath } from '../../cli/paths.js';
import { keyFolderFor } from '../../server/pix-location/host.js';
import { caCertificatePath } from '../../server/pix-location/key-folder.js';
import type { CaFlags } from './index.js';
import { isPostgresUrl } from '../../server/store/location.js';
import { checkedDb, withStore } from './with-store.js';

/** The CA of --db (PostgreSQL's is in the database); a folder that cannot be written is said in the user's terms. */
export async function caPathFor(db: string | undefined): Promise<string> {
  const location = checkedDb(db ?? defaultDbPath());
  const folder = keyFolderFor(location, dataDir());
  try {
    if (isPostgresUrl(location)) return await withStore(location, (store) => caCertificatePath(folder, store.keyVault));
    return await caCertificatePath(folder);
  } catch (error) {
    if (error instanceof PrivateFileError) throw new CliError(error.message, EXIT.unexpected);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'ENOENT' || code === 'EROFS' || code === 'ENOTDIR') {
      throw new CliError(`cannot keep the local CA in ${folder} (${code}): choose another --db, or PINVOICE_DATA_DIR for :memory:`, EXIT.unexpected);
    }
    throw error;
  }
}

export async function printCa(flags: CaFlags): Promise<void> {
  createOutput({}).data(await caPathFor(flags.db));
}
