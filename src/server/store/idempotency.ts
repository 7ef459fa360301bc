// Stored answers to POST requests that carried an Idempotency-Key.
import type { Db } from './database.js';

export interface IdempotencyRow {
  request_hash: string;
  status_code: number;
  response: string;
  created_at: string;
}

export function createIdempotencyRepo(db: Db) {
  const get = db.prepare<[number, string, string], IdempotencyRow>(
    'SELECT request_hash, status_code, response, created_at FROM idempotency_keys WHERE company_id = ? AND operation = ? AND key = ?',
  );
  const put = db.prepare(`
    INSERT INTO idempotency_keys (company_id, operation, key, request_hash, status_code, response, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (company_id, operation, key) DO UPDATE SET request_hash = excluded.request_hash,
      status_code = excluded.status_code, response = excluded.response, created_at = excluded.created_at`);
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');

  return {
    get: (companyId: number, operation: string, key: string) => get.get(companyId, operation, key),
    put(companyId: number, operation: string, key: string, hash: string, status: number, response: string, now: string): void {
      put.run(companyId, operation, key, hash, status, response, now);
    },
    purgeBefore: (cutoff: string): number => purge.run(cutoff).changes,
  };
}

export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;
