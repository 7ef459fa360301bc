// The proxy's journal: serve's journal store (src/server/store/sqlite) in a SQLite file of its own, one
// "company" (the origin's traffic), entries made by entry.ts and buffered by serve's recorder. Its
// files are owner-only (src/base/private-file.ts), a damaged one set aside as serve's is. Readers
// (`pinvoice logs --journal`, `pinvoice drift`) open the same file while a proxy writes it.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { JournalEntry } from '../api/journal.js';
import type { Finding } from '../api/findings.js';
import { ownFolder, tightenFiles, type Notify } from '../base/private-file.js';
import { toEntry } from '../server/journal/handlers.js';
import type { JournalFilter, JournalReads, JournalRow } from '../server/store/port.js';
import { openJournalAt, readJournalAt, type JournalFile } from '../server/store/index.js';

/** Every entry of a proxy's journal is the one company's: the origin's traffic. */
export const PROXY_COMPANY = 1;

/** What the proxy adds to serve's entry: the gateway's own answer, and how it differs from the contract. */
export interface ProxyEntry extends JournalEntry {
  upstream: { status: number | null; duration_ms: number } | null;
  findings: Finding[];
}

export class JournalFileError extends Error {
  override readonly name = 'JournalFileError';
}

/**
 * Opens (or makes) the journal at `file` for writing, its files made or found owner-only before SQLite
 * opens them (it gives -wal and -shm the main file's mode). Its folder is made 0700 when missing; the
 * default one (`ownFolder`: pinvoice's, in the data directory) is also tightened when found wider, a
 * folder the user named that exists is theirs and kept as it is.
 */
export function openJournalForWriting(file: string, notify: Notify, isOwnFolder = false): JournalFile {
  if (isOwnFolder || !existsSync(dirname(file))) ownFolder(dirname(file), notify);
  tightenFiles([file, `${file}-wal`, `${file}-shm`], notify, ' or give another --journal');
  return openJournalAt(file);
}

/** A stored row as the proxy's API and readers show it: serve's entry, plus upstream and findings. */
export function toProxyEntry(row: JournalRow, answer = true): ProxyEntry {
  const entry = toEntry(row, answer) as JournalEntry & Partial<ProxyEntry>;
  return { ...entry, upstream: entry.upstream ?? null, findings: entry.findings ?? [] };
}

export interface ProxyJournal {
  /** the entries after `after`, oldest first, that match the filter */
  list(filter: JournalFilter, after: number, limit: number): Promise<ProxyEntry[]>;
  get(id: number): Promise<ProxyEntry | undefined>;
  state(): Promise<{ dropped: number; dropped_upto: number }>;
  /** every entry of the window, oldest first (`since`: only those at or after it, ms since the epoch) */
  entries(filter?: { since?: number }): AsyncIterable<ProxyEntry>;
  close(): Promise<void>;
}

/** An existing journal file opened read-only, as it is (a proxy may be writing it meanwhile); a JournalFileError says why not. */
export function readJournalFile(file: string): ReturnType<typeof readJournalAt> {
  if (!existsSync(file)) throw new JournalFileError(`${file}: no such journal file (a proxy writes one: pinvoice proxy --to ORIGIN --journal FILE)`);
  try {
    return readJournalAt(file);
  } catch (error) {
    throw new JournalFileError(`${file} cannot be read as a pinvoice proxy journal: ${(error as Error).message}`);
  }
}

/** Opens an existing journal file to read it, as the proxy's entries. */
export async function openProxyJournal(file: string): Promise<ProxyJournal> {
  return proxyJournal(readJournalFile(file));
}

/** The one company's part of a journal's reads, as the proxy's entries. */
export function proxyJournal(reads: JournalReads & { close(): void | Promise<void> }): ProxyJournal {
  const list = async (filter: JournalFilter, after: number, limit: number) => (await reads.list(PROXY_COMPANY, filter, after, limit)).map((row) => toProxyEntry(row));
  return {
    list,
    get: async (id) => {
      const row = await reads.get(PROXY_COMPANY, id);
      return row ? toProxyEntry(row) : undefined;
    },
    state: () => reads.state(PROXY_COMPANY),
    async *entries(filter = {}) {
      for (let after = 0; ;) {
        const page = await list({}, after, 1000);
        for (const entry of page) if (filter.since === undefined || Date.parse(entry.at) >= filter.since) yield entry;
        if (page.length < 1000) return;
        after = page.at(-1)?.id ?? after;
      }
    },
    close: async () => void (await reads.close()),
  };
}

/**
 * A charge named in a filter (`--charge`, `invoice_id`): its integer id as production gave it, or a
 * secureId looked for in the answers' text, newest first (the proxy keeps no index of them).
 */
export function chargeFinder(reads: Pick<JournalReads, 'list'>) {
  return async (_company: number, ref: string): Promise<{ id: number } | undefined> => {
    if (/^\d{1,15}$/.test(ref)) return { id: Number(ref) };
    const quoted = JSON.stringify(ref);
    let found: number | undefined;
    for (let after = 0; ;) {
      const rows = await reads.list(PROXY_COMPANY, {}, after, 1000);
      for (const row of rows) if (row.invoice_id !== null && (row.response_body?.toString() ?? '').includes(quoted)) found = row.invoice_id;
      if (rows.length < 1000) return found === undefined ? undefined : { id: found };
      after = rows.at(-1)?.id ?? after;
    }
  };
}
