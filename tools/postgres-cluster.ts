// A throwaway PostgreSQL cluster, shared by the tests (test/support/postgres.ts re-exports this
// file; test/support/global-setup.ts starts one per run) and the benchmarks (bench/postgres.ts,
// bench/scale.ts --engine postgres), which must not import each other: Debian's server binaries,
// a cluster in a temp folder on a free port, run as an unprivileged user when run as root
// (PostgreSQL refuses root), with fsync off (nothing in it is meant to survive), stopped at the end.
// Outside CI, without PostgreSQL installed, the PostgreSQL tests say they were skipped and why; in
// CI (CI=true) they never skip.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface TestPostgres {
  /** postgres://… of the cluster's maintenance database */
  url: string;
  /** the postmaster's process id (its backends are its children; a new one after restart()) */
  pid: number;
  /** the cluster's own folder (its data folder is `data` in it) */
  dir: string;
  /** stops the server, keeping the cluster: `pg_ctl stop -m mode` (what an outage or a maintenance restart does) */
  halt(mode: 'immediate' | 'fast'): void;
  /** starts it again after halt(), on the same port */
  restart(): void;
  /** runs a program of the server's (psql, pg_ctl…) as the cluster's user; its stdout */
  run(program: string, args: string[]): string;
  /** stops the server and removes the cluster, holding the event loop until done (for exit handlers) */
  stop(): void;
  /**
   * The same without holding the event loop: vitest's global teardown runs in its main process, which
   * meanwhile hears its last workers exit. Removing a run's cluster (104 databases, 1.4 GB after
   * test/server alone) took 2.7 s in one run and 14.8 s in another; held 10 s, vitest reports the
   * worker it was ending as "Timeout terminating forks worker", whatever that worker ran.
   */
  close(): Promise<void>;
}

/** The folder of initdb and pg_ctl: pg_config's, or Debian's newest /usr/lib/postgresql/N/bin. */
export function postgresBin(): string | undefined {
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = [
    fromConfig.status === 0 ? fromConfig.stdout.trim() : '',
    ...(existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)).map((v) => `/usr/lib/postgresql/${v}/bin`) : []),
  ];
  return candidates.find((dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The command line of a PostgreSQL program run as `user` (root cannot run PostgreSQL) or as ourselves. */
function asUser(user: string | undefined, program: string, args: string[]): [string, string[]] {
  return user ? ['runuser', ['-u', user, '--', program, ...args]] : [program, args];
}

/** Runs a PostgreSQL program as `user` or as ourselves; its stdout. */
function runAs(user: string | undefined, program: string, args: string[]): string {
  const [command, all] = asUser(user, program, args);
  return execFileSync(command, all, { stdio: 'pipe', encoding: 'utf8' });
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (no initdb; Debian: apt-get install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'pinvoice-pg-'));
  const root = process.getuid?.() === 0;
  const user = root ? 'nobody' : undefined;
  if (root) chownSync(dir, 65534, 65534);
  const data = join(dir, 'data');
  const port = await freePort();
  const running = () => existsSync(join(data, 'postmaster.pid'));
  const stopServer = asUser(user, join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
  const stop = () => {
    try {
      if (running()) execFileSync(...stopServer, { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const close = async () => {
    try {
      if (running()) await promisify(execFile)(...stopServer);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  const start = () =>
    runAs(user, join(bin, 'pg_ctl'), ['-D', data, '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`, 'start']);
  // postmaster.pid: its first line is the postmaster's process id
  const postmaster = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  try {
    runAs(user, join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    start();
  } catch (error) {
    stop();
    throw error;
  }
  const cluster: TestPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid: postmaster(),
    dir,
    halt: (mode) => void runAs(user, join(bin, 'pg_ctl'), ['-D', data, '-w', '-m', mode, 'stop']),
    restart() {
      start();
      cluster.pid = postmaster();
    },
    run: (program, args) => runAs(user, program.includes('/') ? program : join(bin, program), args),
    stop,
    close,
  };
  return cluster;
}
