// Where `pinvoice proxy` keeps its journal when --journal is not given: one file per origin in the data
// directory. `pinvoice proxy ca --to ORIGIN` finds that journal's CA the same way.
import { basename, join } from 'node:path';
import { dataDir } from '../../cli/paths.js';

/** The default journal: one file per origin in the data directory (`api.gateway.example_8443.journal`). */
export const defaultJournal = (origin: URL) => join(dataDir(), 'proxy', `${origin.host.replace(/[^\w.-]/g, '_')}.journal`);
/** A replay's default journal: one per recording's name (`replay-checkout.jsonl.journal`). */
export const defaultReplayJournal = (file: string) => join(dataDir(), 'proxy', `replay-${basename(file).replace(/[^\w.-]/g, '_')}.journal`);
