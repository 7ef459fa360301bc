// The inspector's journal on PostgreSQL: one journal for every node of a team, an entry a row (SQLite,
// one process's journal, keeps a batch a row: sqlite/journal.ts). Ids are each company's own, 1, 2, 3…,
// counted by journal_state.last_id in the statement that counts a batch's entries anyway. A batch takes
// the journal's advisory lock first, so ids commit in the order they were given: a reader that saw
// entry n never sees an entry below n appear later (a cursor misses nothing).
import { randomBytes } from 'node:crypto';
import { entryDetail, type JournalFilter, type JournalReads, type JournalRow, type JournalState, type JournalStore, type NewJournalEntry } from '../port.js';
import { RESET_JOURNAL } from '../clear-charges.js';
import { createBodyRefs, RESEND_MS } from '../shared-bodies.js';
import type { Row } from '../rows.js';
import type { Pipelined } from './pipeline.js';
import { prepared, type Queryable } from './repos.js';

const JOURNAL_COLUMNS = ['id', 'company_id', 'at', 'sandbox_at', 'direction', 'method', 'path', 'status', 'invoice_id', 'duration_ms', 'request_body', 'response_body', 'detail', 'response_ref', 'size'] as const;
/** an entry as read: its answer from journal_bodies when it names one */
const READ_ENTRY = `SELECT ${JOURNAL_COLUMNS.filter((c) => c !== 'response_body' && c !== 'response_ref' && c !== 'size').map((c) => `e.${c}`).join(', ')},
  COALESCE(e.response_body, b.body) AS response_body FROM journal_entries e LEFT JOIN journal_bodies b ON b.ref = e.response_ref`;
/** a body no entry names is removed once it was last sent this long ago (a node trusts a ref it sent for RESEND_MS) */
const BODY_GRACE_MS = 60_000;

/** `*` stands for any run of characters; everything else is itself (LIKE's own `%` and `_` escaped). */
const globToLike = (glob: string): string => glob.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');

/** A list's filters as the conditions after `e.company_id = $1 AND e.id > $2`, each value through `param`. */
function journalWhere(filter: JournalFilter, param: (value: unknown) => string): string {
  const parts: string[] = [];
  if (filter.direction) parts.push(`e.direction = ${param(filter.direction)}`);
  if (filter.method) parts.push(`e.method = ${param(filter.method)}`);
  if (filter.path !== undefined) parts.push(filter.path.includes('*') ? `e.path LIKE ${param(globToLike(filter.path))}` : `e.path = ${param(filter.path)}`);
  if (filter.status) parts.push(`e.status BETWEEN ${param(filter.status[0])} AND ${param(filter.status[1])}`);
  if (filter.invoiceId !== undefined) parts.push(`e.invoice_id = ${param(filter.invoiceId)}`);
  return parts.map((part) => ` AND ${part}`).join('');
}

const text = (value: unknown): string | null => (value === null || value === undefined ? null : Buffer.isBuffer(value) ? value.toString('utf8') : String(value));

function toJournalRow(row: Row): JournalRow {
  return {
    id: Number(row.id),
    company_id: Number(row.company_id),
    at: Number(row.at),
    sandbox_at: Number(row.sandbox_at),
    direction: row.direction === 'out' || row.direction === 'tunnel' ? row.direction : 'in',
    method: String(row.method),
    path: String(row.path),
    status: row.status === null ? null : Number(row.status),
    invoice_id: row.invoice_id === null ? null : Number(row.invoice_id),
    duration_ms: Number(row.duration_ms),
    request_body: text(row.request_body),
    response_body: text(row.response_body),
    detail: String(row.detail),
  };
}

/** the bodies no entry names, gone: their bytes leave the journal's room */
const FORGET_BODIES = `WITH gone AS (DELETE FROM journal_bodies b WHERE b.sent_at < $1 AND NOT EXISTS (SELECT 1 FROM journal_entries e WHERE e.response_ref = b.ref)
  RETURNING length(b.body) AS size) UPDATE journal_room SET bodies = GREATEST(0, bodies - (SELECT COALESCE(SUM(size), 0) FROM gone)) WHERE id = 1
  RETURNING (SELECT COALESCE(SUM(size), 0) FROM gone) AS freed`;

/**
 * An entry's size as the room counts it: its texts' characters (JSON, nearly all ASCII: as many bytes)
 * and this much for the rest of its row (migration 15 counts the rows it found the same way).
 */
const ENTRY_OVERHEAD = 64;
const sizeOf = (entry: NewJournalEntry, detail: string): number =>
  ENTRY_OVERHEAD + entry.path.length + detail.length + (entry.request_body?.length ?? 0) + (typeof entry.response_body === 'string' ? entry.response_body.length : 0);
/** entries gone from a company's window ($1 of them, $3 bytes, up to id $2), counted as dropped; $4 the company */
const DROPPED_FROM_WINDOW = 'UPDATE journal_state SET entries = entries - $1, dropped = dropped + $1, dropped_upto = GREATEST(dropped_upto, $2), bytes = GREATEST(0, bytes - $3) WHERE company_id = $4';
/** A trim frees this share of the room beyond what it must: the batches after it fit without another at once. */
const TRIM_SLACK = 0.05;
/** Under a full room, bodies no entry names go after this (a node trusts a ref it sent for RESEND_MS), at most once a second. */
const PRESSED_GRACE_MS = 2 * RESEND_MS;

const NO_STATE: JournalState = { dropped: 0, dropped_upto: 0 };

/** Runs fn in a transaction of its own, on one connection of the pool, its statements pipelined (the store's faults translated). */
export type RawTransaction = <T>(fn: (db: Pipelined) => Promise<T>) => Promise<T>;

/** what the room holds: every company's entries and the bodies kept once */
const USED_ROOM = 'SELECT (SELECT COALESCE(SUM(bytes), 0) FROM journal_state) + COALESCE((SELECT bodies FROM journal_room WHERE id = 1), 0) AS used';
/** $2 entries lost before a batch of company $1: counted as dropped, their ids taken */
const COUNT_LOST = `INSERT INTO journal_state (company_id, dropped, last_id) VALUES ($1, $2, $2)
  ON CONFLICT (company_id) DO UPDATE SET dropped = journal_state.dropped + excluded.dropped, last_id = journal_state.last_id + excluded.dropped`;
/** $2 entries of $3 bytes added for company $1: what it keeps now, and its last id */
const COUNT_ADDED = `INSERT INTO journal_state (company_id, entries, last_id, bytes) VALUES ($1, $2, $2, $3) ON CONFLICT (company_id)
  DO UPDATE SET entries = journal_state.entries + excluded.entries, last_id = journal_state.last_id + excluded.entries, bytes = journal_state.bytes + excluded.bytes
  RETURNING entries, last_id`;
/** the answers sent once: a body new to the table adds its bytes to the room (xmax is 0 for a row inserted, not updated) */
const KEEP_BODIES = `WITH kept AS (INSERT INTO journal_bodies (ref, body, sent_at) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
    ON CONFLICT (ref) DO UPDATE SET sent_at = excluded.sent_at RETURNING (xmax = 0) AS fresh, length(body) AS size)
  UPDATE journal_room SET bodies = bodies + (SELECT COALESCE(SUM(size), 0) FROM kept WHERE fresh) WHERE id = 1`;
const ENTRY_TYPES = ['bigint', 'bigint', 'bigint', 'bigint', 'text', 'text', 'text', 'int', 'bigint', 'float8', 'text', 'text', 'text', 'text', 'int'];
/** a batch's entries, a column of values each, in their order */
const INSERT_ENTRIES = `INSERT INTO journal_entries (${JOURNAL_COLUMNS.join(', ')})
  SELECT ${JOURNAL_COLUMNS.join(', ')} FROM unnest(${ENTRY_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})
    WITH ORDINALITY AS t(${JOURNAL_COLUMNS.join(', ')}, n) ORDER BY n`;
/**
 * Company $1's oldest $2 entries, gone and counted as dropped, in one statement. Every entry up to
 * dropped_upto is gone already (each trim and fit takes the oldest): both scans are ranges of the key
 * that start after them, not among the rows they left for the vacuum.
 */
const TRIM_WINDOW = `WITH lo AS (SELECT dropped_upto AS id FROM journal_state WHERE company_id = $1),
  hi AS (SELECT MAX(id) AS id FROM (SELECT id FROM journal_entries WHERE company_id = $1 AND id > (SELECT id FROM lo) ORDER BY id LIMIT $2) oldest),
  gone AS (DELETE FROM journal_entries WHERE company_id = $1 AND id > (SELECT id FROM lo) AND id <= (SELECT id FROM hi) RETURNING id, size)
  UPDATE journal_state SET entries = entries - (SELECT count(*) FROM gone), dropped = dropped + (SELECT count(*) FROM gone),
    dropped_upto = GREATEST(dropped_upto, (SELECT COALESCE(MAX(id), 0) FROM gone)), bytes = GREATEST(0, bytes - (SELECT COALESCE(SUM(size), 0) FROM gone))
  WHERE company_id = $1`;

/** `db` reads (the pool); `transaction` gives each batch and clear a transaction of its own. */
export function createPgJournal(db: Queryable, transaction: RawTransaction): JournalStore {
  const refOf = createBodyRefs(randomBytes(6).toString('hex'));
  let lastSweep = 0;
  let lastPressed = 0;
  const runOn = (on: Queryable) => (sql: string, params: unknown[] = []) => on.query(prepared(sql, params));
  const run = runOn(db);
  const rows = async (sql: string, params: unknown[]) => (await run(sql, params)).rows as Row[];

  const reads: JournalReads = {
    async list(companyId: number, filter: JournalFilter, after: number, limit: number) {
      const values: unknown[] = [companyId, after];
      const param = (value: unknown) => (values.push(value), `$${values.length}`);
      const where = journalWhere(filter, param);
      values.push(limit);
      return (await rows(`${READ_ENTRY} WHERE e.company_id = $1 AND e.id > $2${where} ORDER BY e.id LIMIT $${values.length}`, values)).map(toJournalRow);
    },
    async get(companyId, id) {
      const [row] = await rows(`${READ_ENTRY} WHERE e.company_id = $1 AND e.id = $2`, [companyId, id]);
      return row && toJournalRow(row);
    },
    async state(companyId) {
      const [row] = await rows('SELECT dropped, dropped_upto FROM journal_state WHERE company_id = $1', [companyId]);
      return row ? { dropped: Number(row.dropped), dropped_upto: Number(row.dropped_upto) } : NO_STATE;
    },
    async last(companyId) {
      const [row] = await rows('SELECT MAX(id) AS id FROM journal_entries WHERE company_id = $1', [companyId]);
      return row?.id === null || row?.id === undefined ? 0 : Number(row.id);
    },
    async dropped() {
      const [row] = await rows('SELECT COALESCE(SUM(dropped), 0) AS n FROM journal_state', []);
      return Number(row?.n ?? 0);
    },
  };
  type Run = (sql: string, params?: unknown[]) => Promise<{ rows: unknown[]; rowCount: number | null }>;
  const forget = async (run: Run, before: number): Promise<number> => Number(((await run(FORGET_BODIES, [before])).rows[0] as Row | undefined)?.freed ?? 0);
  const usedRoom = async (run: Run): Promise<number> => Number(((await run(USED_ROOM)).rows[0] as Row | undefined)?.used ?? 0);

  /**
   * Keeps what the journal holds within `maxBytes`: the entries' sizes, summed by company, and the bodies
   * kept once. Over it, bodies no entry names go first (once a second at most); then the oldest entries
   * of the company that keeps the most, counted as dropped, until what is over and TRIM_SLACK more is
   * freed. (These are the bytes of what is kept: the tables' files are PostgreSQL's, which reuses the
   * space of rows deleted once its autovacuum has passed.)
   */
  async function fit(run: Run, maxBytes: number, now: number, used: number): Promise<void> {
    let need = used - maxBytes;
    if (need <= 0) return;
    if (now - lastPressed > 1000) {
      lastPressed = now;
      need -= await forget(run, now - PRESSED_GRACE_MS);
      if (need <= 0) return;
    }
    need += Math.ceil(maxBytes * TRIM_SLACK);
    for (let round = 0; need > 0 && round < 100; round++) {
      const [fullest] = (await run('SELECT company_id FROM journal_state WHERE entries > 0 ORDER BY entries DESC LIMIT 1')).rows as Row[];
      if (!fullest) return;
      const companyId = Number(fullest.company_id);
      // the company's oldest, as many as free `need` (a running sum over its first 2,000 at most)
      const gone = (await run(`WITH oldest AS (SELECT id, size, SUM(size) OVER (ORDER BY id) AS running
          FROM (SELECT id, size FROM journal_entries WHERE company_id = $1 ORDER BY id LIMIT 2000) first)
        DELETE FROM journal_entries e USING oldest o WHERE e.company_id = $1 AND e.id = o.id AND o.running - o.size < $2 RETURNING e.id, e.size`, [companyId, need])).rows as Row[];
      if (gone.length === 0) return;
      let freed = 0;
      let upto = 0;
      for (const row of gone) {
        freed += Number(row.size);
        upto = Math.max(upto, Number(row.id));
      }
      await run(DROPPED_FROM_WINDOW,
        [gone.length, upto, freed, companyId]);
      need -= freed;
    }
  }

  return {
    ...reads,
    append: (entries, keep, lost, maxBytes) => {
      let sending: { body: Buffer }[] = [];
      // Three round trips, whatever the batch holds (the journal's lock is held from the first to the
      // last): the lock, the lost and each company's count with the ids they give; then the rows, the
      // trims and the room's reading; then the COMMIT. Only a room found full takes more (fit).
      return transaction(async (tx) => {
        if (entries.length === 0 && (lost?.size ?? 0) === 0) return;
        const send = (sql: string, params: unknown[]) => tx.send(prepared(sql, params));
        const ask = async (sql: string, params: unknown[]) => (await tx.query(prepared(sql, params))).rows as Row[];
        // one batch at a time across the team: ids then commit in the order they were given
        send('SELECT pg_advisory_xact_lock(hashtext($1))', ['journal']);
        // the lost were before the batch, and take their ids with them (as on SQLite)
        for (const [companyId, n] of lost ?? []) send(COUNT_LOST, [companyId, n]);
        // each company's entries counted, and their ids given: its last id moves on by as many
        // (a detail's shared members written into it: an entry a row has nowhere to name them once)
        const details = entries.map((entry) => entryDetail(entry.detail, entry.detail_shared));
        const sizes = entries.map((entry, k) => sizeOf(entry, details[k] as string));
        const added = new Map<number, { n: number; bytes: number }>();
        entries.forEach((entry, k) => {
          const sum = added.get(entry.company_id) ?? { n: 0, bytes: 0 };
          sum.n++;
          sum.bytes += sizes[k] as number;
          added.set(entry.company_id, sum);
        });
        const counted = new Map(await Promise.all([...added].map(async ([companyId, { n, bytes }]) => {
          const [state] = await ask(COUNT_ADDED, [companyId, n, bytes]);
          return [companyId, { entries: Number(state?.entries ?? n), next: Number(state?.last_id ?? n) - n + 1 }] as const;
        })));
        const ids = entries.map((entry) => (counted.get(entry.company_id) as { next: number }).next++);
        // an answer the server hands out again (a Buffer) goes once, by ref after (shared-bodies.ts)
        const now = Date.now();
        const bodies: { ref: string; body: Buffer }[] = [];
        const refs = entries.map((entry) => (Buffer.isBuffer(entry.response_body) ? refOf(entry.response_body, now, (ref, body) => bodies.push({ ref, body })) : null));
        // (a batch that fails is sent again whole: its bodies go with it again)
        sending = bodies;
        if (bodies.length > 0) send(KEEP_BODIES, [bodies.map((b) => b.ref), bodies.map((b) => b.body.toString()), bodies.map(() => now)]);
        // one INSERT for the batch: a column of values each
        // (an answer's bytes become its text: a Buffer would go as bytea's hex)
        const value = (entry: NewJournalEntry, column: Exclude<(typeof JOURNAL_COLUMNS)[number], 'id' | 'response_ref' | 'detail' | 'size'>) =>
          column === 'response_body' && Buffer.isBuffer(entry.response_body) ? null : entry[column];
        send(INSERT_ENTRIES, JOURNAL_COLUMNS.map((column) =>
          column === 'id' ? ids : column === 'response_ref' ? refs : column === 'detail' ? details : column === 'size' ? sizes : entries.map((entry) => value(entry, column))));
        // each company's window kept to its newest `keep`
        for (const [companyId, { entries: kept }] of counted) if (kept > keep) send(TRIM_WINDOW, [companyId, kept - keep]);
        // the bodies no entry names any more, every half grace at most
        const run = runOn(tx);
        let swept: Promise<number> | undefined;
        if (now - lastSweep > BODY_GRACE_MS / 2) {
          lastSweep = now;
          swept = forget(run, now - BODY_GRACE_MS);
        }
        // (both awaited together: after a failure both fail, and neither may go unheard)
        const [, used] = await Promise.all([swept, maxBytes === undefined ? 0 : usedRoom(run)]);
        if (maxBytes !== undefined) await fit(run, maxBytes, now, used);
        // (a statement sent without waiting that failed would make the COMMIT a rollback: its error is the batch's)
        await tx.settled();
      }).catch((error: unknown) => {
        for (const { body } of sending) refOf.unsent(body);
        throw error;
      });
    },
    clear: (companyId) => transaction(async (tx) => {
      const run = runOn(tx);
      const removed = (await run('DELETE FROM journal_entries WHERE company_id = $1', [companyId])).rowCount ?? 0;
      await forget(run, Date.now() - BODY_GRACE_MS);
      // (its last id stays: ids are never given twice)
      await run(`${RESET_JOURNAL}, bytes = 0 WHERE company_id = $1`, [companyId]);
      return removed;
    }),
  };
}
