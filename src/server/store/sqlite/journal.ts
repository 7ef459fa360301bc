// The inspector's journal on SQLite: entries appended in batches, each company's window kept to `keep`
// by dropping its oldest, counted. The tables live in a file of their own beside the database
// (journal-file.ts): a batch never waits for the charges' writer, nor holds it up.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { pathMatcher } from '../../../base/glob.js';
import { createPrivateFile } from '../../../base/private-file.js';
import { RESET_JOURNAL } from '../clear-charges.js';
import { RESEND_MS } from '../shared-bodies.js';
import { entryDetail, type JournalFilter, type JournalReads, type JournalRow, type JournalState, type NewJournalEntry } from '../port.js';
import type { Db } from './database.js';

/**
 * The journal's tables. A batch of one company's entries is one row of journal_batches: its entries as
 * one JSON array, their ids first_id..last_id (consecutive: a batch's entries are grouped by company
 * before their ids are given). One insert a batch, not one an entry, and a window trimmed by dropping
 * whole rows: the writer's work follows batches, not requests. Ids are the company's own, 1, 2, 3…
 * (another company's traffic never shows in them), counted by journal_state.last_id in the statement
 * that counts the batch's entries anyway, and never given twice, not even after a clear, so a cursor
 * stays a cursor. `batch` is the row's own key, across companies, for nothing but the file.
 *
 * journal_batch_invoices names the batches that hold a charge's entries (a list by charge reads only
 * those); a row whose batch is gone is swept with the bodies. journal_state counts each company's
 * entries and those dropped from its window; entries at or below dropped_upto are no longer in the
 * window, even while the rest of their batch is.
 *
 * journal_bodies holds answers that many entries share, once: a charge polled a thousand times answers
 * the same record, which the server keeps as one buffer; its entries name it by ref (journal-file.ts).
 * The members of a detail that many entries share (a proxy's findings of that record) are kept there
 * too, by their own ref (version 6): a batch of polls then hands the writer neither copy. What changes
 * of a body is kept beside it, in journal_body_marks (version 7): `at`, when its bytes were last sent,
 * and `batch`, the newest batch that names it; a body whose batch is gone is removed a minute after
 * it was last sent. (In journal_bodies' own row, the pointer moved by every batch rewrote the body's
 * bytes each time: 14 µs a batch a body there, 2 beside it, most of what a lookup's entry cost the
 * writer's thread when the lookups go over many charges. Its `at` and `batch` columns stay, unused:
 * dropping them would copy every body of a version 6 file at the first start.)
 *
 * A batch's request and answer bodies are kept beside its JSON, one after the other in `bodies`, each
 * named in the JSON by its length (keptAside): a body is JSON text, full of quotes, and escaping it
 * into the batch's JSON cost more than writing it (a create's entry: 28 → 16 CPU-µs). Bodies of
 * DEFLATE_FROM characters and more are kept deflated (a BLOB; older rows hold TEXT, read as they are):
 * a batch of creates' bodies (their requests and the records answered) deflates to a sixteenth, so a
 * journal of creates writes a sixteenth of the bytes to the disk the charges' commits share, and its
 * file is a seventh of the size (10,000 creates: 37.8 → 5.3 MB). The writer's thread pays about what
 * the pages saved had cost it (a create's entry: 66 → 68–70 CPU-µs), and a list reads as fast.
 */
export const JOURNAL_VERSION = 7;
/**
 * The oldest journal this one reads as it is: version 5 only adds details kept aside, and version 6 a
 * detail's shared members named by ref (DETAIL_REF), which version 4 never wrote.
 */
export const JOURNAL_READS_FROM = 4;
export const JOURNAL_SCHEMA = `
  CREATE TABLE IF NOT EXISTS journal_batches (
    batch INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL,
    first_id INTEGER NOT NULL,
    last_id INTEGER NOT NULL,
    entries TEXT NOT NULL,
    bodies TEXT
  );
  CREATE UNIQUE INDEX IF NOT EXISTS journal_batches_ids ON journal_batches(company_id, last_id);
  CREATE TABLE IF NOT EXISTS journal_batch_invoices (
    company_id INTEGER NOT NULL,
    invoice_id INTEGER NOT NULL,
    last_id INTEGER NOT NULL,
    PRIMARY KEY (company_id, invoice_id, last_id)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS journal_bodies (
    ref TEXT PRIMARY KEY,
    body BLOB NOT NULL,
    at INTEGER NOT NULL,
    batch INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS journal_body_marks (
    ref TEXT PRIMARY KEY,
    at INTEGER NOT NULL,
    batch INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS journal_body_marks_batch ON journal_body_marks(batch);
  CREATE TABLE IF NOT EXISTS journal_state (
    company_id INTEGER PRIMARY KEY,
    entries INTEGER NOT NULL DEFAULT 0,
    dropped INTEGER NOT NULL DEFAULT 0,
    dropped_upto INTEGER NOT NULL DEFAULT 0,
    last_id INTEGER NOT NULL DEFAULT 0
  );
`;

/**
 * A journal of the third form (ids numbered across companies, from journal_seq) to the fourth: each
 * company's batches numbered 1, 2, 3… in their order, each keeping its size, its window's edge moved
 * with its batch; a batch's key is its old last_id, which the shared bodies name already.
 */
const RENUMBER_BY_COMPANY = `
  ALTER TABLE journal_batches RENAME TO journal_batches_global;
  DROP INDEX IF EXISTS journal_batches_company;
  CREATE TABLE journal_batches (
    batch INTEGER PRIMARY KEY, company_id INTEGER NOT NULL, first_id INTEGER NOT NULL, last_id INTEGER NOT NULL, entries TEXT NOT NULL, bodies TEXT
  );
  INSERT INTO journal_batches (batch, company_id, first_id, last_id, entries, bodies)
    SELECT last_id, company_id, n - (last_id - first_id), n, entries, bodies
    FROM (SELECT *, SUM(last_id - first_id + 1) OVER (PARTITION BY company_id ORDER BY last_id) AS n FROM journal_batches_global);
  ALTER TABLE journal_batch_invoices RENAME TO journal_batch_invoices_global;
  CREATE TABLE journal_batch_invoices (
    company_id INTEGER NOT NULL, invoice_id INTEGER NOT NULL, last_id INTEGER NOT NULL, PRIMARY KEY (company_id, invoice_id, last_id)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO journal_batch_invoices (company_id, invoice_id, last_id)
    SELECT i.company_id, i.invoice_id, b.last_id FROM journal_batch_invoices_global i JOIN journal_batches b ON b.batch = i.last_id;
  ALTER TABLE journal_bodies RENAME COLUMN last_id TO batch;
  ALTER TABLE journal_state ADD COLUMN last_id INTEGER NOT NULL DEFAULT 0;
  UPDATE journal_state SET
    dropped_upto = COALESCE((SELECT b.first_id + journal_state.dropped_upto - o.first_id FROM journal_batches_global o JOIN journal_batches b ON b.batch = o.last_id
      WHERE o.company_id = journal_state.company_id AND journal_state.dropped_upto BETWEEN o.first_id AND o.last_id), 0),
    last_id = COALESCE((SELECT MAX(last_id) FROM journal_batches b WHERE b.company_id = journal_state.company_id), 0);
  DROP TABLE journal_batches_global;
  DROP TABLE journal_batch_invoices_global;
  DROP TABLE IF EXISTS journal_seq;
`;
/** A journal of version 6 or before to the seventh: each shared body's marks copied beside it. */
const MARKS_BESIDE_BODIES = `
  INSERT OR IGNORE INTO journal_body_marks (ref, at, batch) SELECT ref, at, batch FROM journal_bodies;
  DROP INDEX IF EXISTS journal_bodies_batch;
`;
/** The tables of the first journal files (an entry a row), replaced by JOURNAL_SCHEMA's. */
const FIRST_TABLES = ['journal_entries', 'journal_bodies', 'journal_state'];

/**
 * Makes the journal's tables in the journal's own file (its user_version is the journal's); a journal of the first form (an entry a row, before batches) is
 * begun anew, and answers so. The journal is a record of what passed, bounded: nothing a charge needs.
 */
function makeJournalTables(db: Db): string | undefined {
  const has = (table: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
  // (the version read inside the IMMEDIATE transaction: of two processes starting on one old file, one migrates it)
  return db.transaction(() => {
    const version = Number(db.pragma('user_version', { simple: true }));
    const old = version < JOURNAL_VERSION && has('journal_entries');
    if (old) for (const table of FIRST_TABLES) db.exec(`DROP TABLE IF EXISTS ${table}`);
    // (version 2 kept every body inside the batch's JSON, which is still read as it is)
    if (version === 2 && has('journal_batches')) db.exec('ALTER TABLE journal_batches ADD COLUMN bodies TEXT');
    if ((version === 2 || version === 3) && has('journal_batches')) db.exec(RENUMBER_BY_COMPANY);
    db.exec(JOURNAL_SCHEMA);
    // (version 7: the bodies' marks beside them; journal_bodies' own go unused, their index with them)
    if (version < 7) db.exec(MARKS_BESIDE_BODIES);
    if (version < JOURNAL_VERSION) db.pragma(`user_version = ${JOURNAL_VERSION}`);
    return old ? 'the journal was kept an entry a row by an earlier pinvoice; it was begun anew in batches' : undefined;
  }).immediate();
}

/**
 * An entry as the writer takes it and keeps it: its columns in this order, the answer inline or named
 * by `response_ref` in journal_bodies. A row of values, not an object: handed to the writer's thread,
 * an object's member names would be written and read again for every entry; kept in a batch's JSON,
 * they would be stored for every entry. A path, request body or detail that is the previous entry's of
 * the company in the batch is SAME (a client polling a charge sends the same request again and again).
 */
export type JournalEntryRow = [
  company_id: number, at: number, sandbox_at: number, direction: NewJournalEntry['direction'], method: string, path: string | Same,
  status: number | null, invoice_id: number | null, duration_ms: number, request_body: string | null | Same, response_body: string | null,
  detail: string | Same, response_ref: string | null, detail_ref?: string,
];
/**
 * An entry that is the company's entry before it in the batch again but for its times: a client
 * polling a charge, answered the same kept record with the same status. Four numbers, where a whole
 * row is thirteen values: the main thread hands the writer a tenth of the values for a batch of polls,
 * and the writer keeps each as `[at, sandbox_at, duration_ms]` (REPEAT_KEPT).
 */
export type JournalRepeat = [company_id: number, at: number, sandbox_at: number, duration_ms: number];
export type JournalInsert = JournalEntryRow | JournalRepeat;
/** the length of a repeat as handed over, and as kept in a batch's JSON */
const REPEAT = 4;
const REPEAT_KEPT = 3;
const SAME = 0;
type Same = typeof SAME;
const PATH = 5;
const INVOICE = 7;
const REQUEST = 9;
const ANSWER = 10;
const DETAIL = 11;
const REF = 12;
/** (version 6) the ref of the detail's shared members, in journal_bodies; absent when it has none */
const DETAIL_REF = 13;
/** (an entry read back, its SAMEs resolved) */
type StoredEntry = [number, number, number, NewJournalEntry['direction'], string, string, number | null, number | null, number, string | null, string | null, string, string | null, string?];

/**
 * The rows of a batch's entries, given in order: each answer kept inline, or (a shared body's, a
 * Buffer) named by the ref `share` gives it, as the shared members of a detail are; what repeats the
 * company's entry before is SAME, and an entry that repeats it whole but for its times is a JournalRepeat.
 */
export function insertRows(entries: readonly NewJournalEntry[], share: (body: Buffer) => string): JournalInsert[] {
  const before = new Map<number, { entry: NewJournalEntry; ref: string | null }>();
  return entries.map((entry): JournalInsert => {
    const ref = Buffer.isBuffer(entry.response_body) ? share(entry.response_body) : null;
    const previous = before.get(entry.company_id);
    before.set(entry.company_id, { entry, ref });
    const last = previous?.entry;
    if (last && previous.ref === ref && (ref !== null || (last.response_body === null && entry.response_body === null)) && last.path === entry.path
      && last.status === entry.status && last.invoice_id === entry.invoice_id && last.request_body === entry.request_body && last.detail === entry.detail
      && last.detail_shared === entry.detail_shared && last.method === entry.method && last.direction === entry.direction) {
      return [entry.company_id, entry.at, entry.sandbox_at, entry.duration_ms];
    }
    const answer = ref === null && entry.response_body !== null ? entry.response_body.toString() : null;
    const row: JournalEntryRow = [
      entry.company_id, entry.at, entry.sandbox_at, entry.direction, entry.method, last?.path === entry.path ? SAME : entry.path, entry.status, entry.invoice_id, entry.duration_ms,
      entry.request_body !== null && last?.request_body === entry.request_body ? SAME : entry.request_body, answer, last?.detail === entry.detail ? SAME : entry.detail, ref,
    ];
    if (entry.detail_shared !== undefined) row.push(share(entry.detail_shared));
    return row;
  });
}

/**
 * A body as the batch's JSON names it: its length + 1 (0 is SAME), the body itself in the batch's
 * `bodies`. A lone surrogate (not text: the server's bodies are decoded UTF-8, which never makes one)
 * is kept as U+FFFD, as PostgreSQL keeps it, so that the lengths stay the lengths of what is stored.
 */
function keptAside(body: string | null | Same, aside: string[]): string | null | Same | number {
  if (typeof body !== 'string') return body;
  const text = body.isWellFormed() ? body : body.toWellFormed();
  aside.push(text);
  return text.length + 1;
}

/** Details of this many characters and more are kept beside the batch's JSON, as bodies are (journal version 5). */
const DETAIL_ASIDE_FROM = 512;
/** Bodies beside a batch's JSON from this many characters are kept deflated. */
const DEFLATE_FROM = 1024;

/** A batch's bodies as kept: as they are, or deflated. */
const packed = (text: string): string | Buffer => (text.length < DEFLATE_FROM ? text : deflateRawSync(text, { level: 1 }));
/** A batch's bodies as kept, read: text as it is, a BLOB inflated. */
const unpacked = (kept: string | Buffer | null): string | null => (kept === null || typeof kept === 'string' ? kept : inflateRawSync(kept).toString('utf8'));

/** A company's batch as kept: its entries' JSON, and their bodies beside it (null when none). */
function batchText(group: JournalInsert[]): [entries: string, bodies: string | Buffer | null] {
  const aside: string[] = [];
  const kept = group.map((row) => {
    if (row.length === REPEAT) return [row[1], row[2], row[3]];
    const copy: unknown[] = row.slice();
    copy[REQUEST] = keptAside(row[REQUEST], aside);
    copy[ANSWER] = keptAside(row[ANSWER], aside);
    // a long detail (a proxy's findings) too: JSON text in a JSON string costs its escaping, and aside it deflates
    if (typeof row[DETAIL] === 'string' && row[DETAIL].length >= DETAIL_ASIDE_FROM) copy[DETAIL] = keptAside(row[DETAIL], aside);
    return copy;
  });
  return [JSON.stringify(kept), aside.length > 0 ? packed(aside.join('')) : null];
}

/**
 * A batch's entries as kept, each body taken from beside the JSON, each SAME made the value it stands
 * for, each repeat the entry before with its own times (a batch's first entry is never one).
 */
function readBatch(text: string, kept: string | Buffer | null): StoredEntry[] {
  const entries = JSON.parse(text) as unknown[][];
  const bodies = unpacked(kept);
  let at = 0;
  const body = (value: unknown) => {
    if (typeof value !== 'number' || value === SAME || bodies === null) return value;
    const start = at;
    at += value - 1;
    return bodies.slice(start, at);
  };
  for (let k = 0; k < entries.length; k++) {
    let entry = entries[k] as unknown[];
    if (entry.length === REPEAT_KEPT && k > 0) {
      const [at, sandboxAt, duration] = entry;
      entry = (entries[k - 1] as unknown[]).slice();
      entry[1] = at;
      entry[2] = sandboxAt;
      entry[8] = duration;
      entries[k] = entry;
      continue;
    }
    entry[REQUEST] = body(entry[REQUEST]);
    entry[ANSWER] = body(entry[ANSWER]);
    entry[DETAIL] = body(entry[DETAIL]);
    if (k === 0) continue;
    const previous = entries[k - 1] as unknown[];
    if (entry[PATH] === SAME) entry[PATH] = previous[PATH];
    if (entry[REQUEST] === SAME) entry[REQUEST] = previous[REQUEST];
    if (entry[DETAIL] === SAME) entry[DETAIL] = previous[DETAIL];
  }
  return entries as StoredEntry[];
}

/** Does the entry pass the filter? (the list's WHERE, in JavaScript: entries are read from their batch) */
function passes(row: StoredEntry, filter: JournalFilter, path: ((path: string) => boolean) | undefined): boolean {
  if (filter.direction && row[3] !== filter.direction) return false;
  if (filter.method && row[4] !== filter.method) return false;
  if (path && !path(row[5])) return false;
  if (filter.status && (row[6] === null || row[6] < filter.status[0] || row[6] > filter.status[1])) return false;
  if (filter.invoiceId !== undefined && row[INVOICE] !== filter.invoiceId) return false;
  return true;
}

const NO_STATE: JournalState = { dropped: 0, dropped_upto: 0 };
interface BatchRow {
  last_id: number;
  first_id: number;
  entries: string;
  bodies: string | Buffer | null;
}

/** The journal's reads over a connection. */
export function createJournalReads(db: Db): JournalReads {
  const state = db.prepare<[number], JournalState>('SELECT dropped, dropped_upto FROM journal_state WHERE company_id = ?');
  const batches = db.prepare<[number, number], BatchRow>('SELECT last_id, first_id, entries, bodies FROM journal_batches WHERE company_id = ? AND last_id > ? ORDER BY last_id');
  const charged = db.prepare<[number, number, number], BatchRow>(`SELECT b.last_id, b.first_id, b.entries, b.bodies FROM journal_batch_invoices i
    JOIN journal_batches b ON b.company_id = i.company_id AND b.last_id = i.last_id WHERE i.company_id = ? AND i.invoice_id = ? AND i.last_id > ? ORDER BY i.last_id`);
  const holding = db.prepare<[number, number], BatchRow>('SELECT last_id, first_id, entries, bodies FROM journal_batches WHERE company_id = ? AND last_id >= ? ORDER BY last_id LIMIT 1');
  const last = db.prepare<[number], { id: number | null }>('SELECT MAX(last_id) AS id FROM journal_batches WHERE company_id = ?');
  const dropped = db.prepare<[], { n: number | null }>('SELECT SUM(dropped) AS n FROM journal_state');
  const body = db.prepare<[string], { body: Buffer }>('SELECT body FROM journal_bodies WHERE ref = ?');

  /** The entries of one read, their shared answers read once each. */
  const reader = () => {
    const bodies = new Map<string, string | null>();
    const answer = (ref: string) => {
      if (!bodies.has(ref)) bodies.set(ref, body.get(ref)?.body.toString('utf8') ?? null);
      return bodies.get(ref) ?? null;
    };
    return (row: StoredEntry, id: number): JournalRow => ({
      id,
      company_id: row[0],
      at: row[1],
      sandbox_at: row[2],
      direction: row[3],
      method: row[4],
      path: row[5],
      status: row[6],
      invoice_id: row[INVOICE],
      duration_ms: row[8],
      request_body: row[REQUEST],
      response_body: row[REF] === null ? row[10] : answer(row[REF]),
      detail: row[DETAIL_REF] === undefined ? row[DETAIL] : entryDetail(row[DETAIL], answer(row[DETAIL_REF])),
    });
  };
  const windowStart = (companyId: number) => state.get(companyId)?.dropped_upto ?? 0;

  return {
    async list(companyId: number, filter: JournalFilter, after: number, limit: number) {
      const from = Math.max(after, windowStart(companyId));
      const path = filter.path === undefined ? undefined : pathMatcher(filter.path);
      const found: JournalRow[] = [];
      const toRow = reader();
      const rows = filter.invoiceId === undefined ? batches.iterate(companyId, from) : charged.iterate(companyId, filter.invoiceId, from);
      for (const batch of rows) {
        const entries = readBatch(batch.entries, batch.bodies);
        for (let k = Math.max(0, from + 1 - batch.first_id); k < entries.length; k++) {
          const entry = entries[k] as StoredEntry;
          if (passes(entry, filter, path)) found.push(toRow(entry, batch.first_id + k));
          if (found.length >= limit) break;
        }
        if (found.length >= limit) break;
      }
      return found;
    },
    async get(companyId, id) {
      if (id <= windowStart(companyId)) return undefined;
      const batch = holding.get(companyId, id);
      if (!batch || batch.first_id > id) return undefined;
      const entry = readBatch(batch.entries, batch.bodies)[id - batch.first_id];
      return entry && reader()(entry, id);
    },
    async state(companyId) {
      return state.get(companyId) ?? NO_STATE;
    },
    async last(companyId) {
      return last.get(companyId)?.id ?? 0;
    },
    async dropped() {
      return dropped.get()?.n ?? 0;
    },
  };
}

/** An answer to keep once, for the entries that name it. */
export interface SharedBody {
  ref: string;
  body: Buffer | Uint8Array;
}

/** A body no entry names is removed once it is this old: the door re-sends a body it has not sent for 10 s. */
export const BODY_GRACE_MS = 60_000;

export interface JournalWrites {
  append(entries: JournalInsert[], bodies: SharedBody[], keep: number, lost?: ReadonlyMap<number, number>, maxBytes?: number): void;
  clear(companyId: number): number;
  clearAll(): void;
}

/**
 * Of the journal's room (`--journal-max-bytes`), the share its write-ahead log may take: a checkpoint
 * folds the log into the file each time it holds this much, and cuts the log's file back to it
 * (journal_size_limit). The rest is for the file's pages in use.
 */
const WAL_SHARE = 1 / 8;
/** A trim frees this share of the room beyond what it must: the batches after it fit without another at once. */
const TRIM_SLACK = 0.05;
/** The room a journal's file pages may take of `maxBytes` (the rest is its write-ahead log's). */
const pagesRoom = (maxBytes: number): number => Math.floor(maxBytes * (1 - WAL_SHARE));

/** What changes the journal, synchronously, each call in one transaction of its own (a savepoint inside the caller's). */
export function createJournalWrites(db: Db): JournalWrites {
  const insert = db.prepare<[number, number, number, string, string | Buffer | null]>('INSERT INTO journal_batches (company_id, first_id, last_id, entries, bodies) VALUES (?, ?, ?, ?, ?)');
  const charged = db.prepare<[number, number, number]>('INSERT OR IGNORE INTO journal_batch_invoices (company_id, invoice_id, last_id) VALUES (?, ?, ?)');
  // a body's bytes written once; its marks beside it (version 7)
  const keepBytes = db.prepare<[string, Buffer | Uint8Array, number]>('INSERT INTO journal_bodies (ref, body, at) VALUES (?, ?, ?) ON CONFLICT (ref) DO NOTHING');
  const keepMarks = db.prepare<[string, number]>('INSERT INTO journal_body_marks (ref, at) VALUES (?, ?) ON CONFLICT (ref) DO UPDATE SET at = excluded.at');
  const named = db.prepare<[number | bigint, string]>('UPDATE journal_body_marks SET batch = ? WHERE ref = ?');
  /** the bodies whose marks meet `where`, gone with their marks: answers the bytes each freed */
  const forgetting = <P extends unknown[]>(where: string) => {
    const bytes = db.prepare<P, number>(`DELETE FROM journal_bodies WHERE ref IN (SELECT ref FROM journal_body_marks WHERE ${where}) RETURNING octet_length(body)`).pluck();
    const marks = db.prepare<P>(`DELETE FROM journal_body_marks WHERE ${where}`);
    return (...params: P): number[] => {
      const freed = bytes.all(...params);
      marks.run(...params);
      return freed;
    };
  };
  // (sent longer ago than the grace, and named by no batch left)
  const forgetBodies = forgetting<[number]>('at < ? AND NOT EXISTS (SELECT 1 FROM journal_batches b WHERE b.batch = journal_body_marks.batch)');
  const forgetCharged = db.prepare(`DELETE FROM journal_batch_invoices
    WHERE NOT EXISTS (SELECT 1 FROM journal_batches b WHERE b.company_id = journal_batch_invoices.company_id AND b.last_id = journal_batch_invoices.last_id)`);
  let lastSweep = Date.now();
  // a batch's entries counted, and their ids given: the company's last id moves on by as many
  const count = db.prepare<[number, number, number], { entries: number; dropped_upto: number; last_id: number }>(`
    INSERT INTO journal_state (company_id, entries, last_id) VALUES (?, ?, ?)
    ON CONFLICT (company_id) DO UPDATE SET entries = entries + excluded.entries, last_id = last_id + excluded.entries RETURNING entries, dropped_upto, last_id`);
  // (each batch holds at least one entry of the window: `excess` batches are the most a trim drops)
  const oldest = db.prepare<[number, number, number], { batch: number; last_id: number; first_id: number }>('SELECT batch, last_id, first_id FROM journal_batches WHERE company_id = ? AND last_id > ? ORDER BY last_id LIMIT ?');
  const dropBatch = db.prepare<[number]>('DELETE FROM journal_batches WHERE batch = ?');
  const counted = db.prepare<[number, number, number, number]>('UPDATE journal_state SET entries = entries - ?, dropped = dropped + ?, dropped_upto = ? WHERE company_id = ?');
  // an entry lost takes its id with it: the ids given after it are those a writer that names them
  // before they are written (pinvoice proxy's Pinvoice-Proxy-Entry) counted on
  const lostOnly = db.prepare<[number, number, number]>(`
    INSERT INTO journal_state (company_id, dropped, last_id) VALUES (?, ?, ?)
    ON CONFLICT (company_id) DO UPDATE SET dropped = dropped + excluded.dropped, last_id = last_id + excluded.dropped`);
  const liveEntries = db.prepare<[number], { entries: number }>('SELECT entries FROM journal_state WHERE company_id = ?');
  const clearBatches = db.prepare<[number]>('DELETE FROM journal_batches WHERE company_id = ?');
  const clearCharged = db.prepare<[number]>('DELETE FROM journal_batch_invoices WHERE company_id = ?');
  // (its last id stays: ids are never given twice)
  const clearState = db.prepare<[number]>(`${RESET_JOURNAL} WHERE company_id = ?`);
  const pageCount = db.prepare<[], number>('PRAGMA page_count').pluck();
  const freePages = db.prepare<[], number>('PRAGMA freelist_count').pluck();
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const fullest = db.prepare<[], { company_id: number; dropped_upto: number }>('SELECT company_id, dropped_upto FROM journal_state WHERE entries > 0 ORDER BY entries DESC LIMIT 1');
  const oldestSized = db.prepare<[number, number, number], { batch: number; last_id: number; first_id: number; size: number }>(
    'SELECT batch, last_id, first_id, octet_length(entries) + COALESCE(octet_length(bodies), 0) AS size FROM journal_batches WHERE company_id = ? AND last_id > ? ORDER BY last_id LIMIT ?');
  // (a body named by a batch that goes, unless the door may still name it without sending it again)
  const forgetNamed = forgetting<[number, number]>('batch = ? AND at < ?');
  let walFor = 0;

  /** Keeps the company's newest `keep`: whole batches dropped oldest first, the last one cut by dropped_upto. */
  function trim(companyId: number, entries: number, upto: number, keep: number): void {
    let excess = entries - keep;
    if (excess <= 0) return;
    let dropped = 0;
    for (const batch of oldest.all(companyId, upto, excess)) {
      const live = batch.last_id - Math.max(batch.first_id, upto + 1) + 1;
      if (live <= excess) {
        dropBatch.run(batch.batch);
        upto = batch.last_id;
        excess -= live;
        dropped += live;
      } else {
        upto = Math.max(batch.first_id, upto + 1) + excess - 1;
        dropped += excess;
        excess = 0;
      }
      if (excess === 0) break;
    }
    counted.run(dropped, dropped, upto, companyId);
  }

  /**
   * Keeps the file's pages in use within the room of `maxBytes`: whole batches of the company that keeps
   * the most entries dropped, oldest first and counted (with the shared answers only they named, unless
   * the door may name them again without sending them: RESEND_MS), until what they held frees what is
   * over and TRIM_SLACK more. A noisy company thus gives up its own past first; a quiet one keeps its
   * entries until it is the one that keeps the most. Freed pages are SQLite's to reuse: the file grows
   * no further.
   */
  function fit(maxBytes: number): void {
    const room = pagesRoom(maxBytes);
    const resent = Date.now() - 2 * RESEND_MS;
    let need = (pageCount.get()! - freePages.get()!) * pageSize - room;
    if (need <= 0) return;
    need += Math.ceil(room * TRIM_SLACK);
    while (need > 0) {
      const company = fullest.get();
      if (!company) break;
      let upto = company.dropped_upto;
      let gone = 0;
      for (const batch of oldestSized.all(company.company_id, upto, 16)) {
        dropBatch.run(batch.batch);
        gone += batch.last_id - Math.max(batch.first_id, upto + 1) + 1;
        upto = batch.last_id;
        need -= batch.size;
        for (const bytes of forgetNamed(batch.batch, resent)) need -= bytes;
        if (need <= 0) break;
      }
      if (gone === 0) break;
      counted.run(gone, gone, upto, company.company_id);
    }
  }

  /** The write-ahead log's share of the room: checkpointed at it, and cut back to it (set again only when the room changes). */
  function sizeWal(maxBytes: number): void {
    if (walFor === maxBytes) return;
    walFor = maxBytes;
    const bytes = Math.floor(maxBytes * WAL_SHARE);
    db.pragma(`wal_autocheckpoint = ${Math.max(16, Math.min(WAL_CHECKPOINT_PAGES, Math.floor(bytes / pageSize)))}`);
    db.pragma(`journal_size_limit = ${bytes}`);
  }

  /**
   * A file larger than the whole room (kept by an earlier pinvoice, or bounded by more before) is
   * rewritten once its trim freed the pages: SQLite reuses free pages but never gives them back.
   */
  function compact(maxBytes: number): void {
    if (pageCount.get()! * pageSize <= maxBytes || freePages.get()! * pageSize < maxBytes * WAL_SHARE) return;
    db.exec('VACUUM');
    // (the rewritten file folded in from the log now, and the log cut to nothing: the disk has the bytes back at once)
    db.pragma('wal_checkpoint(TRUNCATE)');
  }

  function sweep(now: number): void {
    if (now - lastSweep <= BODY_GRACE_MS / 2) return;
    lastSweep = now;
    forgetBodies(now - BODY_GRACE_MS);
    forgetCharged.run();
  }

  const append = db.transaction((entries: JournalInsert[], bodies: SharedBody[], keep: number, lost?: ReadonlyMap<number, number>, maxBytes?: number) => {
    const now = Date.now();
    // (a Buffer handed to the writer's thread arrives as a plain Uint8Array, which SQLite does not bind)
    for (const { ref, body } of bodies) {
      keepBytes.run(ref, Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength), now);
      keepMarks.run(ref, now);
    }
    sweep(now);
    // the lost were before the batch: their ids first
    for (const [companyId, n] of lost ?? []) lostOnly.run(companyId, n, n);
    // each company's entries in the order given, a batch row each
    const byCompany = new Map<number, JournalInsert[]>();
    for (const row of entries) {
      const group = byCompany.get(row[0]);
      if (group) group.push(row);
      else byCompany.set(row[0], [row]);
    }
    for (const [companyId, group] of byCompany) {
      const state = count.get(companyId, group.length, group.length) as { entries: number; dropped_upto: number; last_id: number };
      const id = state.last_id;
      const batch = insert.run(companyId, id - group.length + 1, id, ...batchText(group)).lastInsertRowid;
      const invoices = new Set<number>();
      const refs = new Set<string>();
      for (const row of group) {
        if (row.length === REPEAT) continue; // (its charge and answer are the row's before)
        if (row[INVOICE] !== null) invoices.add(row[INVOICE]);
        if (row[REF] !== null) refs.add(row[REF]);
        if (row[DETAIL_REF] !== undefined) refs.add(row[DETAIL_REF]);
      }
      for (const invoice of invoices) charged.run(companyId, invoice, id);
      for (const ref of refs) named.run(batch, ref);
      trim(companyId, state.entries, state.dropped_upto, keep);
    }
    if (maxBytes !== undefined) fit(maxBytes);
  });
  const clear = db.transaction((companyId: number): number => {
    const removed = liveEntries.get(companyId)?.entries ?? 0;
    clearBatches.run(companyId);
    clearCharged.run(companyId);
    clearState.run(companyId);
    return removed;
  });
  return {
    // IMMEDIATE: another process writing the same file waits here, before the ids are read
    append: (entries, bodies, keep, lost, maxBytes) => {
      if (maxBytes !== undefined) sizeWal(maxBytes);
      append.immediate(entries, bodies, keep, lost, maxBytes);
      if (maxBytes !== undefined) compact(maxBytes);
    },
    clear: (companyId) => clear.immediate(companyId),
    clearAll: db.transaction(() => {
      for (const table of ['journal_batches', 'journal_batch_invoices', 'journal_bodies', 'journal_body_marks']) db.prepare(`DELETE FROM ${table}`).run();
      db.prepare(RESET_JOURNAL).run();
    }),
  };
}

/** The write-ahead log's checkpoint, in pages (4 KiB): every 40 MB of it at most. */
const WAL_CHECKPOINT_PAGES = 10_000;

/**
 * Opens the journal's file, in WAL mode, its tables made. A missing file is created 0600 first, so
 * that SQLite gives its -wal and -shm that mode too (openDatabase made any it found owner-only).
 */
export function openJournalFile(file: string): { db: Db; notice?: string } {
  createPrivateFile(file);
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  // a crash may lose the last batches, which is what the journal promises; never a charge (another file)
  db.pragma('synchronous = NORMAL');
  // a checkpoint (and its two fsyncs) every 40 MB of the write-ahead log, not every 4: a journal of
  // creates writes a few MB a second, and the charges' commits share the disk
  // (a room of its own, --journal-max-bytes, makes it less: sizeWal)
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  // a page cache of 512 KiB, not 2 MiB: the journal is written more than read, and each connection has one
  db.pragma('cache_size = -512');
  const notice = makeJournalTables(db);
  return { db, ...(notice !== undefined && { notice }) };
}
