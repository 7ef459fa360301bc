// The pix location's keys in PostgreSQL (migration 7's pix_keys): a pair is inserted unless its name
// is taken, then read back, so nodes starting together agree on the first one written.
import type { KeyVault, StoredKeyPair } from '../port.js';
import type { Queryable } from './repos.js';

type Row = { cert: string; private_key: string };
const pairOf = (row: Row | undefined): StoredKeyPair | undefined => row && { cert: row.cert, key: row.private_key };

export function createPgKeyVault(db: Queryable): KeyVault {
  const query = (text: string, values: unknown[]) => db.query({ text, values });
  const read = async (name: string) => pairOf((await query('SELECT cert, private_key FROM pix_keys WHERE name = $1', [name])).rows[0] as Row | undefined);
  return {
    read,
    async createOnce(name, pair) {
      await query('INSERT INTO pix_keys (name, cert, private_key) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [name, pair.cert, pair.key]);
      return (await read(name)) as StoredKeyPair;
    },
    async replace(name, oldCert, fresh) {
      await query('UPDATE pix_keys SET cert = $2, private_key = $3, updated_at = now() WHERE name = $1 AND cert = $4', [name, fresh.cert, fresh.key, oldCert]);
      return (await read(name)) as StoredKeyPair;
    },
  };
}
