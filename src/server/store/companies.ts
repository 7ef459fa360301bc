// Companies and their access tokens. Tokens are stored as SHA-256 hashes and compared in constant time.
import { maskToken } from '../../domain/secrets.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db } from './database.js';
import type { FeeSchedule } from '../../domain/fees.js';
import type { Method } from '../../domain/status.js';

export type FeeSchedules = Record<Method, FeeSchedule>;

export const BLOCK_FLAGS = ['bank_slip', 'card', 'pix', 'processing', 'sake', 'system'] as const;

export interface CompanyProfile {
  cnpj: string;
  company_type: string;
  corporate_reason: string;
  fantasy_name: string;
  url_website: string;
  address: string;
  address_city: string;
  address_number: string;
  address_postal_code: string;
  address_province: string;
  address_state: string;
  bank_account: string;
  bank_agency: string;
  bank_digit: string;
  bank_name: string;
  bank_type: string;
}

export interface CompanyRow extends CompanyProfile {
  id: number;
  fees: string;
  blocked: string;
  is_custom: number;
  webhook_secret: string;
  created_at: string;
  updated_at: string;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Shows enough of a token to recognise it, never enough to use it. */
/** What `company list` may show of a token: the one masking rule. */
export const tokenHint = maskToken;

export function createCompanyRepo(db: Db) {
  const insertCompany = db.prepare(`
    INSERT INTO companies (cnpj, company_type, corporate_reason, fantasy_name, url_website, address, address_city,
      address_number, address_postal_code, address_province, address_state, bank_account, bank_agency, bank_digit,
      bank_name, bank_type, fees, webhook_secret, created_at, updated_at)
    VALUES (@cnpj, @company_type, @corporate_reason, @fantasy_name, @url_website, @address, @address_city,
      @address_number, @address_postal_code, @address_province, @address_state, @bank_account, @bank_agency,
      @bank_digit, @bank_name, @bank_type, @fees, @webhook_secret, @now, @now)`);
  const insertToken = db.prepare('INSERT INTO api_tokens (company_id, token_hash, hint, created_at) VALUES (?, ?, ?, ?)');
  const byHash = db.prepare<[string], { company_id: number; token_hash: string }>(
    'SELECT company_id, token_hash FROM api_tokens WHERE token_hash = ?',
  );
  const byId = db.prepare<[number], CompanyRow>('SELECT * FROM companies WHERE id = ?');
  const all = db.prepare<[], CompanyRow & { tokens: number }>(
    'SELECT c.*, (SELECT COUNT(*) FROM api_tokens t WHERE t.company_id = c.id) AS tokens FROM companies c ORDER BY c.id',
  );

  const balances = db.prepare<[number], { balance: string; total: number }>(
    'SELECT balance, SUM(amount) AS total FROM financial_movements WHERE company_id = ? GROUP BY balance',
  );
  const paidTotals = db.prepare<[string, number], { total: number; month: number }>(`
    SELECT COALESCE(SUM(amount), 0) AS total, COALESCE(SUM(CASE WHEN paid_at >= ? THEN amount END), 0) AS month
    FROM invoices WHERE company_id = ? AND paid_at IS NOT NULL`);

  return {
    /** Balances are the sums of the company's financial movements, never a counter kept beside them. */
    balances(companyId: number): Record<string, number> {
      return Object.fromEntries(balances.all(companyId).map((row) => [row.balance, row.total]));
    },
    /** Gross amount of all paid charges, and of those paid since `monthStart`. */
    paidTotals(companyId: number, monthStart: string): { total: number; month: number } {
      return paidTotals.get(monthStart, companyId) ?? { total: 0, month: 0 };
    },
    create(profile: CompanyProfile, fees: FeeSchedules, webhookSecret: string, now: string): number {
      const result = insertCompany.run({ ...profile, fees: JSON.stringify(fees), webhook_secret: webhookSecret, now });
      return Number(result.lastInsertRowid);
    },
    addToken(companyId: number, token: string, now: string): void {
      insertToken.run(companyId, hashToken(token), tokenHint(token), now);
    },
    hasToken(token: string): boolean {
      return byHash.get(hashToken(token)) !== undefined;
    },
    /** The company a token belongs to, or undefined. */
    authenticate(token: string): CompanyRow | undefined {
      const hash = hashToken(token);
      const row = byHash.get(hash);
      if (!row || !timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
      return byId.get(row.company_id);
    },
    get(id: number): CompanyRow | undefined {
      return byId.get(id);
    },
    list() {
      return all.all();
    },
  };
}

export type CompanyRepo = ReturnType<typeof createCompanyRepo>;
