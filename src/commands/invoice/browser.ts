// Opening a URL in the user's browser: $BROWSER as the convention has it (a `:`-separated list of
// commands, each with its own arguments, `%s` standing for the URL, else the URL appended), else the
// platform's opener. A browser that cannot be started or exits with a failure is reported, not hidden.
import { spawn } from 'node:child_process';

/** How long an opener is given to fail before it is taken to have opened the page (a browser may stay running). */
const SETTLE_MS = 1500;

export type Launch = { opened: true; by: string } | { opened: false; reason: string };

/** Words of one $BROWSER entry, split as a shell would for plain words, quotes and backslashes (no expansion). */
export function splitCommand(entry: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < entry.length; i++) {
    const char = entry[i] as string;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && i + 1 < entry.length) word = (word ?? '') + entry[++i];
      else word = (word ?? '') + char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (char === '\\' && i + 1 < entry.length) {
      word = (word ?? '') + entry[++i];
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The commands to try, in order, each as [program, args] with the URL in place. */
export function openers(url: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): [string, string[]][] {
  const browser = env.BROWSER?.trim();
  if (browser) {
    return browser.split(':').map(splitCommand).filter((words) => words.length > 0).map((words) => {
      const withUrl = words.some((word) => word.includes('%s'));
      const args = words.slice(1).map((word) => word.replace(/%(%|s)/g, (_, c: string) => (c === 's' ? url : '%')));
      return [words[0] as string, withUrl ? args : [...args, url]];
    });
  }
  if (platform === 'darwin') return [['open', [url]]];
  if (platform === 'win32') return [['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]];
  // Linux and the BSDs: only with a graphical session (a terminal over SSH has none)
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return [];
  return [['xdg-open', [url]]];
}

/** Runs one opener: opened when it exits 0, or is still running after SETTLE_MS (it is then left to run). */
function launchOne([command, args]: [string, string[]]): Promise<Launch> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    let timer: NodeJS.Timeout | undefined;
    const settle = (result: Launch) => {
      clearTimeout(timer);
      child.removeAllListeners();
      resolve(result);
    };
    child.once('error', (error: NodeJS.ErrnoException) =>
      settle({ opened: false, reason: error.code === 'ENOENT' ? `${command} was not found` : `${command} could not be started (${error.code ?? error.message})` }));
    child.once('exit', (code, signal) =>
      settle(code === 0 ? { opened: true, by: command } : { opened: false, reason: `${command} ${signal ? `was stopped by ${signal}` : `exited with status ${code}`}` }));
    child.once('spawn', () => {
      timer = setTimeout(() => {
        child.unref();
        settle({ opened: true, by: command });
      }, SETTLE_MS);
      timer.unref();
    });
  });
}

/** Tries each opener in turn; undefined when there is none to try (no $BROWSER and no graphical session). */
export async function openInBrowser(url: string): Promise<Launch | undefined> {
  const candidates = openers(url);
  if (candidates.length === 0) return undefined;
  const reasons: string[] = [];
  for (const candidate of candidates) {
    const result = await launchOne(candidate);
    if (result.opened) return result;
    reasons.push(result.reason);
  }
  return { opened: false, reason: reasons.join('; ') };
}
