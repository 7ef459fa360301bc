// What bench/server.ts and bench/postgres.ts share: their load flags, fetching an answer's exact
// bytes, and the bare node:http baseline in its own process answering those bytes.
import { parseArgs } from 'node:util';
import { forkTs } from './load.js';
import { killAtExit } from './serve-process.js';

export interface LoadFlags {
  connections: number;
  durationMs: number;
  warmupMs: number;
  /** 1 unless the benchmark takes --rounds */
  rounds: number;
}

/**
 * --connections, --duration and --warmup (seconds), checked; by default 32, 5 and 1 (bench/server.ts's
 * load). --rounds only where a default is given for it.
 */
export function loadFlags(defaults: { connections: number; duration: number; warmup: number; rounds?: number } = { connections: 32, duration: 5, warmup: 1 }): LoadFlags {
  const flag = (value: number) => ({ type: 'string', default: String(value) }) as const;
  const { values: flags } = parseArgs({
    options: {
      connections: flag(defaults.connections),
      duration: flag(defaults.duration),
      warmup: flag(defaults.warmup),
      ...(defaults.rounds === undefined ? {} : { rounds: flag(defaults.rounds) }),
    },
  });
  const connections = Number(flags.connections);
  const durationMs = Number(flags.duration) * 1000;
  const warmupMs = Number(flags.warmup) * 1000;
  const rounds = Number(flags.rounds ?? 1);
  if (!(connections >= 1 && durationMs > 0 && warmupMs >= 0 && Number.isInteger(rounds) && rounds >= 1)) {
    throw new Error('--connections ≥ 1, --duration > 0 and --warmup ≥ 0 (seconds), --rounds a whole number ≥ 1');
  }
  return { connections, durationMs, warmupMs, rounds };
}

export async function fetchBytes(url: string, init: RequestInit): Promise<Buffer> {
  const response = await fetch(url, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${bytes.toString().slice(0, 600)}`);
  return bytes;
}

export interface BareServer {
  url: string;
  pid: number;
  /** how many POSTs it has answered so far */
  posts(): Promise<number>;
}

/** The baseline in its own process; resolves once it listens. */
export function startBare(get: Buffer, post: Buffer, framework: 'node:http' | 'fastify' = 'node:http'): Promise<BareServer> {
  const child = forkTs('./bare-server.ts', framework === 'fastify' ? ['fastify'] : []);
  killAtExit(child);
  const posts = () =>
    new Promise<number>((resolve) => {
      child.once('message', (message: { posts: number }) => resolve(message.posts));
      child.send('count');
    });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve({ url: message.url, pid: child.pid as number, posts }));
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code}) before listening`)));
    child.send({ get: get.toString('base64'), post: post.toString('base64') });
  });
}
