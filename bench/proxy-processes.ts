// The processes of bench/proxy.ts, each its own: the upstream (bench/proxy-upstream.ts), the bare
// streaming proxy (bench/bare-proxy.ts), the built `pinvoice proxy`, and Prism's proxy mode on our
// OpenAPI document. Each is ended at exit (serve-process.ts), also on a failure or Ctrl-C.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { forkTs } from './load.js';
import { BIN, killAtExit, startListening, type ServeProcess } from './serve-process.js';

export interface Upstream {
  url: string;
  pid: number;
  /** the bearer token it asks for */
  token: string;
  /** the ids it has a record for */
  ids: number[];
}

/** Forks a bench/ file that replies with `{url, …}` over IPC once it listens. */
function forkListening<T extends { url: string }>(file: string, args: string[], message?: unknown): Promise<T & { pid: number }> {
  const child: ChildProcess = forkTs(file, args);
  killAtExit(child);
  return new Promise((resolve, reject) => {
    child.once('message', (reply: T) => resolve({ ...reply, pid: child.pid as number }));
    child.once('exit', (code) => reject(new Error(`${file} exited (${code}) before listening`)));
    if (message !== undefined) child.send(message as object);
  });
}

export const startUpstream = (count: number) => forkListening<Upstream>('./proxy-upstream.ts', [], { count });

export const startBareProxy = (origin: string) => forkListening<{ url: string }>('./bare-proxy.ts', [origin]);

/**
 * `pinvoice proxy --to ORIGIN --port 0 --journal <dir>/proxy.journal`: its checks and journal on, as a
 * merchant runs it; its inspector token read from its --write-env file. Given `profileDir`, under
 * `node --cpu-prof` (the profile written there when it stops).
 */
/** `pinvoice proxy --to origin`, its journal in `dir` under `name` (and, with `record`, its recording beside it: --record). */
export async function startPinvoiceProxy(origin: string, dir: string, profileDir?: string, { name = 'proxy', record = false } = {}): Promise<ServeProcess & { token: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  const nodeArgs = profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir];
  const envFile = join(dir, `${name}.env`);
  const args = ['proxy', '--to', origin, '--port', '0', '--journal', join(dir, `${name}.journal`), '--write-env', envFile, ...(record ? ['--record', join(dir, `${name}.jsonl`)] : [])];
  const proxy = await startListening(`pinvoice ${name}`, BIN, args, /^listening on (\S+)$/m, { env, nodeArgs });
  const token = /^PINVOICE_PROXY_TOKEN='?([^'\n]+)/m.exec(readFileSync(envFile, 'utf8'))?.[1];
  if (token === undefined) throw new Error(`pinvoice proxy wrote no PINVOICE_PROXY_TOKEN to ${envFile}`);
  return { ...proxy, token };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number, name: string, timeoutMs = 30_000): Promise<void> {
  for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(100)) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(true)).once('error', () => resolve(false));
      socket.once('connect', () => socket.end());
    });
    if (open) return;
  }
  throw new Error(`${name} did not listen on port ${port} within ${timeoutMs / 1000} s`);
}

/** Prism's CLI script (its package's bin), run by node directly: the pid measured is Prism's own. */
function prismScript(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
}

/**
 * `prism proxy <our OpenAPI document> ORIGIN` as a validating passthrough: `--errors false` (a
 * violation never turns the answer into Prism's own error), `--cors false` (no CORS headers added),
 * requests validated (`--validate-request`, its default), `-v warn` (violations still logged, not
 * four info lines a request). At `warn` Prism prints no listening line, so the port is ours to pick.
 */
export async function startPrism(origin: string, dir: string): Promise<ServeProcess & { flags: string }> {
  const document = join(dir, 'openapi.json');
  writeFileSync(document, execFileSync(process.execPath, [BIN, 'openapi']));
  const port = await freePort();
  const flags = '--errors false --cors false --validate-request true -v warn';
  const args = ['proxy', document, origin, '--host', '127.0.0.1', '--port', String(port), ...flags.split(' ')];
  const listening = () => waitForPort(port, 'prism proxy').then(() => `http://127.0.0.1:${port}`);
  const prism = await startListening('prism proxy', prismScript(), args, listening, { signalEndsIt: true });
  return { ...prism, flags };
}
