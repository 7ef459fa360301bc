// `pinvoice logs show <id>`: one journal entry whole, redacted as the server kept it.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import { readEntry } from '../../client/read/journal.js';
import type { ShowFlags } from './index.js';

export async function show(id: string, flags: ShowFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const raw = await client.journalEntry(id);
  if (out.json) return out.jsonData(raw);
  const { renderJournalEntry } = await import('../../cli/render/journal-entry.js');
  out.data(renderJournalEntry(readEntry(raw), out.palette));
}
