// `pinvoice logs list`: a page of the journal, oldest first, with the filters given; says on stderr
// when entries were dropped from the window (serve --journal N), since one looked for may be among them.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import { readJournalPage } from '../../client/read/journal.js';
import { journalQuery, type ListFlags } from './index.js';
import { fromFile } from './journal-file.js';

export async function list(flags: ListFlags): Promise<void> {
  const query = journalQuery(flags);
  if (flags.limit !== undefined) query.limit = String(flags.limit);
  if (flags.after !== undefined) query.after = String(flags.after);
  const out = createOutput(flags);
  const raw = flags.journal === undefined ? await (await connect(flags)).client.journalList(query) : await fromFile(flags.journal, (journal) => journal.list(query));
  const page = readJournalPage(raw);
  if (page.dropped !== undefined && page.dropped > 0) {
    out.message(`pinvoice: ${page.dropped} older ${page.dropped === 1 ? 'entry was' : 'entries were'} dropped from the journal's window since it was last cleared (\`pinvoice serve --journal N\` keeps the newest N per company)`);
  }
  if (out.json) return out.jsonData(raw);
  const [{ renderJournalTable }, { timeZone }] = await Promise.all([import('../../cli/render/journal.js'), import('../../cli/render/time.js')]);
  out.data(renderJournalTable(page.entries, out.palette));
  if (page.entries.length > 0) out.message(`${page.entries.length} ${page.entries.length === 1 ? 'entry' : 'entries'}, oldest first; times in ${timeZone()}`);
  if (page.entries.length > 0 && page.entries.length === (flags.limit ?? 100) && page.nextCursor !== undefined) {
    out.message(`more may follow: pinvoice logs list --after ${page.nextCursor}`);
  }
}
