// The dashboard's sign-ins on SQLite (migration 12's dashboard_sign_ins). Adding, removing and taking a
// link are writes: they go through the store's writer queue, each in the writer's BEGIN IMMEDIATE, so a
// link read and deleted there is taken once, across processes on the file too. Taking a session only
// reads: on the reader connection (in memory, in its turn in the queue), so it works while writes are refused.
import type { Access, SignInKind, SignInStore, Writes } from '../port.js';
import { toCompany, tokenOfJoin, type Row } from '../rows.js';
import type { Db } from './database.js';

type Enqueue = <T>(run: (tx: Writes) => Promise<T>, write?: boolean) => Promise<T>;

/** The sign-in's company and token, as companies.authenticate joins them (rows.ts decodes both). */
const ACCESS = `
  SELECT c.*, t.id AS token_id, t.name AS token_name, t.read_only AS token_read_only
  FROM dashboard_sign_ins s JOIN api_tokens t ON t.id = s.token_id AND t.company_id = s.company_id JOIN companies c ON c.id = s.company_id
  WHERE s.hash = ? AND s.kind = ? AND s.expires_at > ? AND t.revoked_at IS NULL`;

/**
 * `db` is the writer connection, `reader` the file's read-only one (undefined in memory: the writer
 * reads, in its turn); `fail` makes an engine error the StoreFault it means, as for the other reads.
 */
export function createSignIns(db: Db, reader: Db | undefined, enqueue: Enqueue, fail: (error: unknown) => unknown): SignInStore {
  const purge = db.prepare<[number]>('DELETE FROM dashboard_sign_ins WHERE expires_at <= ?');
  const insert = db.prepare<[string, string, number, number, number]>(
    'INSERT INTO dashboard_sign_ins (hash, kind, company_id, token_id, expires_at) VALUES (?, ?, ?, ?, ?)',
  );
  const remove = db.prepare<[string]>('DELETE FROM dashboard_sign_ins WHERE hash = ?');
  const removeLink = db.prepare<[string]>("DELETE FROM dashboard_sign_ins WHERE hash = ? AND kind = 'link'");
  const linkAccess = db.prepare<[string, SignInKind, number], Row>(ACCESS);
  const sessionAccess = (reader ?? db).prepare<[string, SignInKind, number], Row>(ACCESS);
  const toAccess = (row: Row | undefined): Access | undefined => row && { company: toCompany(row), token: tokenOfJoin(row) };

  return {
    add: (signIn, now) =>
      enqueue(async () => {
        purge.run(now);
        insert.run(signIn.hash, signIn.kind, signIn.company_id, signIn.token_id, signIn.expires_at);
      }),
    take(hash, kind, now) {
      // read and removed in one write transaction: a second take, here or in another process, finds it gone
      if (kind === 'link') {
        return enqueue(async () => {
          const row = linkAccess.get(hash, kind, now);
          removeLink.run(hash); // expired or not
          return toAccess(row);
        });
      }
      const read = async () => toAccess(sessionAccess.get(hash, kind, now));
      return (reader ? read() : enqueue(read, false)).catch((error: unknown) => Promise.reject(fail(error)));
    },
    remove: (hash) =>
      enqueue(async () => {
        remove.run(hash);
      }),
  };
}
