// `pinvoice logs clear`: removes every entry of the company's journal (and its count of dropped ones).
// A terminal is asked first (--yes skips); a script must say --yes, since nothing can bring them back.
import { connect, originOf } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { at, int } from '../../client/read/values.js';
import type { ClearFlags } from './index.js';

export async function clear(flags: ClearFlags): Promise<void> {
  const { canAsk, confirmAction } = await import('../../cli/prompts/confirm.js');
  if (flags.yes !== true && !canAsk()) {
    throw usageError("logs clear removes every entry of the company's journal, and there is no terminal to ask: pass --yes to clear it");
  }
  const out = createOutput(flags);
  const { client, connection } = await connect(flags);
  await confirmAction(`Clear the journal of this company at ${originOf(connection.baseUrl)}? Every request and postback attempt kept is removed.`, flags);
  const raw = await client.journalClear();
  if (out.json) return out.jsonData(raw);
  const cleared = int(at(raw, 'cleared'));
  out.data(cleared === undefined ? 'journal cleared' : `cleared ${cleared} ${cleared === 1 ? 'entry' : 'entries'}`);
}
