// A proxy's journal file read where it lies (`pinvoice logs list|show|tail --journal FILE`): the
// inspector's own list and lookup (src/server/journal/handlers.ts, the same filters, cursor and
// answers as `/_pinvoice/requests`) over the file opened read-only, no proxy needed.
import type { FastifyRequest } from 'fastify';
import type { JournalEntry, JournalPage } from '../api/journal.js';
import { getJournalEntry, listJournal, type JournalContext } from '../server/journal/handlers.js';
import type { JournalRecorder } from '../server/journal/recorder.js';
import { chargeFinder, PROXY_COMPANY, readJournalFile } from './journal.js';

/** Reads only: what is on the file is all there is, nothing is buffered. */
const READER: JournalRecorder = {
  keep: Number.POSITIVE_INFINITY,
  record: () => undefined,
  flush: async () => undefined,
  onWritten: () => () => undefined,
  close: async () => undefined,
};

export interface LocalJournal {
  list(query: Record<string, string>): Promise<JournalPage>;
  get(id: string): Promise<JournalEntry>;
  close(): void;
}

export function openLocalJournal(file: string): LocalJournal {
  const reads = readJournalFile(file);
  const ctx: JournalContext = {
    journal: READER,
    store: { journal: { ...reads, clear: () => Promise.reject(new Error('read-only')) } },
    reads: { invoices: { find: chargeFinder(reads) } },
    keepFlag: 'pinvoice proxy --journal-max N',
    roomFlag: 'pinvoice proxy --journal-max-bytes',
  };
  const company = { id: PROXY_COMPANY };
  // (no client waits on a file: a list answers at once)
  const request = (query: Record<string, string>) => ({ query, raw: { socket: undefined } }) as unknown as FastifyRequest;
  return {
    list: (query) => listJournal(ctx, company, request(query)),
    get: (id) => getJournalEntry(ctx, company, id),
    close: () => reads.close(),
  };
}
