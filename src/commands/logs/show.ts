// `pinvoice logs show <id>`: one journal entry whole, redacted as the server (or the proxy) kept it.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import { readEntry } from '../../client/read/journal.js';
import type { ShowFlags } from './index.js';
import { fromFile } from './journal-file.js';

export async function show(id: string, flags: ShowFlags): Promise<void> {
  const out = createOutput(flags);
  const raw = flags.journal === undefined ? await (await connect(flags)).client.journalEntry(id) : await fromFile(flags.journal, (journal) => journal.get(id));
  if (out.json) return out.jsonData(raw);
  const { renderJournalEntry } = await import('../../cli/render/journal-entry.js');
  out.data(renderJournalEntry(readEntry(raw), out.palette));
}
