// Several `pinvoice serve` processes of the built binary at once, for crash and multi-process tests:
// each is spawned as the node process itself (no shell between), so its pid is the server's and a
// SIGKILL reaches the server; every one is tracked so that a test can kill whatever is left, pass or
// fail. Also: a temporary folder that is removed afterwards, a small JSON client for the API, and
// which process holds a loopback connection (Linux /proc), to tell which server is mid-delivery.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './cli.js';
import { ENGINE, postgresDatabase } from './engine.js';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServeNode {
  child: ChildProcess;
  /** the server's own pid (node running bin/pinvoice.js) */
  pid: number;
  /** resolves with the base URL once `listening on` is printed; rejects if the process exits first, or after 20 s */
  listening: Promise<string>;
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
  /** sends the signal (default SIGKILL) unless the process has already ended, and waits for its end */
  kill(signal?: NodeJS.Signals): Promise<Exit>;
}

const live = new Set<ServeNode>();

/** A folder under the system's temp folder holding HOME, config and data dirs; removed by removeWorkDirs(). */
const dirs: string[] = [];
export function workDir(prefix = 'pinvoice-mp-'): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return { dir, env: { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), PINVOICE_DATA_DIR: join(dir, 'data', 'pinvoice') } };
}

export function removeWorkDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Spawns `pinvoice serve ...args` at once and returns before it listens (see `listening`). */
export function spawnServe(args: string[], env: Record<string, string>): ServeNode {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error('could not spawn pinvoice serve');
  let stdout = '';
  let stderr = '';
  let ended = false;
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<Exit>((resolve) => child.on('close', (code, signal) => {
    ended = true;
    resolve({ code, signal });
  }));
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not listen within 20 s; stderr: ${stderr}`)), 20_000);
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const match = /^listening on (http:\/\/\S+)\n/.exec(stdout);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`serve exited (code ${code}, signal ${signal}) before listening; stderr: ${stderr}`), { code, stderr }));
    });
  });
  listening.catch(() => undefined); // a test that never awaits it must not see an unhandled rejection
  const node: ServeNode = {
    child,
    pid: child.pid,
    listening,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    kill(signal = 'SIGKILL') {
      if (!ended) child.kill(signal);
      return exited;
    },
  };
  live.add(node);
  void exited.then(() => live.delete(node));
  return node;
}

/** Spawns and waits for the `listening on` line; answers the node and its URL. */
export async function startServe(args: string[], env: Record<string, string>): Promise<ServeNode & { url: string }> {
  const node = spawnServe(args, env);
  const url = await node.listening;
  return Object.assign(node, { url });
}

/** SIGKILLs every serve process spawned here that is still running, and waits for them to end. */
export async function killAll(): Promise<void> {
  await Promise.all([...live].map((node) => node.kill('SIGKILL')));
}

export interface Answer<T = any> {
  status: number;
  body: T;
}

/** One JSON request to a server; throws when no complete answer came (connection refused or reset). */
export async function call<T = any>(base: string, token: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...extra, authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

/** Calls fn over items with at most `limit` at once; answers the results in order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The pids, among `pids`, holding an established TCP connection to loopback port `port` (read from
 * /proc/net/tcp{,6} and /proc/<pid>/fd). Empty where /proc is not there (not Linux).
 */
export function connectionOwners(port: number, pids: number[]): number[] {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const cols = line.trim().split(/\s+/);
      const [remote, state, inode] = [cols[2], cols[3], cols[9]];
      if (!remote || state !== '01' || !inode || inode === '0') continue;
      if (Number.parseInt(remote.split(':').at(-1) ?? '', 16) === port) inodes.add(inode);
    }
  }
  return pids.filter((pid) => {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      return false;
    }
    return fds.some((fd) => {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        return match?.[1] !== undefined && inodes.has(match[1]);
      } catch {
        return false;
      }
    });
  });
}

/** A valid pix charge request (the body of test/support/server.ts validPix, without importing the server). */
export const pixBody = (overrides: Record<string, unknown> = {}) => ({
  method: 'pix',
  total_price_cents: 1990,
  product_fisical: 'true',
  ip_payer: '203.0.113.7',
  payer: { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25', phone: '+5511999998888' },
  items: [{ name: 'Camiseta', description: 'Azul, M', quantity: 1, unit_price: 1990 }],
  ...overrides,
});

/**
 * Where a test's servers keep their data, for the engine this run of the suite is on: a file in the
 * test's folder, or a new PostgreSQL database of the run's throwaway cluster.
 */
export async function dbFor(dir: string, name: string): Promise<string> {
  return ENGINE === 'postgres' ? postgresDatabase(undefined, `e_${name}`) : join(dir, `${name}.db`);
}
