// The SQLite engine's repositories over one connection: prepared statements, and the rows decoded
// into the port's records (JSON text parsed, 0/1 made booleans) before anything above sees them.
import { timingSafeEqual } from 'node:crypto';
import type { Status } from '../../../domain/status.js';
import { maskToken } from '../../../domain/secrets.js';
import { TokenNameTaken } from '../port.js';
import type {
  Access, AttemptOutcome, BalanceName, CompanyProfile, CompanyTotals, Customer, EventSnapshot, FeeSchedules,
  NewAttempt, NewEvent, NewMovement, StatusChange, StoredAnswer, Writes,
} from '../port.js';
import {
  BALANCE_COLUMNS, DUE_START, hashToken, INVOICE_COLUMNS, isTimeText, invoiceValues, json, NO_TOTALS, QUEUE_HEAD, textOrNull, toAttempt, toCompany, toEvent,
  toInvoice, tokenOfJoin, TOKEN_COLUMNS, toToken, type Row,
} from '../rows.js';
import { CLEAR_CHARGES } from '../clear-charges.js';
import { encodeSnapshot } from '../snapshot-codec.js';
import { createChargeReads } from './charges.js';
import type { Db } from './database.js';

interface DueParams {
  now: string;
  limit: number;
  after_at: string;
  after_id: number;
  company_id: number;
}

export function createRepos(db: Db): Writes {
  const q = <P extends unknown[] = unknown[], R = Row>(sql: string) => db.prepare<P, R>(sql);

  // companies
  const insertCompany = q(`
    INSERT INTO companies (cnpj, company_type, corporate_reason, fantasy_name, url_website, address, address_city,
      address_number, address_postal_code, address_province, address_state, bank_account, bank_agency, bank_digit,
      bank_name, bank_type, fees, webhook_secret, created_at, updated_at)
    VALUES (@cnpj, @company_type, @corporate_reason, @fantasy_name, @url_website, @address, @address_city,
      @address_number, @address_postal_code, @address_province, @address_state, @bank_account, @bank_agency,
      @bank_digit, @bank_name, @bank_type, @fees, @webhook_secret, @now, @now)`);
  const insertTotals = q<[number]>('INSERT INTO company_totals (company_id) VALUES (?) ON CONFLICT DO NOTHING');
  const insertToken = q<[number, string, string, string, string | null, number]>(
    'INSERT INTO api_tokens (company_id, token_hash, hint, created_at, name, read_only) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const nameToken = q<[number]>("UPDATE api_tokens SET name = 'token-' || id WHERE id = ? AND name IS NULL");
  const tokenById = q<[number]>(`SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE id = ?`);
  const tokensOf = q<[number]>(`SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE company_id = ? ORDER BY id`);
  const allTokens = q<[]>(`SELECT ${TOKEN_COLUMNS} FROM api_tokens ORDER BY company_id, id`);
  const revoke = q<[string, number, number]>('UPDATE api_tokens SET revoked_at = ? WHERE company_id = ? AND id = ? AND revoked_at IS NULL');
  const byHash = q<[string], Row & { token_hash: string; token_id: number; token_name: string; token_read_only: number; token_revoked_at: string | null }>(`
    SELECT c.*, t.token_hash, t.id AS token_id, t.name AS token_name, t.read_only AS token_read_only, t.revoked_at AS token_revoked_at
    FROM api_tokens t JOIN companies c ON c.id = t.company_id WHERE t.token_hash = ?`);
  const companyById = q<[number]>('SELECT * FROM companies WHERE id = ?');
  const aheadClocks = q<[], { id: number; clock_offset_ms: number }>('SELECT id, clock_offset_ms FROM companies WHERE clock_offset_ms > 0');
  const setClock = q<[number, number]>('UPDATE companies SET clock_offset_ms = ? WHERE id = ?');
  const setChaos = q<[string | null, number]>('UPDATE companies SET chaos = ? WHERE id = ?');
  const setSigning = q<[number | null, string | null, number]>('UPDATE companies SET signing_token_id = ?, signing_token = ? WHERE id = ?');
  const signingOf = q<[number], { signing_token: string | null }>('SELECT signing_token FROM companies WHERE id = ?');
  const forgetSigning = q<[number, number]>('UPDATE companies SET signing_token_id = NULL, signing_token = NULL WHERE id = ? AND signing_token_id = ?');
  const allCompanies = q<[]>('SELECT c.*, (SELECT COUNT(*) FROM api_tokens t WHERE t.company_id = c.id AND t.revoked_at IS NULL) AS tokens FROM companies c ORDER BY c.id');
  const totals = q<[string, number], CompanyTotals>(`
    SELECT t.balance_pix, t.balance_card, t.balance_bank_slip, t.paid_total,
      COALESCE((SELECT total FROM company_paid_months m WHERE m.company_id = t.company_id AND m.month = ?), 0) AS paid_month
    FROM company_totals t WHERE t.company_id = ?`);
  const moveBalance = Object.fromEntries(
    BALANCE_COLUMNS.map((column) => [column, q<[number, number]>(`
      INSERT INTO company_totals (company_id, ${column}) VALUES (?, ?)
      ON CONFLICT (company_id) DO UPDATE SET ${column} = ${column} + excluded.${column}`)]),
  ) as Record<BalanceName, ReturnType<typeof q<[number, number]>>>;
  const countPaidTotal = q<[number, number]>(`
    INSERT INTO company_totals (company_id, paid_total) VALUES (?, ?)
    ON CONFLICT (company_id) DO UPDATE SET paid_total = paid_total + excluded.paid_total`);
  const countPaidMonth = q<[number, string, number]>(`
    INSERT INTO company_paid_months (company_id, month, total) VALUES (?, ?, ?)
    ON CONFLICT (company_id, month) DO UPDATE SET total = total + excluded.total`);

  // invoices
  const nextId = q<[], { next: number }>('SELECT COALESCE(MAX(id), 0) + 1 AS next FROM invoices');
  const idTaken = q<[number], { id: number }>('SELECT id FROM invoices WHERE id = ?');
  const insertInvoice = q<unknown[]>(`INSERT INTO invoices (${INVOICE_COLUMNS.join(', ')}) VALUES (${INVOICE_COLUMNS.map(() => '?').join(', ')})`);
  const upsertCustomer = q<[number, string, string, string], Customer>(`
    INSERT INTO customers (company_id, document, created_at, updated_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (company_id, document) DO UPDATE SET updated_at = excluded.updated_at
    RETURNING id, created_at, updated_at`);
  const invoiceById = q<[number, number]>('SELECT * FROM invoices WHERE company_id = ? AND id = ?');
  const invoiceBySecureId = q<[number, string]>('SELECT * FROM invoices WHERE company_id = ? AND secure_id = ?');
  const invoiceByToken = q<[string]>('SELECT * FROM invoices WHERE token_checkout = ?');
  const invoiceByTxid = q<[string]>('SELECT * FROM invoices WHERE pix_txid = ?');
  const marks = q<[{ id: number }], EventSnapshot['upto'] & { customer_updated_at: string }>(`SELECT
    COALESCE((SELECT MAX(id) FROM timeline WHERE invoice_id = @id), 0) AS timeline,
    COALESCE((SELECT MAX(id) FROM refunds WHERE invoice_id = @id), 0) AS refunds,
    COALESCE((SELECT MAX(id) FROM financial_movements WHERE invoice_id = @id), 0) AS movements,
    (SELECT c.updated_at FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.id = @id) AS customer_updated_at`);
  const changeStatus = q(`
    UPDATE invoices SET status = @to, updated_at = @at, paid_at = COALESCE(@paid_at, paid_at),
      refused_reason = COALESCE(@refused_reason, refused_reason), card = COALESCE(@card, card)
    WHERE id = @id AND status = @from`);
  const insertRefund = q<[number, number, string | null, string]>('INSERT INTO refunds (invoice_id, amount, reason, created_at) VALUES (?, ?, ?, ?)');
  const addRefunded = q<[{ amount: number; at: string; id: number }]>(`
    UPDATE invoices SET refunded_amount = refunded_amount + @amount, updated_at = @at
    WHERE id = @id AND status = 'paid' AND @amount > 0 AND refunded_amount + @amount <= amount`);
  const insertTimeline = q<[number, string, string, string, number | null]>('INSERT INTO timeline (invoice_id, status, note, at, token_id) VALUES (?, ?, ?, ?, ?)');
  const insertMovement = q<[number, number, string, number, string, string, string]>(`
    INSERT INTO financial_movements (company_id, invoice_id, type, amount, balance, description, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  // due: @after_at <= expires_at <= @now (the indexes' range), past the cursor, and in the time form
  const DUE = `status = 'pending' AND expires_at BETWEEN @after_at AND @now AND (expires_at, id) > (@after_at, @after_id) AND ${isTimeText('expires_at')}
    ORDER BY expires_at, id LIMIT @limit`;
  const dueForExpiry = q<[DueParams]>(`SELECT * FROM invoices WHERE ${DUE}`);
  const dueForExpiryOf = q<[DueParams]>(`SELECT * FROM invoices WHERE company_id = @company_id AND ${DUE}`);
  const unsortable = q<[number]>(`SELECT * FROM invoices WHERE status = 'pending' AND expires_at IS NOT NULL AND NOT ${isTimeText('expires_at')} ORDER BY id LIMIT ?`);

  // events
  const insertEvent = q<[string, number, number, string, string, string | null, string, string, string | null]>(`
    INSERT INTO events (public_id, company_id, invoice_id, type, url, body, snapshot, created_at, state, next_attempt_at)
    VALUES (?, ?, ?, ?, ?, '', ?, ?, ?, ?)`);
  const eventsOf = q<[number]>('SELECT * FROM events WHERE invoice_id = ? ORDER BY id');
  const eventByPublicId = q<[number, string]>('SELECT * FROM events WHERE company_id = ? AND public_id = ?');
  const eventById = q<[number]>('SELECT * FROM events WHERE id = ?');
  const due = q<[string, string, number]>(`
    SELECT e.* FROM events e WHERE ${QUEUE_HEAD} AND e.next_attempt_at <= ? AND (e.lease_until IS NULL OR e.lease_until <= ?)
    ORDER BY e.next_attempt_at, e.id LIMIT ?`);
  const claim = q<[string, string, number]>('UPDATE events SET claimed_by = ?, lease_until = ? WHERE id = ?');
  // The earliest time a queue head may be claimed: its next attempt, or the end of its claim when that is
  // later. Unclaimed heads come in events_due's order (the first one found is the earliest); the claimed
  // ones (events_claimed: those in flight) are read whole. Not a MIN over the queue: read after every
  // commit, that grew with the backlog, and a backlog of thousands cost the creates half their rate.
  const nextDue = q<[], { at: string | null }>(`
    SELECT MIN(at) AS at FROM (
      SELECT * FROM (SELECT e.next_attempt_at AS at FROM events e WHERE ${QUEUE_HEAD} AND e.lease_until IS NULL ORDER BY e.next_attempt_at LIMIT 1)
      UNION ALL
      SELECT MAX(e.lease_until, e.next_attempt_at) AS at FROM events e WHERE ${QUEUE_HEAD} AND e.lease_until IS NOT NULL
    )`);
  const dueCount = q<[string], { n: number }>("SELECT COUNT(*) AS n FROM events WHERE state = 'pending' AND next_attempt_at <= ?");
  const insertAttempt = q(`
    INSERT INTO delivery_attempts (event_id, url, started_at, duration_ms, status_code, error, response_excerpt, injected)
    VALUES (@event_id, @url, @started_at, @duration_ms, @status_code, @error, @response_excerpt, @injected)`);
  const attemptsOf = q<[number]>('SELECT * FROM delivery_attempts WHERE event_id = ? ORDER BY id');
  const takeClaim = q<[string, string, number, string, string]>(`
    UPDATE events SET claimed_by = ?, lease_until = ? WHERE id = ? AND state = 'pending' AND (claimed_by IS NULL OR claimed_by = ? OR lease_until <= ?)`);
  const dropClaim = q<[number, string]>("UPDATE events SET claimed_by = NULL, lease_until = NULL WHERE id = ? AND claimed_by = ? AND state = 'pending'");
  const shiftDue = q<[string, string, number]>(`
    UPDATE events SET next_attempt_at = MAX(strftime('%Y-%m-%dT%H:%M:%fZ', next_attempt_at, ?), ?)
    WHERE state = 'pending' AND company_id = ?`);
  const settle = q(`
    UPDATE events SET state = @state, tries = tries + 1, next_attempt_at = @next_attempt_at,
      delivered_at = COALESCE(@delivered_at, delivered_at), claimed_by = NULL, lease_until = NULL
    WHERE id = @id AND claimed_by = @node AND state = 'pending'`);
  const release = q<[string]>("UPDATE events SET claimed_by = NULL, lease_until = NULL WHERE state = 'pending' AND claimed_by = ?");
  const requeue = q<[string, number]>("UPDATE events SET state = 'pending', tries = 0, next_attempt_at = ?, claimed_by = NULL, lease_until = NULL WHERE id = ?");

  // idempotency
  const answer = q<[number, string, string], Row>(
    'SELECT request_hash, status_code, response, created_at FROM idempotency_keys WHERE company_id = ? AND operation = ? AND key = ?',
  );
  const claimKey = q<[number, string, string, string, string]>(`
    INSERT INTO idempotency_keys (company_id, operation, key, request_hash, status_code, response, created_at)
    VALUES (?, ?, ?, ?, 0, 'null', ?) ON CONFLICT (company_id, operation, key) DO NOTHING`);
  const takeStaleKey = q<[string, string, number, string, string, string]>(`UPDATE idempotency_keys SET request_hash = ?, status_code = 0, response = 'null', created_at = ?
    WHERE company_id = ? AND operation = ? AND key = ? AND created_at < ?`);
  const answerKey = q<[number, string, number, string, string]>('UPDATE idempotency_keys SET status_code = ?, response = ? WHERE company_id = ? AND operation = ? AND key = ?');
  const purge = q<[string]>('DELETE FROM idempotency_keys WHERE created_at < ?');

  const findInvoice = (companyId: number, ref: string): Row | undefined =>
    /^\d{1,15}$/.test(ref) ? invoiceById.get(companyId, Number(ref)) : invoiceBySecureId.get(companyId, ref);
  const totalsOf = (companyId: number, month: string): CompanyTotals => totals.get(month, companyId) ?? NO_TOTALS;
  const charges = createChargeReads(db);

  return {
    // BEGIN IMMEDIATE already makes every write transaction on the file run alone
    async lock() {},
    async clearCharges() {
      for (const statement of CLEAR_CHARGES) db.prepare(statement).run();
    },
    companies: {
      async authenticate(token) {
        const hash = hashToken(token);
        const row = byHash.get(hash);
        if (!row || !timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
        if (row.token_revoked_at !== null) return undefined;
        return { company: toCompany(row), token: tokenOfJoin(row) };
      },
      async tokens(companyId) {
        return (companyId === undefined ? allTokens.all() : tokensOf.all(companyId)).map(toToken);
      },
      async get(id) {
        const row = companyById.get(id);
        return row && toCompany(row);
      },
      async list() {
        return allCompanies.all().map((row) => ({ ...toCompany(row), tokens: row.tokens as number }));
      },
      async hasToken(token) {
        return byHash.get(hashToken(token)) !== undefined;
      },
      async totals(companyId, month) {
        return totalsOf(companyId, month);
      },
      async aheadClocks() {
        return aheadClocks.all();
      },
      async signingToken(companyId) {
        return signingOf.get(companyId)?.signing_token ?? undefined;
      },
      async setClock(companyId, offsetMs) {
        setClock.run(offsetMs, companyId);
      },
      async setChaos(companyId, chaos) {
        setChaos.run(textOrNull(chaos), companyId);
      },
      async setSigningToken(companyId, signing) {
        setSigning.run(signing?.tokenId ?? null, signing?.token ?? null, companyId);
      },
      async create(profile: CompanyProfile, fees: FeeSchedules, webhookSecret: string, now: string) {
        const id = Number(insertCompany.run({ ...profile, fees: JSON.stringify(fees), webhook_secret: webhookSecret, now }).lastInsertRowid);
        insertTotals.run(id);
        return id;
      },
      async addToken(companyId, token, now, options = {}) {
        let id: number;
        try {
          id = Number(insertToken.run(companyId, hashToken(token), maskToken(token), now, options.name ?? null, options.readOnly ? 1 : 0).lastInsertRowid);
        } catch (error) {
          if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && /name/.test((error as Error).message)) throw new TokenNameTaken(options.name ?? '');
          throw error;
        }
        nameToken.run(id);
        const row = tokenById.get(id);
        if (!row) throw new Error(`token ${id} vanished inside its own transaction`);
        return toToken(row);
      },
      async revokeToken(companyId, id, now) {
        const revoked = revoke.run(now, companyId, id).changes === 1;
        if (revoked) forgetSigning.run(companyId, id);
        return revoked;
      },
    },
    invoices: {
      async find(companyId, ref) {
        const row = findInvoice(companyId, ref);
        return row && toInvoice(row);
      },
      async aggregate(companyId, ref, month) {
        return charges.aggregate(companyId, ref, month);
      },
      async list(companyId, page, month) {
        return charges.list(companyId, page, month);
      },
      async byCheckoutToken(token) {
        const row = invoiceByToken.get(token);
        return row && toInvoice(row);
      },
      async byPixTxid(txid) {
        const row = invoiceByTxid.get(txid);
        return row && toInvoice(row);
      },
      async dueForExpiry(now, limit, companyId, after = DUE_START) {
        const params = { now, limit, after_at: after.expires_at, after_id: after.id, company_id: companyId ?? 0 };
        return (companyId === undefined ? dueForExpiry.all(params) : dueForExpiryOf.all(params)).map(toInvoice);
      },
      async unsortableExpiries(limit) {
        return unsortable.all(limit).map(toInvoice);
      },
      // MAX(id) + 1 under the write lock: the last entry of the rowid b-tree, one lookup (a wanted id
      // taken is then past by itself: the next MAX(id) + 1 is after it)
      async allocateId(wanted) {
        if (wanted !== undefined && idTaken.get(wanted) === undefined) return wanted;
        return nextId.get()?.next ?? 1;
      },
      async insert(invoice) {
        insertInvoice.run(...invoiceValues(invoice));
      },
      async upsertCustomer(companyId, document, now) {
        const row = upsertCustomer.get(companyId, document, now, now);
        if (!row) throw new Error('customer upsert returned nothing');
        return row;
      },
      async changeStatus(change: StatusChange) {
        const result = changeStatus.run({
          paid_at: null, refused_reason: null, ...change, card: textOrNull(change.card ?? null),
        });
        return result.changes === 1;
      },
      async addTimeline(invoiceId: number, status: Status, note: string, at: string, by?: Access['token'] | null) {
        const id = Number(insertTimeline.run(invoiceId, status, note, at, by?.id ?? null).lastInsertRowid);
        return { id, status, note, at, by: by?.name ?? null };
      },
      async addRefund(invoiceId, amount, reason, at) {
        if (addRefunded.run({ amount, at, id: invoiceId }).changes !== 1) return false;
        insertRefund.run(invoiceId, amount, reason, at);
        return true;
      },
      async addMovement(movement: NewMovement) {
        const { company_id, invoice_id, type, amount, balance, description, created_at } = movement;
        const id = Number(insertMovement.run(company_id, invoice_id, type, amount, balance, description, created_at).lastInsertRowid);
        moveBalance[balance].run(company_id, amount);
        return { id, type, amount, balance, description, created_at };
      },
      async countPaid(companyId, amount, paidAt) {
        countPaidTotal.run(companyId, amount);
        countPaidMonth.run(companyId, paidAt.slice(0, 7), amount);
      },
      async marks(invoiceId) {
        const row = marks.get({ id: invoiceId });
        if (!row) throw new Error(`no marks for invoice ${invoiceId}`);
        const { customer_updated_at, ...upto } = row;
        return { upto, customer_updated_at };
      },
    },
    events: {
      async forInvoice(invoiceId) {
        return eventsOf.all(invoiceId).map(toEvent);
      },
      async find(companyId, publicId) {
        const row = eventByPublicId.get(companyId, publicId);
        return row && toEvent(row);
      },
      async get(id) {
        const row = eventById.get(id);
        return row && toEvent(row);
      },
      async attempts(eventId) {
        return attemptsOf.all(eventId).map(toAttempt);
      },
      async nextDueAt() {
        return nextDue.get()?.at ?? null;
      },
      async dueCount(now) {
        return dueCount.get(now)?.n ?? 0;
      },
      async insert(event: NewEvent) {
        const snapshot = event.snapshot && encodeSnapshot(event.snapshot, event.created_at);
        insertEvent.run(event.public_id, event.company_id, event.invoice_id, event.type, event.url, snapshot, event.created_at, event.state, event.next_attempt_at);
      },
      async claimDue(now, limit, node, leaseUntil) {
        const rows = due.all(now, now, limit);
        for (const row of rows) claim.run(node, leaseUntil, row.id as number);
        return rows.map(toEvent);
      },
      async recordAttempt(attempts: NewAttempt[], outcome: AttemptOutcome, node: string) {
        for (const attempt of attempts) insertAttempt.run({ ...attempt, injected: textOrNull(attempt.injected) });
        return settle.run({ id: attempts[0]?.event_id, node, ...outcome }).changes === 1;
      },
      async claim(id, node, now, until) {
        return takeClaim.run(node, until, id, node, now).changes === 1;
      },
      async release(id, node) {
        dropClaim.run(id, node);
      },
      async shiftDue(companyId, ms, notBefore) {
        shiftDue.run(`-${ms / 1000} seconds`, notBefore, companyId);
      },
      async releaseClaims(node) {
        release.run(node);
      },
      async requeue(id, at) {
        requeue.run(at, id);
      },
    },
    idempotency: {
      async get(companyId, operation, key): Promise<StoredAnswer | undefined> {
        const row = answer.get(companyId, operation, key);
        return row && { ...(row as unknown as StoredAnswer), response: json(row.response) };
      },
      async claim({ companyId, operation, key }, requestHash, now, staleBefore) {
        return claimKey.run(companyId, operation, key, requestHash, now).changes === 1
          || takeStaleKey.run(requestHash, now, companyId, operation, key, staleBefore).changes === 1;
      },
      async answer({ companyId, operation, key }, statusCode, response) {
        answerKey.run(statusCode, JSON.stringify(response), companyId, operation, key);
      },
      async purgeBefore(cutoff) {
        return purge.run(cutoff).changes;
      },
    },
  };
}
