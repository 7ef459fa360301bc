// Starts and stops the built `pinvoice serve` (bin/pinvoice.js, so `npm run build` first) as a child
// process, on a SQLite file or a PostgreSQL database, and cleans up after a benchmark: every process
// started, temp dir made and PostgreSQL cluster started here is ended and removed when the benchmark
// ends, fails, or is interrupted. PostgreSQL for the benchmarks (benchPostgres): a throwaway cluster
// (tools/postgres-cluster.ts, as the tests start one), or the server of PINVOICE_BENCH_PG_URL, in
// which new databases are created and, at the end, dropped.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgres } from '../tools/postgres-cluster.js';

export const BIN = new URL('../bin/pinvoice.js', import.meta.url).pathname;
export const TOKEN = 'pinv_test_bench_token_0123456789';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 120_000;

const cleanups: (() => void)[] = [];

/** Something to undo at the end (last registered, first run). */
export function atExit(undo: () => void): void {
  cleanups.push(undo);
}

function cleanUp(): void {
  for (const undo of cleanups.splice(0).reverse()) {
    try {
      undo();
    } catch {
      // keep undoing the rest
    }
  }
}

/** Runs a benchmark: a failure is printed and exits 1; processes and temp dirs go in any case, Ctrl-C included. */
export async function main(run: () => Promise<void>): Promise<void> {
  const interrupted = (signal: NodeJS.Signals) => {
    cleanUp();
    process.stderr.write(`\n${signal}: stopped, processes ended and temp dirs removed\n`);
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await run();
  } catch (error) {
    process.stderr.write(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    cleanUp();
  }
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinvoice-bench-'));
  atExit(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Ends a child at exit if it still runs. */
export function killAtExit(child: ChildProcess): void {
  atExit(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}

export interface ServeProcess {
  url: string;
  pid: number;
  /** SIGTERM, then waits for the exit (requests in flight finish; SQLite: the WAL is checkpointed); SIGKILL after 2 minutes */
  stop(): Promise<void>;
}

export interface ListeningOptions {
  env?: NodeJS.ProcessEnv;
  /** node's own flags, before the script (--cpu-prof…) */
  nodeArgs?: string[];
  /** where the listening line comes (stdout by default) */
  stream?: 'stdout' | 'stderr';
  /** an end by the SIGTERM of stop() is as good as exit code 0 (a program with no handler for it) */
  signalEndsIt?: boolean;
}

/**
 * `node <script> [args]` as a child, its output drained (the last 4,000 characters of each stream
 * kept, for the error); resolves once a line matches `listening` (its first group the URL), or
 * once `listening()` resolves with the URL, for a program that prints none.
 */
export async function startListening(name: string, script: string, args: string[], listening: RegExp | (() => Promise<string>), options: ListeningOptions = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...args], { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  killAtExit(child);
  const tails = { stdout: '', stderr: '' };
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} was not listening within ${START_TIMEOUT_MS / 1000} s; stderr:\n${tails.stderr}`)), START_TIMEOUT_MS);
    const found = (url: string) => {
      clearTimeout(timer);
      resolve(url);
    };
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream]?.setEncoding('utf8').on('data', (text: string) => {
        const seen = tails[stream] + text;
        tails[stream] = seen.slice(-4000);
        const line = listening instanceof RegExp && stream === (options.stream ?? 'stdout') ? listening.exec(seen) : null;
        if (line?.[1]) found(line[1]);
      });
    }
    if (!(listening instanceof RegExp)) listening().then(found, reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${signal ?? code}) before listening; stderr:\n${tails.stderr}`));
    });
  });

  return {
    url,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
      if (child.exitCode !== 0 && !(options.signalEndsIt && child.signalCode === 'SIGTERM')) {
        throw new Error(`${name} exited ${child.signalCode ?? child.exitCode} on SIGTERM; stderr:\n${tails.stderr}`);
      }
    },
  };
}

/**
 * `pinvoice serve --port 0 --db <db> --token TOKEN [args]`, `db` a SQLite file or a postgres:// URL;
 * resolves once it prints `listening on <url>`.
 */
export function startServe(db: string, args: string[] = []): Promise<ServeProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.PINVOICE_SERVE_TOKEN;
  delete env.PINVOICE_DB;
  return startListening('pinvoice serve', BIN, ['serve', '--port', '0', '--db', db, '--token', TOKEN, ...args], /^listening on (\S+)$/m, { env });
}

/** VmRSS and VmHWM (peak) of a process, in bytes, from /proc/<pid>/status (Linux). */
export function memory(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/** Bytes of a SQLite database on disk: the file and its -wal, when there is one. */
export function dbBytes(db: string): number {
  const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);
  return size(db) + size(`${db}-wal`);
}

export interface BenchPostgres {
  /** e.g. "PostgreSQL 15.14, a throwaway cluster (fsync off)" */
  description: string;
  /** the postmaster of a cluster started here (to measure its CPU); undefined on PINVOICE_BENCH_PG_URL */
  pid?: number;
  /** a new, empty database, answered as its URL */
  database(label: string): Promise<string>;
  /** SELECT pg_database_size(current_database()) of a database, in bytes */
  size(url: string): Promise<number>;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * PostgreSQL for a benchmark: the server of PINVOICE_BENCH_PG_URL (a maintenance database of it; its
 * databases named pinvoice_bench_* are made here and dropped at the end, unless interrupted), or else
 * a throwaway cluster, stopped and removed at the end.
 */
export async function benchPostgres(): Promise<BenchPostgres> {
  const given = process.env.PINVOICE_BENCH_PG_URL;
  let admin: string;
  let pid: number | undefined;
  const made: string[] = [];
  if (given) {
    admin = given;
    atExit(() => {
      // the nodes are being killed: FORCE ends what connections they leave (PostgreSQL 13 and later)
      const drop = async () => {
        for (const name of made) await query(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      };
      drop().catch((error: unknown) => process.stderr.write(`could not drop ${made.join(', ')} on PINVOICE_BENCH_PG_URL: ${error instanceof Error ? error.message : String(error)}\n`));
    });
  } else {
    const cluster = await startPostgres();
    atExit(() => cluster.stop());
    admin = cluster.url;
    pid = cluster.pid;
  }
  const [settings] = await query<{ version: string; fsync: string }>(admin, "SELECT current_setting('server_version') AS version, current_setting('fsync') AS fsync");
  const where = given ? 'at PINVOICE_BENCH_PG_URL' : 'a throwaway cluster';
  return {
    description: `PostgreSQL ${settings?.version ?? '?'}, ${where} (fsync ${settings?.fsync ?? '?'})`,
    pid,
    async database(label) {
      const name = `pinvoice_bench_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
      await query(admin, `CREATE DATABASE ${name}`);
      made.push(name);
      const url = new URL(admin);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async size(url) {
      const [row] = await query<{ bytes: number | string }>(url, 'SELECT pg_database_size(current_database()) AS bytes');
      return Number(row?.bytes);
    },
  };
}

/**
 * The team benchmarks' servers: one node on a new SQLite file, one on a new PostgreSQL database, and
 * three nodes sharing another new database (bench/postgres.ts, bench/team.ts).
 */
export async function startEngines(postgres: BenchPostgres, prefix: string): Promise<{ sqlite: ServeProcess; one: ServeProcess; three: ServeProcess[] }> {
  const sqlite = await startServe(`${tempDir()}/${prefix}.db`);
  const one = await startServe(await postgres.database(`${prefix}_one_node`));
  const threeDb = await postgres.database(`${prefix}_three_nodes`);
  const three: ServeProcess[] = [];
  for (let i = 0; i < 3; i++) three.push(await startServe(threeDb));
  return { sqlite, one, three };
}

/** The create request of the benchmarks: a pix charge as test/support/server.ts's validPix, without postback_url. */
export const PIX_CHARGE = JSON.stringify({
  method: 'pix',
  total_price_cents: 1990,
  product_fisical: 'true',
  ip_payer: '203.0.113.7',
  payer: { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25', phone: '+5511999998888' },
  items: [{ name: 'Camiseta', description: 'Azul, M', quantity: 1, unit_price: 1990 }],
});
