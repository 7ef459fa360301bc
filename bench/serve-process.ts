// Starts and stops the built `pinvoice serve` (bin/pinvoice.js, so `npm run build` first) as a child
// process, and cleans up after a benchmark: every process started and temp dir made here is ended
// and removed when the benchmark ends, fails, or is interrupted.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  /** SIGTERM, then waits for the exit (requests in flight finish, the WAL is checkpointed); SIGKILL after 2 minutes */
  stop(): Promise<void>;
}

/** `pinvoice serve --port 0 --db <db> --token TOKEN [args]`; resolves once it prints `listening on <url>`. */
export async function startServe(db: string, args: string[] = []): Promise<ServeProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.PINVOICE_SERVE_TOKEN;
  delete env.PINVOICE_DB;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db, '--token', TOKEN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  killAtExit(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`pinvoice serve printed no "listening on" line within ${START_TIMEOUT_MS / 1000} s; stderr:\n${stderr}`)), START_TIMEOUT_MS);
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      const found = /^listening on (\S+)$/m.exec(stdout);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`pinvoice serve exited (${signal ?? code}) before listening; stderr:\n${stderr}`));
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
      if (child.exitCode !== 0) throw new Error(`pinvoice serve exited ${child.signalCode ?? child.exitCode} on SIGTERM; stderr:\n${stderr}`);
    },
  };
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

/** Bytes of a database on disk: the file and its -wal, when there is one. */
export function dbBytes(db: string): number {
  const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);
  return size(db) + size(`${db}-wal`);
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
