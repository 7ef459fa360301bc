// Where `pinvoice logs export` finds production records: a proxy's journal (the newest answer of each
// charge among the operations whose answer is its record, `{data: record}` unwrapped), or files saved
// with `pinvoice invoice get REF --json` (one record a file, a `{data: record}` wrapper, or JSON
// lines). A record is what serve's fixtures take as one (an integer id, a secureId, a status); what is
// not one is named by its file and line, never by its content (it may hold a payer's data).
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { readTextFlag } from '../../base/read-input.js';
import { ProductionRecord } from '../../server/fixtures/schema.js';
import { answersRecord } from '../entry.js';
import { chargeFinder, PROXY_COMPANY, proxyJournal, readJournalFile } from '../journal.js';
import { isJsonObject as isObject } from '../../base/json-object.js';

export type Json = Record<string, unknown>;

/** The records found, each charge once (its newest), in the order first seen, and how many entries or files held them. */
export interface Found {
  records: Json[];
  /** how many journal entries (or saved records) held the records kept */
  sources: number;
}

export const isRecord = (value: unknown): value is Json => ProductionRecord.safeParse(value).success;
/** The record itself, or the one of a `{data: record}` wrapper (Create Invoices', a refund's). */
export const unwrap = (value: unknown): unknown => (!isRecord(value) && isObject(value) && isRecord(value.data) ? value.data : value);

const missing = (refs: string[]) =>
  new CliError(`--charge ${refs.join(', ')}: no record of ${refs.length === 1 ? 'this charge' : 'these charges'} among those found (nothing was written)`, EXIT.notFound);

/** Each charge's newest record, with how many sources held one of it. */
function newest(): { add(record: Json): void; kept(ids?: Set<number>): Found } {
  const byId = new Map<number, { record: Json; count: number }>();
  return {
    add(record) {
      const id = record.id as number;
      byId.set(id, { record, count: (byId.get(id)?.count ?? 0) + 1 });
    },
    kept(ids) {
      const chosen = [...byId].filter(([id]) => ids === undefined || ids.has(id)).map(([, value]) => value);
      return { records: chosen.map((value) => value.record), sources: chosen.reduce((sum, value) => sum + value.count, 0) };
    },
  };
}

/** The records a proxy's journal answered; `refs` (--charge): only those charges, each found or an error (exit 4). */
export async function journalRecords(file: string, refs: string[]): Promise<Found> {
  let reads: ReturnType<typeof readJournalFile>;
  try {
    reads = readJournalFile(file);
  } catch (error) {
    throw usageError(`--journal ${(error as Error).message}`);
  }
  try {
    const found = newest();
    for await (const entry of proxyJournal(reads).entries()) {
      if (entry.status === null || entry.status < 200 || entry.status >= 300 || !answersRecord(entry.method, entry.path)) continue;
      const record = unwrap(entry.response_body);
      if (isRecord(record)) found.add(record);
    }
    if (refs.length === 0) return found.kept();
    const find = chargeFinder(reads);
    const ids = new Set<number>();
    const absent: string[] = [];
    const all = new Set(found.kept().records.map((record) => record.id as number));
    for (const ref of refs) {
      const id = (await find(PROXY_COMPANY, ref))?.id;
      if (id !== undefined && all.has(id)) ids.add(id);
      else absent.push(ref);
    }
    if (absent.length > 0) throw missing(absent);
    return found.kept(ids);
  } finally {
    reads.close();
  }
}

/** A file's records: the whole file one JSON value, else one a line. */
function recordsOf(file: string, text: string): Json[] {
  const notRecord = (line: number) => usageError(`--records ${file}:${line}: not a transaction record (an object with an integer id, a secureId and a status, as \`pinvoice invoice get REF --json\` prints it, or {"data": …} around one)`);
  try {
    const whole = unwrap(JSON.parse(text));
    if (!isRecord(whole)) throw notRecord(1);
    return [whole];
  } catch (error) {
    if (error instanceof CliError) throw error;
  }
  const records: Json[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw usageError(`--records ${file}:${i + 1}: not JSON (one record a file, or one a line)`);
    }
    const record = unwrap(value);
    if (!isRecord(record)) throw notRecord(i + 1);
    records.push(record);
  });
  return records;
}

/** The records of files saved with `invoice get --json`; `refs` (--charge): only those, by id, secureId or external id. */
export async function savedRecords(files: string[], refs: string[]): Promise<Found> {
  const found = newest();
  for (const file of files) for (const record of recordsOf(file, await readTextFlag('--records', file))) found.add(record);
  if (refs.length === 0) return found.kept();
  const all = found.kept().records;
  const matches = (record: Json, ref: string) => String(record.id) === ref || record.secureId === ref || record.externalRef === ref || (isObject(record.invoice) && record.invoice.invoice_id === ref);
  const absent = refs.filter((ref) => !all.some((record) => matches(record, ref)));
  if (absent.length > 0) throw missing(absent);
  return found.kept(new Set(all.filter((record) => refs.some((ref) => matches(record, ref))).map((record) => record.id as number)));
}
