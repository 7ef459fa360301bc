// The load generator, parent side: the client runs in a forked process (bench/load-worker.ts) so it
// never shares an event loop with the server it measures. node:http with a keep-alive Agent,
// C connections each issuing requests back to back, after a warm-up that is not counted; a request
// may name several URLs (several nodes, or many charges), taken in turn. Or, given a rate, requests at
// fixed times instead of back to back (latency under a steady load). Or a mix of kinds of request on
// the same connections, in a fixed turn of weighted slots (9 GETs to 1 create). Any non-2xx answer or error
// is a failure (LoadError, showing a sample answer), never a rate. It reports the CPU use of the
// client, of the server (several node processes summed) and, given its postmaster, of a PostgreSQL
// cluster, over the measured span.
import { fork, type ChildProcess } from 'node:child_process';

/** One kind of request: `url` is one URL, or a list taken in turn (each request the next one). */
export interface RequestSpec {
  method: string;
  url: string | string[];
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Several kinds of request on the same connections: the weights (whole numbers) laid out as slots in
 * order (9 GETs and 1 create: ten slots), connection c's n-th request taking slot (c + n) mod the
 * slots' count, so that the connections' creates come spread in time rather than all in step. Each kind
 * takes its URLs in turn as it would alone; every kind must name the same origins.
 */
export interface RequestMix {
  mix: { spec: RequestSpec; weight: number }[];
}

export type LoadSpec = RequestSpec | RequestMix;

export interface LoadOptions {
  connections: number;
  warmupMs: number;
  /** measure for this long… */
  durationMs?: number;
  /** …or this many requests after the warm-up */
  requests?: number;
  /**
   * requests a second, at fixed times (each the next ticket, on whichever connection is free), instead
   * of back to back: the latency of a steady load, not of a saturated server; connections enough that
   * one is free at each tick (the achieved rate, `rps`, shows when none was)
   */
  rate?: number;
  /** the server's process, or processes (several nodes), whose CPU use is reported, summed, for the measured span */
  watchPid?: number | number[];
  /** a PostgreSQL postmaster: the CPU use of the cluster (it and its backends, alive or ended) is reported too */
  watchPostgres?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** the first failure: status and body, or the error */
  sample?: string;
  /** of a mix: each kind's own count and latencies, in the mix's order */
  kinds?: { requests: number; p50: number; p99: number }[];
  /** CPU use over the measured span, 1 = one core busy */
  clientCpu: number;
  serverCpu?: number;
  /**
   * the watched processes' main threads (summed, 1 = one thread all the time): on a core, and
   * runnable but waiting for one; undefined where /proc/<pid>/schedstat is not
   */
  serverMain?: { onCore: number; waiting: number };
  /** the PostgreSQL cluster's, when watchPostgres was given */
  postgresCpu?: number;
}

/** Fill: `clients` loops create charges (POST body to /api/v2/invoices) until `to` exist, paying every `payEvery`-th. */
export interface FillOptions {
  origin: string;
  token: string;
  body: string;
  to: number;
  clients: number;
  payEvery: number;
  progressMs: number;
  /** the server's process, whose CPU use is reported */
  watchPid?: number;
  /** a PostgreSQL postmaster, whose cluster's CPU use is reported too */
  watchPostgres?: number;
}

export interface FillResult {
  created: number;
  paid: number;
  ms: number;
  /** marks[k]: ms from this call's start until its (k × MARK_EVERY)-th create was answered; marks[0] = 0 */
  marks: number[];
  clientCpu: number;
  serverCpu?: number;
  postgresCpu?: number;
}

export interface FillProgress {
  created: number;
  paid: number;
  ms: number;
}

export const MARK_EVERY = 100;

export type WorkerRequest =
  | { id: number; kind: 'load'; spec: LoadSpec; options: LoadOptions }
  | { id: number; kind: 'fill'; options: FillOptions }
  | { id: number; kind: 'sample'; from: 'first' | 'all'; count: number; distinct?: boolean };

export type WorkerReply =
  | { id: number; kind: 'result'; result: unknown }
  | { id: number; kind: 'failed'; message: string }
  | { id: number; kind: 'progress'; progress: FillProgress };

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export class LoadError extends Error {}

/** Forks a TypeScript file of bench/ under tsx, with an IPC channel. */
export function forkTs(file: string, args: string[] = []): ChildProcess {
  const path = new URL(file, import.meta.url).pathname;
  return fork(path, args, { execArgv: ['--import', import.meta.resolve('tsx')], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** The client process: one at a time answers load, fill and sample requests. */
export class LoadWorker {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; progress?: (p: FillProgress) => void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: WorkerReply) => {
      const pending = this.waiting.get(message.id);
      if (!pending) return;
      if (message.kind === 'progress') return pending.progress?.(message.progress);
      this.waiting.delete(message.id);
      if (message.kind === 'result') pending.resolve(message.result);
      else pending.reject(new LoadError(message.message));
    });
    child.on('exit', (code, signal) => {
      for (const pending of this.waiting.values()) pending.reject(new LoadError(`the load worker exited (${signal ?? code})`));
      this.waiting.clear();
    });
  }

  static start(): LoadWorker {
    return new LoadWorker(forkTs('./load-worker.ts'));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private ask<T>(request: WithoutId<WorkerRequest>, progress?: (p: FillProgress) => void): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject, progress });
      this.child.send({ ...request, id });
    });
  }

  /** Runs the load and fails (LoadError, with a sample) on any non-2xx answer or error. */
  async load(label: string, spec: LoadSpec, options: LoadOptions): Promise<LoadResult> {
    const result = await this.ask<LoadResult>({ kind: 'load', spec, options });
    if (result.non2xx > 0 || result.errors > 0) {
      throw new LoadError(`${label}: ${result.non2xx} non-2xx answers and ${result.errors} errors in ${result.requests} requests; the first:\n  ${result.sample ?? '(none kept)'}`);
    }
    if (result.requests === 0) throw new LoadError(`${label}: no request completed in the measured span`);
    return result;
  }

  fill(options: FillOptions, progress?: (p: FillProgress) => void): Promise<FillResult> {
    return this.ask<FillResult>({ kind: 'fill', options }, progress);
  }

  /**
   * `count` secureIds drawn at random from the first 1000 created, or from all created so far (a
   * uniform sample of 10,000 of them); `distinct`: without repeats, as many as there are up to `count`.
   */
  sample(from: 'first' | 'all', count: number, distinct = false): Promise<string[]> {
    return this.ask<string[]>({ kind: 'sample', from, count, distinct });
  }

  close(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
  }
}

/** The median; of an even count, the mean of the two in the middle. */
export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return ((sorted[(sorted.length - 1) >> 1] as number) + (sorted[sorted.length >> 1] as number)) / 2;
}

export const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
export const int = (value: number) => Math.round(value).toLocaleString('en-US');
export const cpu = (value: number | undefined) => (value === undefined ? '?' : `${Math.round(value * 100)}%`);

/** One line: rate, latency, and where the CPU went (a client near 100% means the client, not the server, set the pace). */
export function describe(result: LoadResult): string {
  const postgres = result.postgresCpu === undefined ? '' : `, postgres ${cpu(result.postgresCpu)}`;
  return `${int(result.rps).padStart(7)} req/s  p50 ${ms(result.p50).padStart(6)} ms  p99 ${ms(result.p99).padStart(6)} ms  (cpu: server ${cpu(result.serverCpu)}, client ${cpu(result.clientCpu)}${postgres})`;
}
