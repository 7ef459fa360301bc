// Runs the built CLI on a terminal of a chosen size, as a person would see it: a detached tmux session
// on a server socket of its own, its screen read with `capture-pane` (with -e, the colours too: what
// test/support/qr-decode.ts paints under a theme). When the command ends, a "$ " stands in for the shell's
// prompt (a line of its own, as a shell's takes), and the session stays until stop().
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './cli.js';

export interface TerminalRun {
  /** the screen as text, one line per row */
  text(): string;
  /** the screen with its SGR colour codes, trailing (coloured) blanks kept */
  screen(): string;
  /** the screen's text with the lines the terminal folded joined again: the lines as the program wrote them */
  joined(): string;
  /** rows scrolled off the top of the screen into the history (capture-pane shows only the screen): 0 when all is on it */
  scrolledAway(): number;
  /** resolves with the screen's text once it matches */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** resolves with the command's exit code once it has ended */
  exitCode(timeoutMs?: number): Promise<number>;
  stop(): void;
}

/** A word as sh reads it back. */
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export function onTmux(args: string[], options: { columns: number; rows: number; env: Record<string, string> }): TerminalRun {
  const dir = mkdtempSync(join(tmpdir(), 'pinvoice-tmux-'));
  const socket = join(dir, 'socket');
  const exitFile = join(dir, 'exit');
  const env = Object.entries({ PATH: process.env.PATH ?? '', TERM: 'xterm-256color', ...options.env }).map(([key, value]) => quote(`${key}=${value}`));
  const command = `env -i ${env.join(' ')} ${[process.execPath, BIN, ...args].map(quote).join(' ')}; echo $? > ${quote(exitFile)}; printf '$ '; exec sleep 600`;
  const tmux = (...words: string[]) => {
    const result = spawnSync('tmux', ['-S', socket, ...words], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', SHELL: '/bin/sh', TERM: 'xterm-256color' } });
    if (result.status !== 0) throw new Error(`tmux ${words[0]} failed: ${result.stderr}`);
    return result.stdout;
  };
  tmux('-f', '/dev/null', 'new-session', '-d', '-x', String(options.columns), '-y', String(options.rows), '-s', 'test', command);
  const text = () => tmux('capture-pane', '-p', '-t', 'test');
  const until = async <T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> => {
    for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const found = check();
      if (found !== undefined) return found;
    }
    throw new Error(`${what} within ${timeoutMs} ms; the screen:\n${text()}`);
  };
  return {
    text,
    screen: () => tmux('capture-pane', '-p', '-e', '-N', '-t', 'test'),
    joined: () => tmux('capture-pane', '-p', '-J', '-t', 'test'),
    scrolledAway: () => Number(tmux('display-message', '-p', '-t', 'test', '#{history_size}')),
    waitFor: (pattern, timeoutMs = 10_000) => until(() => (pattern.test(text()) ? text() : undefined), timeoutMs, `no ${pattern}`),
    exitCode: (timeoutMs = 20_000) => until(() => (existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '' ? Number(readFileSync(exitFile, 'utf8')) : undefined), timeoutMs, 'the command did not end'),
    stop: () => void spawnSync('tmux', ['-S', socket, 'kill-server']),
  };
}
