// What bench/server.ts and bench/postgres.ts share: their load flags, fetching an answer's exact
// bytes, and the bare node:http baseline in its own process answering those bytes.
import { parseArgs } from 'node:util';
import { forkTs, type LoadOptions } from './load.js';
import { killAtExit } from './serve-process.js';

/** --connections (32), --duration (5 s) and --warmup (1 s), checked. */
export function loadFlags(): LoadOptions & { connections: number; durationMs: number; warmupMs: number } {
  const { values: flags } = parseArgs({
    options: { connections: { type: 'string', default: '32' }, duration: { type: 'string', default: '5' }, warmup: { type: 'string', default: '1' } },
  });
  const connections = Number(flags.connections);
  const durationMs = Number(flags.duration) * 1000;
  const warmupMs = Number(flags.warmup) * 1000;
  if (!(connections >= 1 && durationMs > 0 && warmupMs >= 0)) throw new Error('--connections ≥ 1, --duration > 0 and --warmup ≥ 0 (seconds)');
  return { connections, durationMs, warmupMs };
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
