// The inspector's journal on SQLite: entries appended in batches, each company's window kept to `keep`
// by dropping its oldest, counted. The tables live in a file of their own beside the database
// (journal-file.ts): a batch never waits for the charges' writer, nor holds it up.
import { chmodSync, existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { JournalFilter, JournalReads, JournalState, NewJournalEntry } from '../port.js';
import { globToGlob, JOURNAL_COLUMNS, journalWhere, toJournalRow } from '../journal-sql.js';
import type { Row } from '../rows.js';
import type { Db } from './database.js';

/**
 * The journal's tables. AUTOINCREMENT: an id is never given twice, not even after a clear, so a cursor
 * stays a cursor. A company's entries in id order are its window; those of a charge have their own
 * index. journal_state counts each company's entries and those dropped from its window.
 *
 * journal_bodies holds answers that many entries share, once: a charge polled a thousand times answers
 * the same record, which the server keeps as one buffer; its entries name it by `response_ref`
 * (journal-file.ts), and a body no entry names any more is removed a minute later.
 */
export const JOURNAL_SCHEMA = `
  CREATE TABLE IF NOT EXISTS journal_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id INTEGER NOT NULL,
    at INTEGER NOT NULL,
    sandbox_at INTEGER NOT NULL,
    direction TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    status INTEGER,
    invoice_id INTEGER,
    request_body TEXT,
    response_body TEXT,
    response_ref TEXT,
    detail TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS journal_bodies (
    ref TEXT PRIMARY KEY,
    body BLOB NOT NULL,
    at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS journal_company ON journal_entries(company_id, id);
  CREATE INDEX IF NOT EXISTS journal_invoice ON journal_entries(company_id, invoice_id, id) WHERE invoice_id IS NOT NULL;
  CREATE TABLE IF NOT EXISTS journal_state (
    company_id INTEGER PRIMARY KEY,
    entries INTEGER NOT NULL DEFAULT 0,
    dropped INTEGER NOT NULL DEFAULT 0,
    dropped_upto INTEGER NOT NULL DEFAULT 0
  );
`;

const NO_STATE: JournalState = { dropped: 0, dropped_upto: 0 };

/** An entry's columns, its answer read from journal_bodies when it names one there. */
const SELECT = `SELECT e.id, ${JOURNAL_COLUMNS.filter((c) => c !== 'response_body').map((c) => `e.${c}`).join(', ')},
  COALESCE(e.response_body, b.body) AS response_body FROM journal_entries e LEFT JOIN journal_bodies b ON b.ref = e.response_ref`;

/** The journal's reads over a connection. */
export function createJournalReads(db: Db): JournalReads {
  const state = db.prepare<[number], JournalState>('SELECT dropped, dropped_upto FROM journal_state WHERE company_id = ?');
  const byId = db.prepare<[number, number], Row>(`${SELECT} WHERE e.company_id = ? AND e.id = ?`);
  const last = db.prepare<[number], { id: number | null }>('SELECT MAX(id) AS id FROM journal_entries WHERE company_id = ?');
  const lists = new Map<string, { all: (...values: unknown[]) => unknown[] }>();
  return {
    async list(companyId: number, filter: JournalFilter, after: number, limit: number) {
      const values: unknown[] = [companyId, after];
      const where = journalWhere(filter, (value) => (values.push(value), '?'), (pattern) => (values.push(globToGlob(pattern)), 'e.path GLOB ?'), 'e.');
      const sql = `${SELECT} WHERE e.company_id = ? AND e.id > ?${where} ORDER BY e.id LIMIT ?`;
      let statement = lists.get(sql);
      if (!statement) lists.set(sql, (statement = db.prepare<unknown[]>(sql)));
      return (statement.all(...values, limit) as Row[]).map(toJournalRow);
    },
    async get(companyId, id) {
      const row = byId.get(companyId, id);
      return row && toJournalRow(row);
    },
    async state(companyId) {
      return state.get(companyId) ?? NO_STATE;
    },
    async last(companyId) {
      return last.get(companyId)?.id ?? 0;
    },
  };
}

/**
 * An entry as the writer takes it: its columns in INSERT_COLUMNS' order, the answer inline or named by
 * `response_ref` in journal_bodies. A row of values, not an object: handed to the writer's thread, an
 * object's member names would be written and read again for every entry.
 */
export type JournalInsert = [
  company_id: number, at: number, sandbox_at: number, direction: NewJournalEntry['direction'], method: string, path: string,
  status: number | null, invoice_id: number | null, request_body: string | null, response_body: string | null, detail: string, response_ref: string | null,
];
export const INSERT_COLUMNS = [...JOURNAL_COLUMNS, 'response_ref'] as const;

/** An entry as a row to insert: its answer kept inline, or (a shared body's) named by `ref`. */
export function insertRow(entry: NewJournalEntry, ref: string | null): JournalInsert {
  const answer = ref === null && entry.response_body !== null ? entry.response_body.toString() : null;
  return [entry.company_id, entry.at, entry.sandbox_at, entry.direction, entry.method, entry.path, entry.status, entry.invoice_id, entry.request_body, answer, entry.detail, ref];
}
/** An answer to keep once, for the entries that name it. */
export interface SharedBody {
  ref: string;
  body: Buffer | Uint8Array;
}

/** A body no entry names is removed once it is this old: the door re-sends a body it has not sent for 10 s. */
export const BODY_GRACE_MS = 60_000;

export interface JournalWrites {
  append(entries: JournalInsert[], bodies: SharedBody[], keep: number, lost?: ReadonlyMap<number, number>): void;
  clear(companyId: number): number;
  clearAll(): void;
}

/** What changes the journal, synchronously, each call in one transaction of its own (a savepoint inside the caller's). */
export function createJournalWrites(db: Db): JournalWrites {
  const insert = db.prepare<JournalInsert>(`INSERT INTO journal_entries (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`);
  const keepBody = db.prepare<[string, Buffer | Uint8Array, number]>('INSERT INTO journal_bodies (ref, body, at) VALUES (?, ?, ?) ON CONFLICT (ref) DO UPDATE SET at = excluded.at');
  const forgetBodies = db.prepare<[number]>(`DELETE FROM journal_bodies WHERE at < ?
    AND NOT EXISTS (SELECT 1 FROM journal_entries e WHERE e.response_ref = journal_bodies.ref)`);
  let lastSweep = Date.now();
  const count = db.prepare<[number, number], { entries: number }>(`
    INSERT INTO journal_state (company_id, entries) VALUES (?, ?)
    ON CONFLICT (company_id) DO UPDATE SET entries = entries + excluded.entries RETURNING entries`);
  const nth = db.prepare<[number, number], { id: number }>('SELECT id FROM journal_entries WHERE company_id = ? ORDER BY id LIMIT 1 OFFSET ?');
  const dropUpTo = db.prepare<[number, number]>('DELETE FROM journal_entries WHERE company_id = ? AND id <= ?');
  const counted = db.prepare<[number, number, number, number]>('UPDATE journal_state SET entries = entries - ?, dropped = dropped + ?, dropped_upto = MAX(dropped_upto, ?) WHERE company_id = ?');
  const lostOnly = db.prepare<[number, number]>(`
    INSERT INTO journal_state (company_id, dropped) VALUES (?, ?)
    ON CONFLICT (company_id) DO UPDATE SET dropped = dropped + excluded.dropped`);
  const clearEntries = db.prepare<[number]>('DELETE FROM journal_entries WHERE company_id = ?');
  const clearState = db.prepare<[number]>('DELETE FROM journal_state WHERE company_id = ?');

  /** Keeps the company's newest `keep`: drops the oldest beyond, in one indexed range. */
  function trim(companyId: number, entries: number, keep: number): void {
    const excess = entries - keep;
    if (excess <= 0) return;
    const boundary = nth.get(companyId, excess - 1);
    if (!boundary) return;
    const dropped = dropUpTo.run(companyId, boundary.id).changes;
    counted.run(dropped, dropped, boundary.id, companyId);
  }

  const append = db.transaction((entries: JournalInsert[], bodies: SharedBody[], keep: number, lost?: ReadonlyMap<number, number>) => {
    const now = Date.now();
    // (a Buffer handed to the writer's thread arrives as a plain Uint8Array, which SQLite does not bind)
    for (const { ref, body } of bodies) keepBody.run(ref, Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength), now);
    if (now - lastSweep > BODY_GRACE_MS / 2) {
      lastSweep = now;
      forgetBodies.run(now - BODY_GRACE_MS);
    }
    const added = new Map<number, number>();
    for (const row of entries) {
      insert.run(...row);
      added.set(row[0], (added.get(row[0]) ?? 0) + 1);
    }
    for (const [companyId, n] of lost ?? []) lostOnly.run(companyId, n);
    for (const [companyId, n] of added) trim(companyId, (count.get(companyId, n) as { entries: number }).entries, keep);
  });
  const clear = db.transaction((companyId: number): number => {
    const removed = clearEntries.run(companyId).changes;
    clearState.run(companyId);
    return removed;
  });
  return {
    append: (entries, bodies, keep, lost) => void append(entries, bodies, keep, lost),
    clear: (companyId) => clear(companyId),
    clearAll: db.transaction(() => {
      db.prepare('DELETE FROM journal_entries').run();
      db.prepare('DELETE FROM journal_state').run();
      db.prepare('DELETE FROM journal_bodies').run();
    }),
  };
}

/** The journal's file beside a database file: `<db>-requests` (SQLite adds its -wal and -shm). */
export const journalFileOf = (dbPath: string) => `${dbPath}-requests`;

/**
 * Opens the journal's file, in WAL mode, its tables made; creates it owner-only when it is not there
 * (SQLite gives its -wal and -shm the file's own mode). The writer thread opens it once it exists: a
 * worker may not set the process's umask.
 */
export function openJournalFile(file: string): Db {
  const created = !existsSync(file);
  const previousMask = created ? process.umask(0o077) : undefined;
  try {
    const db = new Database(file);
    if (created) chmodSync(file, 0o600);
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    // a crash may lose the last batches, which is what the journal promises; never a charge (another file)
    db.pragma('synchronous = NORMAL');
    db.exec(JOURNAL_SCHEMA);
    return db;
  } finally {
    if (previousMask !== undefined) process.umask(previousMask);
  }
}
