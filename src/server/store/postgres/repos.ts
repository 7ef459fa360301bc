// The PostgreSQL engine's repositories over one queryable (the pool for reads, a client for a
// transaction): the same port as SQLite's, in PostgreSQL's SQL, rows decoded before anything above
// sees them (rows.ts decodes them, as for SQLite). Chosen by --db postgres://….
import { createHash, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { maskToken } from '../../../domain/secrets.js';
import type { Status } from '../../../domain/status.js';
import {
  BALANCE_COLUMNS, DUE_START, hashToken, INVOICE_COLUMNS, invoiceValues, isTimeText, json, NO_TOTALS, QUEUE_HEAD, textOrNull, toAttempt, toCompany, toEvent,
  toInvoice, tokenOfJoin, TOKEN_COLUMNS, toToken, type Row,
} from '../rows.js';
import { CHARGE_TABLES, JOURNAL_TABLES, RESET_COMPANIES, RESET_JOURNAL, RESET_JOURNAL_ROOM } from '../clear-charges.js';
import { encodeSnapshot } from '../snapshot-codec.js';
import type { Pipelined } from './pipeline.js';
import { AGGREGATE_BY_ID, AGGREGATE_BY_SECURE_ID, pageStatement, toAggregate } from './charges.js';
import {
  TokenNameTaken,
  type Access, type CompanyTotals, type Customer, type EventSnapshot, type InvoiceAggregate, type NewInvoice, type Writes,
} from '../port.js';

export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

// Every statement is a named prepared statement: each connection parses and plans it once, then
// only binds and runs it (the name is a digest of its text, so one text is one statement).
const statementNames = new Map<string, string>();
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `p_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

/** An ISO timestamp of ours as an SQL literal (checked: nothing else may be written into SQL text). */
function timestampLiteral(at: string): string {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(at)) throw new Error(`not a timestamp of ours: ${at}`);
  return `'${at}'`;
}

function idLiteral(id: unknown): string {
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new Error(`not an id: ${String(id)}`);
  return String(id);
}

/** What a transaction gives its repositories beside its connection. */
export interface TransactionTail {
  /**
   * Statements (SQL text with literals of ours only) that the engine sends with the COMMIT, in one
   * round trip: updates of rows that many transactions share, so that each holds their lock while
   * the database runs them and commits, not while the server goes back and forth.
   */
  beforeCommit: string[];
  /** sends a write whose answer is not read, without waiting for it (postgres/pipeline.ts) */
  send: Pipelined['send'];
}

/** The repositories over the pool (reads) or a transaction's client (`tail` given). */
export function createPgRepos(db: Queryable, tail?: TransactionTail): Writes {
  const rows = async (sql: string, params: unknown[] = []): Promise<Row[]> => (await db.query(prepared(sql, params))).rows as Row[];
  const one = async (sql: string, params: unknown[] = []): Promise<Row | undefined> => (await rows(sql, params))[0];
  const count = async (sql: string, params: unknown[] = []): Promise<number> => (await db.query(prepared(sql, params))).rowCount ?? 0;
  const exec = (sql: string, params: unknown[] = []) => db.query(prepared(sql, params));
  /** a write whose answer is not read: in a transaction, sent without waiting; its failure fails what comes after */
  const write = async (sql: string, params: unknown[] = []): Promise<void> => {
    if (tail) tail.send(prepared(sql, params));
    else await exec(sql, params);
  };

  const totalsOf = async (companyId: number, month: string): Promise<CompanyTotals> =>
    ((await one(`SELECT t.balance_pix, t.balance_card, t.balance_bank_slip, t.paid_total,
        COALESCE((SELECT total FROM company_paid_months m WHERE m.company_id = t.company_id AND m.month = $1), 0) AS paid_month
      FROM company_totals t WHERE t.company_id = $2`, [month, companyId])) as unknown as CompanyTotals | undefined) ?? NO_TOTALS;
  // A new charge's first timeline row: its id taken from the sequence with the charge's (one round
  // trip), so that the row goes without waiting for its RETURNING (a create's event names it)
  let firstTimeline: { invoiceId: number; id: number } | undefined;
  const findInvoice = (companyId: number, ref: string) =>
    /^\d{1,15}$/.test(ref)
      ? one('SELECT * FROM invoices WHERE company_id = $1 AND id = $2', [companyId, Number(ref)])
      : one('SELECT * FROM invoices WHERE company_id = $1 AND secure_id = $2', [companyId, ref]);

  return {
    async lock(name) {
      // hashtext: a 32-bit key from the name; the lock ends with the transaction
      await exec('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
    },
    async clearCharges() {
      // RESTART IDENTITY: the next ids are those of a new database, as on SQLite (no AUTOINCREMENT there)
      await exec(`TRUNCATE ${CHARGE_TABLES.join(', ')} RESTART IDENTITY`);
      await exec(`TRUNCATE ${JOURNAL_TABLES.join(', ')}`);
      await exec(RESET_JOURNAL);
      for (const statement of RESET_JOURNAL_ROOM) await exec(statement);
      for (const statement of RESET_COMPANIES) await exec(statement);
    },
    companies: {
      async authenticate(token) {
        const hash = hashToken(token);
        const row = await one(`SELECT c.*, t.token_hash, t.id AS token_id, t.name AS token_name, t.read_only AS token_read_only,
            t.revoked_at AS token_revoked_at FROM api_tokens t JOIN companies c ON c.id = t.company_id WHERE t.token_hash = $1`, [hash]);
        if (!row || !timingSafeEqual(Buffer.from(row.token_hash as string, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
        if (row.token_revoked_at !== null) return undefined;
        const access: Access = { company: toCompany(row), token: tokenOfJoin(row) };
        return access;
      },
      async tokens(companyId) {
        return (companyId === undefined
          ? await rows(`SELECT ${TOKEN_COLUMNS} FROM api_tokens ORDER BY company_id, id`)
          : await rows(`SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE company_id = $1 ORDER BY id`, [companyId])).map(toToken);
      },
      async get(id) {
        const row = await one('SELECT * FROM companies WHERE id = $1', [id]);
        return row && toCompany(row);
      },
      async list() {
        return (await rows('SELECT c.*, (SELECT COUNT(*) FROM api_tokens t WHERE t.company_id = c.id AND t.revoked_at IS NULL) AS tokens FROM companies c ORDER BY c.id'))
          .map((row) => ({ ...toCompany(row), tokens: Number(row.tokens) }));
      },
      async hasToken(token) {
        return (await one('SELECT 1 FROM api_tokens WHERE token_hash = $1', [hashToken(token)])) !== undefined;
      },
      totals: totalsOf,
      async aheadClocks() {
        return (await rows('SELECT id, clock_offset_ms FROM companies WHERE clock_offset_ms > 0')).map((row) => ({ id: Number(row.id), clock_offset_ms: Number(row.clock_offset_ms) }));
      },
      async signingToken(companyId) {
        return ((await one('SELECT signing_token FROM companies WHERE id = $1', [companyId]))?.signing_token as string | null | undefined) ?? undefined;
      },
      async create(profile, fees, webhookSecret, now) {
        const p = profile;
        const row = await one(`INSERT INTO companies (cnpj, company_type, corporate_reason, fantasy_name, url_website, address, address_city,
            address_number, address_postal_code, address_province, address_state, bank_account, bank_agency, bank_digit, bank_name,
            bank_type, fees, webhook_secret, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $19) RETURNING id`,
        [p.cnpj, p.company_type, p.corporate_reason, p.fantasy_name, p.url_website, p.address, p.address_city, p.address_number,
          p.address_postal_code, p.address_province, p.address_state, p.bank_account, p.bank_agency, p.bank_digit, p.bank_name,
          p.bank_type, JSON.stringify(fees), webhookSecret, now]);
        const id = row?.id as number;
        await write('INSERT INTO company_totals (company_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
        return id;
      },
      async addToken(companyId, token, now, options = {}) {
        let row: Row | undefined;
        try {
          row = await one(`INSERT INTO api_tokens (company_id, token_hash, hint, created_at, name, read_only) VALUES ($1, $2, $3, $4, $5, $6)
            RETURNING ${TOKEN_COLUMNS}`, [companyId, hashToken(token), maskToken(token), now, options.name ?? null, options.readOnly === true]);
        } catch (error) {
          if ((error as { code?: string; constraint?: string }).constraint === 'api_tokens_name') throw new TokenNameTaken(options.name ?? '');
          throw error;
        }
        if (row && row.name === null) row = await one(`UPDATE api_tokens SET name = 'token-' || id WHERE id = $1 RETURNING ${TOKEN_COLUMNS}`, [row.id]);
        if (!row) throw new Error('a token insert returned nothing');
        return toToken(row);
      },
      async revokeToken(companyId, id, now) {
        const revoked = (await count('UPDATE api_tokens SET revoked_at = $1 WHERE company_id = $2 AND id = $3 AND revoked_at IS NULL', [now, companyId, id])) === 1;
        if (revoked) await write('UPDATE companies SET signing_token_id = NULL, signing_token = NULL WHERE id = $1 AND signing_token_id = $2', [companyId, id]);
        return revoked;
      },
      async setClock(companyId, offsetMs) {
        await write('UPDATE companies SET clock_offset_ms = $1 WHERE id = $2', [offsetMs, companyId]);
      },
      async setChaos(companyId, chaos) {
        await write('UPDATE companies SET chaos = $1 WHERE id = $2', [textOrNull(chaos), companyId]);
      },
      async setSigningToken(companyId, signing) {
        await write('UPDATE companies SET signing_token_id = $1, signing_token = $2 WHERE id = $3', [signing?.tokenId ?? null, signing?.token ?? null, companyId]);
      },
    },
    invoices: {
      async find(companyId, ref) {
        const row = await findInvoice(companyId, ref);
        return row && toInvoice(row);
      },
      async aggregate(companyId, ref, month): Promise<InvoiceAggregate | undefined> {
        const row = /^\d{1,15}$/.test(ref)
          ? await one(AGGREGATE_BY_ID, [companyId, Number(ref), month])
          : await one(AGGREGATE_BY_SECURE_ID, [companyId, ref, month]);
        return row && toAggregate(row);
      },
      async list(companyId, page, month) {
        const { text, values } = pageStatement(companyId, page, month);
        return (await rows(text, values)).map(toAggregate);
      },
      async byCheckoutToken(token) {
        const row = await one('SELECT * FROM invoices WHERE token_checkout = $1', [token]);
        return row && toInvoice(row);
      },
      async byPixTxid(txid) {
        const row = await one('SELECT * FROM invoices WHERE pix_txid = $1', [txid]);
        return row && toInvoice(row);
      },
      async dueForExpiry(now, limit, companyId, after = DUE_START) {
        // $3 <= expires_at <= $1 (the indexes' range), past the cursor, and in the time form
        const due = `status = 'pending' AND expires_at BETWEEN $3 AND $1 AND (expires_at, id) > ($3, $4) AND ${isTimeText('expires_at')}
          ORDER BY expires_at, id LIMIT $2`;
        const values = [now, limit, after.expires_at, after.id];
        return (companyId === undefined
          ? await rows(`SELECT * FROM invoices WHERE ${due}`, values)
          : await rows(`SELECT * FROM invoices WHERE company_id = $5 AND ${due}`, [...values, companyId])).map(toInvoice);
      },
      async unsortableExpiries(limit) {
        return (await rows(`SELECT * FROM invoices WHERE status = 'pending' AND expires_at IS NOT NULL AND NOT ${isTimeText('expires_at')} ORDER BY id LIMIT $1`, [limit])).map(toInvoice);
      },
      async allocateId(wanted) {
        if (wanted !== undefined && !(await one('SELECT id FROM invoices WHERE id = $1', [wanted]))) {
          // the sequence moved past it, so that no charge made later is given it again
          await write("SELECT setval('invoices_id_seq', GREATEST($1, (SELECT last_value FROM invoices_id_seq)))", [wanted]);
          return wanted;
        }
        const ids = await one("SELECT nextval('invoices_id_seq') AS id, nextval('timeline_id_seq') AS timeline");
        const id = Number(ids?.id);
        firstTimeline = { invoiceId: id, id: Number(ids?.timeline) };
        return id;
      },
      async insert(invoice: NewInvoice) {
        await write(`INSERT INTO invoices (${INVOICE_COLUMNS.join(', ')}) VALUES (${INVOICE_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
          invoiceValues(invoice));
      },
      async upsertCustomer(companyId, document, now) {
        // A known payer is found without waiting (a plain read; an insert that met the row would wait for
        // whichever transaction last touched it); the time it last paid moves forward at the very end of
        // the transaction, so that charges of one payer on many connections do not queue behind each other.
        let found = await one('SELECT id, created_at FROM customers WHERE company_id = $1 AND document = $2', [companyId, document]);
        if (!found) {
          // a new payer (a second insert of the same document waits for this one, then finds it)
          const created = await one(`INSERT INTO customers (company_id, document, created_at, updated_at) VALUES ($1, $2, $3, $3)
            ON CONFLICT (company_id, document) DO NOTHING RETURNING id, created_at, updated_at`, [companyId, document, now]);
          if (created) return created as unknown as Customer;
          found = await one('SELECT id, created_at FROM customers WHERE company_id = $1 AND document = $2', [companyId, document]);
          if (!found) throw new Error('a customer neither inserted nor found');
        }
        const touch = `UPDATE customers SET updated_at = ${timestampLiteral(now)} WHERE id = ${idLiteral(found.id)} AND updated_at < ${timestampLiteral(now)}`;
        if (tail) tail.beforeCommit.push(touch);
        else await db.query(touch);
        return { id: found.id as number, created_at: found.created_at as string, updated_at: now };
      },
      async changeStatus(change) {
        return (await count(`UPDATE invoices SET status = $1, updated_at = $2, paid_at = COALESCE($3, paid_at),
            refused_reason = COALESCE($4, refused_reason), card = COALESCE($5, card) WHERE id = $6 AND status = $7`,
        [change.to, change.at, change.paid_at ?? null, change.refused_reason ?? null, textOrNull(change.card ?? null), change.id, change.from])) === 1;
      },
      async addTimeline(invoiceId: number, status: Status, note: string, at: string, by?: Access['token'] | null) {
        const given = firstTimeline?.invoiceId === invoiceId ? firstTimeline.id : undefined;
        firstTimeline = undefined;
        if (given !== undefined) {
          await write('INSERT INTO timeline (id, invoice_id, status, note, at, token_id) VALUES ($1, $2, $3, $4, $5, $6)', [given, invoiceId, status, note, at, by?.id ?? null]);
          return { id: given, status, note, at, by: by?.name ?? null };
        }
        const row = await one('INSERT INTO timeline (invoice_id, status, note, at, token_id) VALUES ($1, $2, $3, $4, $5) RETURNING id', [invoiceId, status, note, at, by?.id ?? null]);
        return { id: row?.id as number, status, note, at, by: by?.name ?? null };
      },
      async addRefund(invoiceId, amount, reason, at) {
        const added = await count(`UPDATE invoices SET refunded_amount = refunded_amount + $1, updated_at = $2
          WHERE id = $3 AND status = 'paid' AND $1 > 0 AND refunded_amount + $1 <= amount`, [amount, at, invoiceId]);
        if (added !== 1) return false;
        await write('INSERT INTO refunds (invoice_id, amount, reason, created_at) VALUES ($1, $2, $3, $4)', [invoiceId, amount, reason, at]);
        return true;
      },
      async addMovement(movement) {
        const { company_id, invoice_id, type, amount, balance, description, created_at } = movement;
        if (!BALANCE_COLUMNS.includes(balance)) throw new Error(`unknown balance ${balance}`);
        // the balance moves in the same round trip as the insert (sent after it, not waited for)
        const [row] = await Promise.all([
          one(`INSERT INTO financial_movements (company_id, invoice_id, type, amount, balance, description, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, [company_id, invoice_id, type, amount, balance, description, created_at]),
          write(`INSERT INTO company_totals (company_id, ${balance}) VALUES ($1, $2)
            ON CONFLICT (company_id) DO UPDATE SET ${balance} = company_totals.${balance} + excluded.${balance}`, [company_id, amount]),
        ]);
        return { id: row?.id as number, type, amount, balance, description, created_at };
      },
      async countPaid(companyId, amount, paidAt) {
        await Promise.all([
          write(`INSERT INTO company_totals (company_id, paid_total) VALUES ($1, $2)
            ON CONFLICT (company_id) DO UPDATE SET paid_total = company_totals.paid_total + excluded.paid_total`, [companyId, amount]),
          write(`INSERT INTO company_paid_months (company_id, month, total) VALUES ($1, $2, $3)
            ON CONFLICT (company_id, month) DO UPDATE SET total = company_paid_months.total + excluded.total`, [companyId, paidAt.slice(0, 7), amount]),
        ]);
      },
      async marks(invoiceId) {
        const row = await one(`SELECT
          COALESCE((SELECT MAX(id) FROM timeline WHERE invoice_id = $1), 0) AS timeline,
          COALESCE((SELECT MAX(id) FROM refunds WHERE invoice_id = $1), 0) AS refunds,
          COALESCE((SELECT MAX(id) FROM financial_movements WHERE invoice_id = $1), 0) AS movements,
          (SELECT c.updated_at FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.id = $1) AS customer_updated_at`, [invoiceId]);
        if (!row) throw new Error(`no marks for invoice ${invoiceId}`);
        return { upto: { timeline: Number(row.timeline), refunds: Number(row.refunds), movements: Number(row.movements) }, customer_updated_at: row.customer_updated_at as string };
      },
    },
    events: {
      async forInvoice(invoiceId) {
        return (await rows('SELECT * FROM events WHERE invoice_id = $1 ORDER BY id', [invoiceId])).map(toEvent);
      },
      async find(companyId, publicId) {
        const row = await one('SELECT * FROM events WHERE company_id = $1 AND public_id = $2', [companyId, publicId]);
        return row && toEvent(row);
      },
      async get(id) {
        const row = await one('SELECT * FROM events WHERE id = $1', [id]);
        return row && toEvent(row);
      },
      async attempts(eventId) {
        return (await rows('SELECT * FROM delivery_attempts WHERE event_id = $1 ORDER BY id', [eventId])).map(toAttempt);
      },
      async nextDueAt() {
        // as SQLite's nextDue: the first unclaimed head in events_due's order, and the claimed heads (few)
        const row = await one(`SELECT LEAST(
          (SELECT e.next_attempt_at FROM events e WHERE ${QUEUE_HEAD} AND e.lease_until IS NULL ORDER BY e.next_attempt_at LIMIT 1),
          (SELECT MIN(GREATEST(e.lease_until, e.next_attempt_at)) FROM events e WHERE ${QUEUE_HEAD} AND e.lease_until IS NOT NULL)) AS at`);
        return (row?.at as string | null) ?? null;
      },
      async dueCount(now) {
        return Number((await one("SELECT COUNT(*) AS n FROM events WHERE state = 'pending' AND next_attempt_at <= $1", [now]))?.n ?? 0);
      },
      async insert(event) {
        const snapshot = event.snapshot && encodeSnapshot(event.snapshot, event.created_at);
        await write(`INSERT INTO events (public_id, company_id, invoice_id, type, url, body, snapshot, created_at, state, next_attempt_at)
          VALUES ($1, $2, $3, $4, $5, '', $6, $7, $8, $9)`,
        [event.public_id, event.company_id, event.invoice_id, event.type, event.url, snapshot, event.created_at, event.state, event.next_attempt_at]);
      },
      // Claimed rows are locked and skipped by other nodes (FOR UPDATE SKIP LOCKED), then leased.
      async claimDue(now, limit, node, leaseUntil) {
        const claimed = await rows(`UPDATE events SET claimed_by = $3, lease_until = $4 WHERE id IN (
            SELECT e.id FROM events e WHERE ${QUEUE_HEAD} AND e.next_attempt_at <= $1 AND (e.lease_until IS NULL OR e.lease_until <= $1)
            ORDER BY e.next_attempt_at, e.id LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING *`, [now, limit, node, leaseUntil]);
        return claimed.map(toEvent).sort((a, b) => (a.next_attempt_at ?? '').localeCompare(b.next_attempt_at ?? '') || a.id - b.id);
      },
      async recordAttempt(attempts, outcome, node) {
        for (const attempt of attempts) {
          await write(`INSERT INTO delivery_attempts (event_id, url, started_at, duration_ms, status_code, error, response_excerpt, injected)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [attempt.event_id, attempt.url, attempt.started_at, attempt.duration_ms, attempt.status_code, attempt.error, attempt.response_excerpt, textOrNull(attempt.injected)]);
        }
        const attempt = { event_id: attempts[0]?.event_id };
        return (await count(`UPDATE events SET state = $1, tries = tries + 1, next_attempt_at = $2,
            delivered_at = COALESCE($3, delivered_at), claimed_by = NULL, lease_until = NULL
          WHERE id = $4 AND claimed_by = $5 AND state = 'pending'`,
        [outcome.state, outcome.next_attempt_at, outcome.delivered_at, attempt.event_id, node])) === 1;
      },
      async claim(id, node, now, until) {
        return (await count(`UPDATE events SET claimed_by = $1, lease_until = $2
          WHERE id = $3 AND state = 'pending' AND (claimed_by IS NULL OR claimed_by = $1 OR lease_until <= $4)`, [node, until, id, now])) === 1;
      },
      async release(id, node) {
        await write("UPDATE events SET claimed_by = NULL, lease_until = NULL WHERE id = $1 AND claimed_by = $2 AND state = 'pending'", [id, node]);
      },
      async shiftDue(companyId, ms, notBefore) {
        // the times are ISO text: shifted as timestamps and written back in the same form
        await write(`UPDATE events SET next_attempt_at = GREATEST(
            to_char((next_attempt_at::timestamptz - make_interval(secs => $1)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), $2)
          WHERE state = 'pending' AND company_id = $3`, [ms / 1000, notBefore, companyId]);
      },
      async releaseClaims(node) {
        await write("UPDATE events SET claimed_by = NULL, lease_until = NULL WHERE state = 'pending' AND claimed_by = $1", [node]);
      },
      async requeue(id, at) {
        await write("UPDATE events SET state = 'pending', tries = 0, next_attempt_at = $1, claimed_by = NULL, lease_until = NULL WHERE id = $2", [at, id]);
      },
    },
    idempotency: {
      async get(companyId, operation, key) {
        const row = await one('SELECT request_hash, status_code, response, created_at FROM idempotency_keys WHERE company_id = $1 AND operation = $2 AND key = $3', [companyId, operation, key]);
        return row && { request_hash: row.request_hash as string, status_code: row.status_code as number, response: json(row.response), created_at: row.created_at as string };
      },
      async claim({ companyId, operation, key }, requestHash, now, staleBefore) {
        // A second insert of the key waits for the transaction holding it, then does nothing if it committed.
        const inserted = await exec(`INSERT INTO idempotency_keys (company_id, operation, key, request_hash, status_code, response, created_at)
          VALUES ($1, $2, $3, $4, 0, 'null', $5) ON CONFLICT (company_id, operation, key) DO NOTHING`, [companyId, operation, key, requestHash, now]);
        if (inserted.rowCount === 1) return true;
        const taken = await exec(`UPDATE idempotency_keys SET request_hash = $4, status_code = 0, response = 'null', created_at = $5
          WHERE company_id = $1 AND operation = $2 AND key = $3 AND created_at < $6`, [companyId, operation, key, requestHash, now, staleBefore]);
        return taken.rowCount === 1;
      },
      async answer({ companyId, operation, key }, statusCode, response) {
        await write('UPDATE idempotency_keys SET status_code = $4, response = $5 WHERE company_id = $1 AND operation = $2 AND key = $3',
          [companyId, operation, key, statusCode, JSON.stringify(response)]);
      },
      async purgeBefore(cutoff) {
        return count('DELETE FROM idempotency_keys WHERE created_at < $1', [cutoff]);
      },
    },
  };
}

export type { EventSnapshot };
