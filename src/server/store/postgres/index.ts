// The PostgreSQL engine of the store port, chosen by --db postgres://…:
// a pool; each transaction on a client of its own (BEGIN … COMMIT), so nodes and requests run side
// by side and the store's compare-and-sets and unique keys keep them apart; migrations under an
// advisory lock; a NOTIFY after a commit that changed when an event is due wakes every node's dispatcher.
import pg from 'pg';
import { DatabaseOpenError, type Reads, type Store, type Writes } from '../port.js';
import { createPgKeyVault } from './key-vault.js';
import { PG_MIGRATIONS } from './migrations.js';
import { watchEvents } from '../watch-events.js';
import { createPgRepos } from './repos.js';

const CHANNEL = 'pinvoice_events';
/** any fixed number: the key of the advisory lock migrations take */
const MIGRATION_LOCK = 0x70696e76;

export interface PostgresStore extends Store {
  readonly engine: 'postgres';
  readonly pool: pg.Pool;
}

// int8 (ids, amounts) as numbers: every value pinvoice stores is far below 2^53.
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text'),
};

async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS pinvoice_schema (version INTEGER NOT NULL)');
    const current = Number((await client.query('SELECT version FROM pinvoice_schema')).rows[0]?.version ?? 0);
    if (current > PG_MIGRATIONS.length) {
      throw new DatabaseOpenError(`the database was written by a newer pinvoice (schema ${current}, this one knows ${PG_MIGRATIONS.length})`);
    }
    if (current < PG_MIGRATIONS.length) {
      await client.query('BEGIN');
      for (let version = current; version < PG_MIGRATIONS.length; version++) await client.query(PG_MIGRATIONS[version] ?? '');
      await client.query('DELETE FROM pinvoice_schema');
      await client.query('INSERT INTO pinvoice_schema (version) VALUES ($1)', [PG_MIGRATIONS.length]);
      await client.query('COMMIT');
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}

export async function openPostgresStore(url: string): Promise<PostgresStore> {
  const pool = new pg.Pool({ connectionString: url, types, max: 10 });
  pool.on('error', () => undefined); // an idle client that dies is replaced; the next query says what is wrong
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof DatabaseOpenError) throw error;
    throw new DatabaseOpenError(`cannot open database ${url.replace(/\/\/[^@/]*@/, '//…@')}: ${(error as Error).message}`);
  }
  const reads: Reads = createPgRepos(pool);
  const listeners = new Set<() => void>();
  const changeListeners = new Set<() => void>();
  const wake = () => listeners.forEach((fn) => fn());
  let listener: pg.PoolClient | undefined;
  let listening: Promise<void> | undefined;
  let closed = false;

  // One connection LISTENs for the whole process. When it is lost, it is taken again after a second,
  // and the dispatchers look at the queue once, for whatever was announced in between.
  function listen(): Promise<void> {
    listening ??= (async () => {
      const client = await pool.connect();
      const lost = () => {
        if (listener !== client) return;
        listener = undefined;
        listening = undefined;
        client.release(true);
        if (closed) return;
        setTimeout(() => {
          if (closed || listeners.size === 0) return;
          void listen().then(wake, () => undefined);
        }, 1000).unref();
      };
      client.on('notification', wake);
      client.on('error', lost);
      client.on('end', lost);
      listener = client;
      await client.query(`LISTEN ${CHANNEL}`);
    })().catch((error: unknown) => {
      listening = undefined;
      throw error;
    });
    return listening;
  }

  return {
    engine: 'postgres',
    location: url,
    hearsOtherProcesses: true,
    pool,
    keyVault: createPgKeyVault(pool),
    ...reads,
    async transaction<T>(fn: (tx: Writes) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let recorded = false;
      let changed = false;
      const last: string[] = [];
      const tx = watchEvents(createPgRepos(client, last), () => (recorded = true), () => (changed = true));
      try {
        await client.query('BEGIN');
        const result = await fn(tx);
        // the statements kept for the end, the NOTIFY and the COMMIT: one round trip (simple protocol)
        if (recorded) last.push(`NOTIFY ${CHANNEL}`);
        last.push('COMMIT');
        await client.query(last.join('; '));
        if (changed) changeListeners.forEach((listener) => listener());
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    onChargesChanged(fn) {
      changeListeners.add(fn);
      return () => void changeListeners.delete(fn);
    },
    onEventsRecorded(fn) {
      listeners.add(fn);
      void listen().catch(() => {
        // no LISTEN connection now: try again in a second, meanwhile the dispatcher's own timer runs
        setTimeout(() => void (!closed && listeners.has(fn) && listen().then(wake, () => undefined)), 1000).unref();
      });
      return () => void listeners.delete(fn);
    },
    async close() {
      closed = true;
      const client = listener;
      listener = undefined;
      client?.release();
      await pool.end();
    },
  };
}
