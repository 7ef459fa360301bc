// The dashboard's sign-ins on PostgreSQL (migration 10's dashboard_sign_ins), shared by the nodes. Each
// call is one statement on the pool (the store's faults translated): a link is taken by a DELETE …
// RETURNING, so of two nodes taking it at once the second finds the row gone and gets nothing.
import type { Access, SignInStore } from '../port.js';
import { toCompany, tokenOfJoin, type Row } from '../rows.js';
import { prepared, type Queryable } from './repos.js';

/** The company and token of the sign-in `s`, as companies.authenticate joins them (rows.ts decodes both). */
const ACCESS_OF = (signIn: string) => `
  SELECT c.*, t.id AS token_id, t.name AS token_name, t.read_only AS token_read_only
  FROM ${signIn} s JOIN api_tokens t ON t.id = s.token_id AND t.company_id = s.company_id JOIN companies c ON c.id = s.company_id
  WHERE s.expires_at > $2 AND t.revoked_at IS NULL`;

const SESSION = `${ACCESS_OF('dashboard_sign_ins')} AND s.hash = $1 AND s.kind = 'session'`;
const LINK = `WITH taken AS (DELETE FROM dashboard_sign_ins WHERE hash = $1 AND kind = 'link' RETURNING company_id, token_id, expires_at)
  ${ACCESS_OF('taken')}`;

export function createPgSignIns(db: Queryable): SignInStore {
  const run = (sql: string, params: unknown[]) => db.query(prepared(sql, params));
  return {
    async add(signIn, now) {
      await run(`WITH expired AS (DELETE FROM dashboard_sign_ins WHERE expires_at <= $6)
        INSERT INTO dashboard_sign_ins (hash, kind, company_id, token_id, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [signIn.hash, signIn.kind, signIn.company_id, signIn.token_id, signIn.expires_at, now]);
    },
    async take(hash, kind, now) {
      const row = (await run(kind === 'link' ? LINK : SESSION, [hash, now])).rows[0] as Row | undefined;
      const access: Access | undefined = row && { company: toCompany(row), token: tokenOfJoin(row) };
      return access;
    },
    async remove(hash) {
      await run('DELETE FROM dashboard_sign_ins WHERE hash = $1', [hash]);
    },
  };
}
