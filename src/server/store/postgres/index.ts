// The PostgreSQL engine of the store port, chosen by --db postgres://…:
// a pool; each transaction on a client of its own (BEGIN … COMMIT), so nodes and requests run side
// by side and the store's compare-and-sets and unique keys keep them apart; migrations under an
// advisory lock; a NOTIFY after a commit that changed when an event is due wakes every node's dispatcher.
//
// A database that goes away (a restart, a failover, a silent network) is a StoreFault, never an
// unhandled 'error' event: calls fail at once with 503 store_unavailable while a probe looks every
// half second whether it is back; every statement and connection has a time limit.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { countFault, countingTransactionFaults, createHealthTracker, createStoreCounts, StoreFault } from '../faults.js';
import { countStatements } from './counted.js';
import { DatabaseOpenError, type Reads, type Store, type Writes } from '../port.js';
import { isConnectionLoss, maskedUrl, pgFault } from './faults.js';
import { createPgKeyVault } from './key-vault.js';
import { PG_MIGRATIONS } from './migrations.js';
import { changeListeners as changeListenersOf, decodeChanged, encodeChanged, gatherChanges, watchChanges, type Changed } from '../changes.js';
import { watchEvents } from '../watch-events.js';
import { createPgJournal, type RawTransaction } from './journal.js';
import { pipelined } from './pipeline.js';
import { createPgRepos, type Queryable } from './repos.js';
import { createPgSignIns } from './sign-ins.js';

const CHANNEL = 'pinvoice_events';
/** what each commit changed (store/changes.ts), for every node's caches; and each node's pings of its own listening */
const CHANGES = 'pinvoice_changes';
/** how often a node checks that its listening connection still hears (a NOTIFY of its own, heard back) */
const PING_EVERY_MS = 1000;
/** a ping not heard back within this: the connection is taken for lost (nothing kept until it listens again) */
const PING_LOST_MS = 2000;
/** any fixed number: the key of the advisory lock migrations take */
const MIGRATION_LOCK = 0x70696e76;

const commitUnknown = (where: string) =>
  new StoreFault('store_unavailable', `The connection to the database ${where} was lost while committing: the change may or may not have been saved. Retry with the same Idempotency-Key: it never makes a change twice.`, 1);

export interface PostgresStore extends Store {
  readonly engine: 'postgres';
  readonly pool: pg.Pool;
}

// int8 (ids, amounts) as numbers: every value pinvoice stores is far below 2^53.
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text'),
};

/** How long a node waits for PostgreSQL while it runs: a connection, then any one statement. */
const RUNTIME_CONNECT_MS = 3000;
const QUERY_TIMEOUT_MS = 4000;
/** While the database is away: how often a node looks whether it is back. */
const PROBE_EVERY_MS = 500;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export interface PgOptions {
  /** at start: how long to wait for the database to answer (`--db-timeout`) */
  connectTimeoutMs?: number;
}

/** A statement with a time limit of its own (node-postgres reads query_timeout from it; its types do not list it). */
const timed = (text: string, ms: number, values?: unknown[]) => ({ text, values, query_timeout: ms }) as pg.QueryConfig;

/** The database did not answer within the start's timeout: named, with the flag that sets it. */
const silent = (url: string, ms: number) =>
  new DatabaseOpenError(`cannot open database ${maskedUrl(url)}: it did not answer within ${ms / 1000} s (--db-timeout)`);

/** Brings the schema up to date on a connection of its own, under the advisory lock, every statement but the lock's wait bounded by `ms`. */
async function migrate(url: string, ms: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, types, connectionTimeoutMillis: ms, keepAlive: true });
  client.on('error', () => undefined); // a connection lost here fails the statement under way, which says so
  const started = performance.now();
  try {
    await client.connect();
  } catch (error) {
    // node-postgres ends a connection that did not answer in time with a message of its own
    if (performance.now() - started >= ms - 5) throw silent(url, ms);
    throw error;
  }
  const query = (text: string, values?: unknown[]) => client.query(timed(text, ms, values));
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]); // another node migrating: wait for it
    await query('CREATE TABLE IF NOT EXISTS pinvoice_schema (version INTEGER NOT NULL)');
    const current = Number((await query('SELECT version FROM pinvoice_schema')).rows[0]?.version ?? 0);
    if (current > PG_MIGRATIONS.length) {
      throw new DatabaseOpenError(`the database was written by a newer pinvoice (schema ${current}, this one knows ${PG_MIGRATIONS.length})`);
    }
    if (current < PG_MIGRATIONS.length) {
      await query('BEGIN');
      for (let version = current; version < PG_MIGRATIONS.length; version++) await client.query(PG_MIGRATIONS[version] ?? '');
      await query('DELETE FROM pinvoice_schema');
      await query('INSERT INTO pinvoice_schema (version) VALUES ($1)', [PG_MIGRATIONS.length]);
      await query('COMMIT');
    }
  } catch (error) {
    await query('ROLLBACK').catch(() => undefined);
    if ((error as Error).message === 'Query read timeout') throw silent(url, ms);
    throw error;
  } finally {
    await query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

export async function openPostgresStore(url: string, options: PgOptions = {}): Promise<PostgresStore> {
  const where = maskedUrl(url);
  try {
    await migrate(url, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof DatabaseOpenError) throw error;
    throw new DatabaseOpenError(`cannot open database ${where}: ${(error as Error).message}`);
  }
  const pool = new pg.Pool({ connectionString: url, types, max: 10, connectionTimeoutMillis: RUNTIME_CONNECT_MS, query_timeout: QUERY_TIMEOUT_MS, keepAlive: true,
    // a transaction's statements go out without waiting for the answers before them (postgres/pipeline.ts)
    pipeline: true });
  const health = createHealthTracker();
  let closed = false;
  /** set while the database is away: every call fails at once with it, until a probe gets an answer */
  let away: StoreFault | undefined;
  let probeTimer: NodeJS.Timeout | undefined;

  function probe(delay: number): void {
    if (closed || probeTimer) return;
    probeTimer = setTimeout(() => {
      pool.query(timed('SELECT 1', RUNTIME_CONNECT_MS)).then(
        () => {
          probeTimer = undefined;
          away = undefined;
          health.recovered();
          relisten(0);
        },
        () => {
          probeTimer = undefined;
          probe(PROBE_EVERY_MS);
        },
      );
    }, delay);
    probeTimer.unref();
  }
  /** What an error means for the store (its health, a probe for a lost database) and the error the caller gets. */
  const fail = (error: unknown): unknown => {
    const fault = pgFault(error, where);
    if (!fault) return error;
    if (isConnectionLoss(error)) {
      away ??= fault;
      probe(0);
    }
    health.fault(fault);
    return fault;
  };
  /** The journal's faults: a lost database is the store's (away, probed), anything else its own (told by the journal). */
  const failJournal = (error: unknown): unknown => (isConnectionLoss(error) ? fail(error) : (pgFault(error, where) ?? error));
  const gate = () => {
    if (away) throw away;
  };
  // Every client the pool makes gets a listener: a connection lost while checked out must not end the
  // process (an 'error' event nobody listens to does); the pool's own covers idle ones.
  pool.on('connect', (client) => client.on('error', fail));
  pool.on('error', fail);
  const counts = createStoreCounts();
  pool.on('connect', (client) => countStatements(client, counts));
  const guarded: Queryable = {
    query: ((config: pg.QueryConfig) => {
      if (away) return Promise.reject(countFault(counts, away));
      return pool.query(config).then(undefined, (error: unknown) => Promise.reject(countFault(counts, fail(error))));
    }) as Queryable['query'],
  };
  const reads: Reads = createPgRepos(guarded);
  /**
   * A transaction of raw statements (the journal's batches): no events, no charges, faults translated. A full
   * disk here leaves the store's health alone: the journal's rows are larger than a charge's, so they may meet it
   * while charges are still saved, and the two would tell "full" and "saved again" by turns.
   */
  const rawTransaction: RawTransaction = async (fn) => {
    gate();
    const client = await pool.connect().catch((error: unknown) => Promise.reject(failJournal(error)));
    let broken = false;
    const pipeline = pipelined(client, () => counts.writes++);
    try {
      pipeline.send('BEGIN');
      const result = await fn(pipeline);
      await pipeline.query('COMMIT');
      // (a statement sent without waiting that failed made that COMMIT a rollback: its error is the transaction's)
      await pipeline.settled();
      return result;
    } catch (error) {
      const said = failJournal(error);
      broken = isConnectionLoss(error);
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      throw said;
    } finally {
      client.release(broken || undefined);
    }
  };
  const listeners = new Set<() => void>();
  const changeListeners = new Set<() => void>();
  const changes = changeListenersOf();
  const wake = () => listeners.forEach((fn) => fn());
  let listener: pg.PoolClient | undefined;
  let listening: Promise<void> | undefined;
  let relistenTimer: NodeJS.Timeout | undefined;
  /** whether the listening connection hears now: what other nodes commit reaches this one */
  let hearing = false;
  const wanted = () => listeners.size > 0 || changes.size > 0;

  // This node's pings: a NOTIFY it sends every second and must hear back within two. It bounds how
  // long a change another node committed can go unheard: a connection that no longer hears is taken
  // for lost, and nothing is kept until it listens again (docs/team.md, "What each node keeps").
  const pingOf = `ping ${randomBytes(6).toString('hex')} `;
  let pingTimer: NodeJS.Timeout | undefined;
  let pingSent = 0;
  let pingAt = 0;
  let pingHeard = 0;
  function pinging(): void {
    if (pingTimer || closed) return;
    pingTimer = setInterval(() => {
      const client = listener;
      if (!client || !hearing || away) return;
      if (pingHeard < pingSent) {
        if (performance.now() - pingAt > PING_LOST_MS) client.emit('error', new Error('the listening connection did not hear its own ping'));
        return;
      }
      pingAt = performance.now();
      guarded.query({ text: `SELECT pg_notify('${CHANGES}', $1)`, values: [`${pingOf}${++pingSent}`] } as pg.QueryConfig).catch(() => undefined);
    }, PING_EVERY_MS);
    pingTimer.unref();
  }
  const heard = (message: pg.Notification) => {
    if (message.channel === CHANNEL) return wake();
    if (message.channel !== CHANGES) return;
    const payload = message.payload ?? '';
    if (payload.startsWith('ping ')) {
      if (payload.startsWith(pingOf)) pingHeard = Math.max(pingHeard, Number(payload.slice(pingOf.length)));
      return;
    }
    changes.tell(decodeChanged(payload));
  };

  // One connection LISTENs for the whole process. When it is lost, it is taken again (every second
  // until the database answers); meanwhile nothing is kept (every cache dropped), and the dispatchers
  // look at the queue once, for whatever was announced in between.
  function listen(): Promise<void> {
    listening ??= (async () => {
      gate();
      const client = await pool.connect();
      if (closed) {
        // the store was closed while this connection was on its way (a start that could not listen):
        // given back, or the pool's end would wait for it, and the process with it, for ever
        client.release();
        return;
      }
      const lost = () => {
        if (listener !== client) return;
        listener = undefined;
        listening = undefined;
        // nothing kept is used from now on, and all of it is dropped when it listens again
        hearing = false;
        client.release(true);
        relisten(1000);
      };
      client.on('notification', heard);
      client.on('error', lost);
      client.on('end', lost);
      listener = client;
      await client.query(`LISTEN ${CHANNEL}; LISTEN ${CHANGES}`);
      // what was committed before it listened went unheard: nothing kept from before is used
      pingHeard = pingSent;
      changes.tell('all');
      hearing = listener === client;
      pinging();
    })().catch((error: unknown) => {
      listening = undefined;
      throw error;
    });
    return listening;
  }
  function relisten(delay: number): void {
    if (closed || !wanted() || relistenTimer) return;
    relistenTimer = setTimeout(() => {
      relistenTimer = undefined;
      void listen().then(wake, () => relisten(1000));
    }, delay);
    relistenTimer.unref();
  }

  // (a transaction's faults are counted around it: gate, connection and statements alike)
  return countingTransactionFaults<PostgresStore>({
    engine: 'postgres',
    location: url,
    hearsOtherProcesses: true,
    pool,
    keyVault: createPgKeyVault(guarded),
    ...reads,
    journal: createPgJournal(guarded, rawTransaction),
    signIns: createPgSignIns(guarded),
    async transaction<T>(fn: (tx: Writes) => Promise<T>): Promise<T> {
      gate();
      const client = await pool.connect().catch((error: unknown) => Promise.reject(fail(error)));
      let recorded = false;
      let changed = false;
      let committing = false;
      let broken = false;
      const last: string[] = [];
      const gathered = gatherChanges();
      const pipeline = pipelined(client, () => counts.writes++);
      const tx = watchChanges(watchEvents(createPgRepos(pipeline, { beforeCommit: last, send: pipeline.send }), () => (recorded = true), () => (changed = true)), gathered);
      let what: Changed | undefined;
      try {
        pipeline.send('BEGIN');
        const result = await fn(tx);
        // the statements kept for the end, the NOTIFY and the COMMIT: one round trip (simple protocol)
        if (recorded) last.push(`NOTIFY ${CHANNEL}`);
        what = gathered.take();
        // (a payload of tags and commas, or *: nothing to quote)
        if (what) last.push(`NOTIFY ${CHANGES}, '${encodeChanged(what)}'`);
        last.push('COMMIT');
        committing = true;
        await pipeline.query(last.join('; '));
        // a write sent without waiting that failed made that COMMIT a rollback: its error is the transaction's
        await pipeline.settled();
        if (what) changes.tell(what);
        if (!away) health.committed();
        if (changed) changeListeners.forEach((listener) => listener());
        return result;
      } catch (error) {
        const said = fail(error);
        broken = isConnectionLoss(error);
        if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
        // the connection died with the COMMIT on its way: whether it was applied cannot be known
        if (broken && committing) {
          if (what) changes.tell(what);
          throw commitUnknown(where);
        }
        throw said;
      } finally {
        client.release(broken || undefined);
      }
    },
    health: () => health.get(),
    onHealthChange: (listener) => health.onChange(listener),
    changes: {
      onChanged(listener) {
        const stop = changes.add(listener);
        void listen().catch(() => relisten(1000));
        return stop;
      },
      heard: () => hearing && !away,
    },
    counts,
    onChargesChanged(fn) {
      changeListeners.add(fn);
      return () => void changeListeners.delete(fn);
    },
    onEventsRecorded(fn) {
      listeners.add(fn);
      // no LISTEN connection now: tried again every second, meanwhile the dispatcher's own timer runs
      void listen().catch(() => relisten(1000));
      return () => void listeners.delete(fn);
    },
    async close() {
      closed = true;
      clearTimeout(probeTimer);
      clearTimeout(relistenTimer);
      clearInterval(pingTimer);
      const client = listener;
      listener = undefined;
      hearing = false;
      client?.release();
      await pool.end();
    },
  });
}
