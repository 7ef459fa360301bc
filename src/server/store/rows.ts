// What both engines share below the port: their tables have the same columns, so a row of either is
// decoded into the port's records here, once (JSON text parsed, a stored flag made a boolean), and a
// charge is encoded for its insert here. Each engine keeps only its own SQL.
import { createHash } from 'node:crypto';
import type { ApiToken, BalanceName, Company, CompanyTotals, DeliveryAttempt, Invoice, NewInvoice, PostbackEvent } from './port.js';
import { decodeSnapshot } from './snapshot-codec.js';

export type Row = Record<string, unknown>;

export const json = <T>(text: unknown): T => JSON.parse(text as string) as T;
export const jsonOrNull = <T>(text: unknown): T | null => (text === null || text === undefined ? null : json<T>(text));
export const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
/** A stored flag: 1 in SQLite, true in PostgreSQL. */
const flag = (value: unknown): boolean => value === 1 || value === true;

/** Tokens are kept as their SHA-256, never in clear. */
export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A stored `balance` names one of three columns; nothing else reaches SQL. */
export const BALANCE_COLUMNS: readonly BalanceName[] = ['balance_pix', 'balance_card', 'balance_bank_slip'];

export const NO_TOTALS: CompanyTotals = { balance_pix: 0, balance_card: 0, balance_bank_slip: 0, paid_total: 0, paid_month: 0 };

// The head of each charge's queue: no earlier event of the same charge is still waiting, so the
// events of one charge go out in order (also across processes: a claimed event is still pending).
export const QUEUE_HEAD = `e.state = 'pending'
  AND NOT EXISTS (SELECT 1 FROM events p WHERE p.invoice_id = e.invoice_id AND p.id < e.id AND p.state = 'pending')`;

/**
 * Times are kept as ISO 8601 UTC text of one form, `YYYY-MM-DDTHH:MM:SS.sssZ` (toISOString within
 * four-digit years, where the sandbox clock's bound keeps them). In that form text order is time
 * order on both engines, whatever the collation, so the indexes on times serve time comparisons. A
 * comparison that decides work admits only that form: `+010000-…` (year 10000, an older build's) sorts
 * before `2026-…` and would be taken for the earlier time.
 */
export const isTimeText = (column: string): string => `${column} LIKE '____-__-__T__:__:__.___Z'`;

/** The start of a sweep of due charges: before every time of the form. */
export const DUE_START = { expires_at: '0000-01-01T00:00:00.000Z', id: 0 };

export const TOKEN_COLUMNS = 'id, company_id, name, read_only, hint, created_at, revoked_at';

/**
 * Field by field, in the table's order (the enterprise object shows the profile in it), leaving out
 * the columns a join adds (the token's, a count).
 */
export function toCompany(row: Row): Company {
  const r = row as unknown as Record<keyof Company, never>;
  return {
    id: r.id, cnpj: r.cnpj, company_type: r.company_type, corporate_reason: r.corporate_reason, fantasy_name: r.fantasy_name,
    url_website: r.url_website, address: r.address, address_city: r.address_city, address_number: r.address_number,
    address_postal_code: r.address_postal_code, address_province: r.address_province, address_state: r.address_state,
    bank_account: r.bank_account, bank_agency: r.bank_agency, bank_digit: r.bank_digit, bank_name: r.bank_name,
    bank_type: r.bank_type, fees: json(row.fees), blocked: json(row.blocked), is_custom: flag(row.is_custom),
    webhook_secret: r.webhook_secret, created_at: r.created_at, updated_at: r.updated_at,
    clock_offset_ms: Number(row.clock_offset_ms ?? 0), chaos: jsonOrNull(row.chaos),
    // the id only: the signing copy of the token (signing_token) never leaves the store with the record
    signing_token_id: row.signing_token_id === null || row.signing_token_id === undefined ? null : Number(row.signing_token_id),
  };
}

export const INVOICE_COLUMNS = [
  'id', 'company_id', 'secure_id', 'token_checkout', 'customer_id', 'method', 'status', 'amount', 'installments',
  'refunded_amount', 'refused_reason', 'postback_url', 'ip', 'payer', 'items', 'fee', 'pix_code', 'pix_txid', 'boleto',
  'card', 'expires_at', 'created_at', 'updated_at', 'paid_at', 'external_ref', 'metadata', 'production_record',
] as const;

/** Field by field (not a spread of the row): one shape for every charge, and extra columns of a join left out. */
export function toInvoice(row: Row): Invoice {
  const r = row as unknown as Record<keyof Invoice, never>;
  return {
    id: r.id, company_id: r.company_id, secure_id: r.secure_id, token_checkout: r.token_checkout, customer_id: r.customer_id,
    method: r.method, status: r.status, amount: r.amount, installments: r.installments, refunded_amount: r.refunded_amount,
    refused_reason: r.refused_reason, postback_url: r.postback_url, ip: r.ip,
    payer: json(row.payer), items: json(row.items), fee: json(row.fee),
    pix_code: r.pix_code, pix_txid: r.pix_txid, boleto: jsonOrNull(row.boleto), card: jsonOrNull(row.card),
    expires_at: r.expires_at, created_at: r.created_at, updated_at: r.updated_at, paid_at: r.paid_at,
    external_ref: r.external_ref, metadata: jsonOrNull(row.metadata), production_record: (row.production_record as string | null | undefined) ?? null,
  };
}

/** The values of INVOICE_COLUMNS, in order, for a positional insert. */
export function invoiceValues(invoice: NewInvoice): unknown[] {
  const row: Row = {
    ...invoice,
    payer: JSON.stringify(invoice.payer),
    items: JSON.stringify(invoice.items),
    fee: JSON.stringify(invoice.fee),
    boleto: textOrNull(invoice.boleto),
    card: textOrNull(invoice.card),
    metadata: textOrNull(invoice.metadata),
    production_record: invoice.production_record ?? null,
  };
  return INVOICE_COLUMNS.map((column) => row[column]);
}

export function toToken(row: Row): ApiToken {
  const r = row as unknown as Record<keyof ApiToken, never>;
  return { id: r.id, company_id: r.company_id, name: r.name, read_only: flag(row.read_only), hint: r.hint, created_at: r.created_at, revoked_at: r.revoked_at };
}

/** The token columns a join of api_tokens with companies adds (see authenticate in each engine). */
export const tokenOfJoin = (row: Row): { id: number; name: string; read_only: boolean } => ({
  id: row.token_id as number, name: row.token_name as string, read_only: flag(row.token_read_only),
});

export function toAttempt(row: Row): DeliveryAttempt {
  const r = row as unknown as Record<keyof DeliveryAttempt, never>;
  return {
    id: r.id, event_id: r.event_id, url: r.url, started_at: r.started_at, duration_ms: r.duration_ms, status_code: r.status_code,
    error: r.error, response_excerpt: r.response_excerpt, injected: jsonOrNull(row.injected),
  };
}

export function toEvent(row: Row): PostbackEvent {
  const r = row as unknown as Record<keyof PostbackEvent, never>;
  return {
    id: r.id, public_id: r.public_id, company_id: r.company_id, invoice_id: r.invoice_id, type: r.type, url: r.url,
    body: row.body === '' ? null : json(row.body),
    snapshot: typeof row.snapshot === 'string' ? decodeSnapshot(row.snapshot, row.created_at as string) : null,
    created_at: r.created_at, state: r.state, tries: r.tries, next_attempt_at: r.next_attempt_at, delivered_at: r.delivered_at,
  };
}
