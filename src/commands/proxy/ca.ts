// `pinvoice proxy ca`: the path of the CA certificate `pinvoice proxy --forward` signs the gateway's
// host with (made first when absent), kept beside the journal, for a client to trust: curl --cacert,
// CURLOPT_CAINFO, NODE_EXTRA_CA_CERTS. Its key stays in that folder; nothing else is printed.
import { PrivateFileError } from '../../base/private-file.js';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { caFolderOf, proxyCa } from '../../proxy/local-ca.js';
import type { ProxyCaFlags } from './index.js';
import { defaultJournal } from './journal-path.js';

export async function printProxyCa(flags: ProxyCaFlags): Promise<void> {
  const out = createOutput({});
  if (flags.journal !== undefined && flags.to !== undefined) throw usageError('give --journal FILE or --to ORIGIN (whose default journal it is), not both');
  if (flags.journal === undefined && flags.to === undefined) throw usageError('name the proxy\'s journal: --journal FILE, or --to ORIGIN for its default journal (as pinvoice proxy was started)');
  const journal = flags.journal ?? defaultJournal(flags.to as URL);
  try {
    out.data((await proxyCa(journal, (line) => out.message(`pinvoice proxy ca: ${line}`))).caPath);
  } catch (error) {
    if (error instanceof PrivateFileError) throw new CliError(error.message, EXIT.unexpected);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'ENOENT' || code === 'EROFS' || code === 'ENOTDIR' || code === 'EPERM') {
      throw new CliError(`cannot keep the proxy's CA in ${caFolderOf(journal)} (${code}): choose another --journal`, EXIT.unexpected);
    }
    throw error;
  }
}
