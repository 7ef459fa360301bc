// The inspector's journal on SQLite: entries appended in batches (one transaction a batch, by the
// server's journal), each company's window kept to `keep` by dropping its oldest, counted.
import type { JournalFilter, JournalReads, JournalState, Writes } from '../port.js';
import { globToGlob, JOURNAL_COLUMNS, journalWhere, toJournalRow } from '../journal-sql.js';
import type { Row } from '../rows.js';
import type { Db } from './database.js';

const NO_STATE: JournalState = { dropped: 0, dropped_upto: 0 };

export function createJournalRepo(db: Db): Writes['journal'] {
  const insert = db.prepare(`INSERT INTO journal_entries (${JOURNAL_COLUMNS.join(', ')}) VALUES (${JOURNAL_COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const count = db.prepare<[number, number]>(`
    INSERT INTO journal_state (company_id, entries) VALUES (?, ?)
    ON CONFLICT (company_id) DO UPDATE SET entries = entries + excluded.entries RETURNING entries`);
  const nth = db.prepare<[number, number], { id: number }>('SELECT id FROM journal_entries WHERE company_id = ? ORDER BY id LIMIT 1 OFFSET ?');
  const dropUpTo = db.prepare<[number, number]>('DELETE FROM journal_entries WHERE company_id = ? AND id <= ?');
  const counted = db.prepare<[number, number, number, number]>('UPDATE journal_state SET entries = entries - ?, dropped = dropped + ?, dropped_upto = MAX(dropped_upto, ?) WHERE company_id = ?');
  const lostOnly = db.prepare<[number, number]>(`
    INSERT INTO journal_state (company_id, dropped) VALUES (?, ?)
    ON CONFLICT (company_id) DO UPDATE SET dropped = dropped + excluded.dropped`);
  const state = db.prepare<[number], JournalState>('SELECT dropped, dropped_upto FROM journal_state WHERE company_id = ?');
  const byId = db.prepare<[number, number], Row>('SELECT * FROM journal_entries WHERE company_id = ? AND id = ?');
  const last = db.prepare<[number], { id: number | null }>('SELECT MAX(id) AS id FROM journal_entries WHERE company_id = ?');
  const clearEntries = db.prepare<[number]>('DELETE FROM journal_entries WHERE company_id = ?');
  const clearState = db.prepare<[number]>('DELETE FROM journal_state WHERE company_id = ?');
  const lists = new Map<string, { all: (...values: unknown[]) => unknown[] }>();

  /** Keeps the company's newest `keep`: drops the oldest beyond, in one indexed range. */
  function trim(companyId: number, entries: number, keep: number): void {
    const excess = entries - keep;
    if (excess <= 0) return;
    const boundary = nth.get(companyId, excess - 1);
    if (!boundary) return;
    const dropped = dropUpTo.run(companyId, boundary.id).changes;
    counted.run(dropped, dropped, boundary.id, companyId);
  }

  const reads: JournalReads = {
    async list(companyId: number, filter: JournalFilter, after: number, limit: number) {
      const values: unknown[] = [companyId, after];
      const where = journalWhere(filter, (value) => (values.push(value), '?'), (pattern) => (values.push(globToGlob(pattern)), 'path GLOB ?'));
      const sql = `SELECT * FROM journal_entries WHERE company_id = ? AND id > ?${where} ORDER BY id LIMIT ?`;
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
  return {
    ...reads,
    async append(entries, keep, lost) {
      const added = new Map<number, number>();
      for (const entry of entries) {
        insert.run(entry as unknown as Record<string, unknown>);
        added.set(entry.company_id, (added.get(entry.company_id) ?? 0) + 1);
      }
      for (const [companyId, n] of lost ?? []) lostOnly.run(companyId, n);
      for (const [companyId, n] of added) {
        const { entries: total } = count.get(companyId, n) as { entries: number };
        trim(companyId, total, keep);
      }
    },
    async clear(companyId) {
      const removed = clearEntries.run(companyId).changes;
      clearState.run(companyId);
      return removed;
    },
  };
}

