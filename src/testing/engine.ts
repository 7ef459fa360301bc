// Where a sandbox's data lives, by its `engine` option, and what close() removes: a SQLite file in a
// new temporary folder (the default), SQLite's :memory:, or a PostgreSQL database given by its URL.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setOwnerOnly } from '../base/private-file.js';
import { connectStore } from '../server/store/index.js';
import type { Engine } from './types.js';

export interface Place {
  /** what the server's --db takes */
  db: string;
  /** removes what this place made (the temporary folder); nothing for the others */
  remove(): Promise<void>;
}

const POSTGRES = /^postgres(ql)?:\/\//i;

function engineError(engine: unknown): TypeError {
  return new TypeError(`startSandbox: engine must be 'sqlite', 'memory' or a postgres:// URL, not ${JSON.stringify(engine)}`);
}

/** The place for an engine; a PostgreSQL database is cleared of charges first (left over from a run before). */
export async function openPlace(engine: Engine | undefined): Promise<Place> {
  if (engine === undefined || engine === 'sqlite') {
    // owner-only (mkdtemp's 0700, which a umask may narrow, made exact): the database holds the company's token hash and secret
    const folder = await mkdtemp(join(tmpdir(), 'pinvoice-sandbox-'));
    setOwnerOnly(folder);
    return { db: join(folder, 'sandbox.db'), remove: () => rm(folder, { recursive: true, force: true }) };
  }
  if (engine === 'memory') return { db: ':memory:', remove: async () => undefined };
  if (typeof engine !== 'string' || !POSTGRES.test(engine)) throw engineError(engine);
  await clearCharges(engine);
  return { db: engine, remove: async () => undefined };
}

/** Empties a database of charges, with no server on it (nothing is being delivered meanwhile). */
export async function clearCharges(db: string): Promise<void> {
  const store = await connectStore(db);
  try {
    await store.transaction((tx) => tx.clearCharges());
  } finally {
    await store.close();
  }
}
