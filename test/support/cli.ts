// Runs the built `bin/pinvoice.js` as a user would, with its own data and config directories.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engineArgs } from './engine.js';

export const BIN = new URL('../../bin/pinvoice.js', import.meta.url).pathname;

export function tempHome(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'pinvoice-e2e-'));
  return { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), PINVOICE_DATA_DIR: join(dir, 'data', 'pinvoice') };
}

export function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NO_COLOR: '1' };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; a `--db` it is given names a database of the run's engine (test/support/engine.ts). */
export async function run(given: string[], options: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {}): Promise<RunResult> {
  const args = await engineArgs(given);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(options.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // a command that exits before reading its input (a usage error) closes the pipe: that is no failure of the run
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(options.input ?? '');
  });
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** resolves with the exit code once the process has ended */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `pinvoice serve` (its `--db` on the run's engine) and resolves once it has printed its `listening on` line. */
export async function serve(given: string[], env: Record<string, string | undefined> = {}): Promise<ServeProcess> {
  const args = await engineArgs(given);
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 15_000);
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /^listening on (https?:\/\/\S+)\n/.exec(stdout);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        child,
        stdout: () => stdout,
        stderr: () => stderr,
        exited,
        stop: (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
      });
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`serve exited with ${code}: ${stderr}`), { code, stderr }));
    });
  });
}

export interface LongRunning {
  child: ChildProcess;
  /** stdout so far, split in lines */
  lines(): string[];
  stderr(): string;
  /** resolves with the first stdout line that matches (rejects after timeoutMs or on exit) */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a long-running command (webhooks listen, say) and follows its stdout line by line. */
export function start(args: string[], env: Record<string, string | undefined> = {}): LongRunning {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    listeners.forEach((listener) => listener());
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const lines = () => stdout.split('\n').filter((line) => line !== '');
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    waitForLine(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines().find(match);
          if (found === undefined) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching line in ${timeoutMs} ms; stdout: ${stdout} stderr: ${stderr}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        exited.then(() => setTimeout(() => {
          check();
          cleanup();
          reject(new Error(`exited before a matching line; stdout: ${stdout} stderr: ${stderr}`));
        }, 50));
        check();
      });
    },
    stop(signal = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}
