// `pinvoice logs … --journal FILE`: a proxy's journal file, read where it lies (src/proxy/local-journal.ts),
// its answers the same JSON as the proxy's API gives; a file that is not one, or an entry it lacks, is
// said as a server's refusal would be (exit 2, 4).
import { CliError, EXIT, usageError } from '../../cli/errors.js';

type LocalJournal = import('../../proxy/local-journal.js').LocalJournal;

export async function fromFile<T>(file: string, read: (journal: LocalJournal) => Promise<T>): Promise<T> {
  const [{ openLocalJournal }, { JournalFileError }, { ApiError }] = await Promise.all([
    import('../../proxy/local-journal.js'), import('../../proxy/journal.js'), import('../../server/errors.js'),
  ]);
  let journal: LocalJournal;
  try {
    journal = openLocalJournal(file);
  } catch (error) {
    if (error instanceof JournalFileError) throw usageError(`--journal ${error.message}`);
    throw error;
  }
  try {
    return await read(journal);
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(`${file}: ${error.message}`, error.status === 404 ? EXIT.notFound : EXIT.usage);
    throw error;
  } finally {
    journal.close();
  }
}
