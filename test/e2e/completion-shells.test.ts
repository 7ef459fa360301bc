// The completion scripts in the shells themselves: the built `pinvoice completion <shell>`, installed as
// a user would, asked what it offers after each line. bash: the script sourced, COMP_WORDS/COMP_CWORD
// set, _pinvoice called, COMPREPLY read. zsh: an interactive zsh driven on a pty by zsh/zpty, compinit
// loading the script from $fpath (or sourcing it), TAB pressed, the matches captured
// (test/support/zsh-complete.zsh). fish: the script in the config's completions folder, where fish
// autoloads it, and `complete --do-complete`. Profiles are made by `pinvoice login` against a real
// `pinvoice serve`; file names are those of a folder made for the test.
// Without zsh or fish, that shell's part is skipped, saying why, except in CI (.ci/run installs both).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, run, serve, tempHome, type ServeProcess } from '../support/cli.js';

const TOKEN = 'pinv_test_completion_shells_01';
const ZSH_COMPLETE = new URL('../support/zsh-complete.zsh', import.meta.url).pathname;
const inCI = process.env.CI === 'true';
const installed = (shell: string) => spawnSync(shell, ['-c', 'true']).status === 0;
const skipReason = (shell: string) =>
  installed(shell) || inCI ? undefined : `${shell} is not installed (Debian: apt-get install ${shell}); .ci/run installs it`;

const work = mkdtempSync(join(tmpdir(), 'pinvoice-completion-'));
/** The folder the shells run in: what `--file <TAB>` should offer. */
const folder = join(work, 'folder');
const home = tempHome();
/** `pinvoice` on PATH, as installed: the scripts run it to list the profiles. */
const env: NodeJS.ProcessEnv = { ...home, PATH: `${join(work, 'bin')}:${process.env.PATH}`, NO_COLOR: '1', TERM: 'xterm' };
const scripts: Record<string, string> = {};
let server: ServeProcess;

beforeAll(async () => {
  mkdirSync(join(folder, 'orders'), { recursive: true });
  for (const file of ['charge.json', 'batch.ndjson']) writeFileSync(join(folder, file), '{}\n');
  mkdirSync(join(work, 'bin'));
  symlinkSync(BIN, join(work, 'bin', 'pinvoice'));
  server = await serve(['--port', '0', '--db', join(work, 'completion.db'), '--token', TOKEN], tempHome());
  for (const profile of ['local', 'staging']) {
    const login = await run(['login', '--profile', profile, '--base-url', server.url, '--token-stdin'], { env: home, input: `${TOKEN}\n` });
    expect(login.code, login.stderr).toBe(0);
  }
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await run(['completion', shell], { env: home });
    expect(result.code, result.stderr).toBe(0);
    scripts[shell] = join(work, shell === 'zsh' ? '_pinvoice' : `pinvoice.${shell}`);
    writeFileSync(scripts[shell], result.stdout);
  }
  // where fish autoloads a command's completions from: ~/.config/fish/completions
  mkdirSync(join(home.XDG_CONFIG_HOME ?? '', 'fish', 'completions'), { recursive: true });
  copyFileSync(scripts.fish ?? '', join(home.XDG_CONFIG_HOME ?? '', 'fish', 'completions', 'pinvoice.fish'));
});
afterAll(() => server?.stop());

function lines(result: ReturnType<typeof spawnSync>, shell: string): string[] {
  expect(result.status, `${shell}: ${String(result.stderr)}`).toBe(0);
  return String(result.stdout).split('\n').filter(Boolean);
}

/** What each shell offers after each line (words separated by single spaces; a trailing space starts a new word). */
const COMPLETE: Record<string, (typed: string[]) => string[][]> = {
  bash: (typed) => typed.map((line) => {
    const program = 'source "$1"; shift; COMP_WORDS=(pinvoice "$@"); COMP_CWORD=$#; _pinvoice; printf "%s\\n" "${COMPREPLY[@]}"';
    const result = spawnSync('bash', ['--norc', '-c', program, 'bash', scripts.bash ?? '', ...line.split(' ').slice(1)], { cwd: folder, env, encoding: 'utf8' });
    return lines(result, 'bash');
  }),
  // one zsh for all the lines: compinit is the slow part
  zsh(typed) {
    const result = spawnSync('zsh', ['-f', ZSH_COMPLETE, 'fpath', scripts.zsh ?? '', ...typed], { cwd: folder, env, encoding: 'utf8', timeout: 60_000 });
    expect(result.status, `zsh: ${result.stderr}`).toBe(0);
    // each line's matches end with an empty line
    const blocks: string[][] = [[]];
    for (const line of result.stdout.split('\n').slice(0, -1)) {
      if (line === '') blocks.push([]);
      else blocks.at(-1)?.push(line);
    }
    return blocks.slice(0, typed.length);
  },
  fish: (typed) => typed.map((line) => {
    const result = spawnSync('fish', ['-c', 'complete --do-complete $argv[1]', line], { cwd: folder, env, encoding: 'utf8' });
    return lines(result, 'fish').map((match) => match.split('\t')[0] ?? '');
  }),
};

/** The matches after each line, as sets: shells order them differently, and fish and zsh mark a folder with "/". */
function offered(shell: string, ...typed: string[]): string[][] {
  return (COMPLETE[shell]?.(typed) ?? []).map((matches) => [...new Set(matches.map((m) => m.replace(/\/$/, '')))].sort());
}
const sorted = (...words: string[]) => [...words].sort();

describe('the shells are installed in CI', () => {
  it.runIf(inCI).each(['zsh', 'fish'])('%s is installed (.ci/run installs it), so its completion script is tested', (shell) => {
    expect(installed(shell)).toBe(true);
  });
});

describe.each(['bash', 'zsh', 'fish'])('completion in %s', (shell) => {
  const reason = skipReason(shell);
  const skip = reason === undefined ? it : it.skip;
  const title = (text: string) => (reason ? `${text} (skipped: ${reason})` : text);

  skip(title('offers the commands at the top level and in a group'), () => {
    const [top, se, invoice, company] = offered(shell, 'pinvoice ', 'pinvoice se', 'pinvoice invoice ', 'pinvoice serve company ');
    expect(top).toEqual(expect.arrayContaining(['invoice', 'sandbox', 'profile', 'completion', 'login', 'serve']));
    expect(se).toEqual(['serve']);
    expect(invoice).toEqual(sorted('get', 'list', 'create', 'refund', '3ds', 'open'));
    expect(company).toEqual(sorted('add', 'list'));
  });

  skip(title('offers the flags of the command typed, after its flags and their values'), () => {
    expect(offered(shell, 'pinvoice serve company add --c', 'pinvoice invoice create --amount 10 --me')).toEqual([
      sorted('--corporate-reason', '--cnpj'),
      sorted('--method', '--metadata'),
    ]);
  });

  skip(title('--method offers pix, credit_card and boleto; --format and --durability their values'), () => {
    expect(offered(shell, 'pinvoice invoice create --method ', 'pinvoice invoice create --method c', 'pinvoice invoice list --format ', 'pinvoice serve --durability ')).toEqual([
      sorted('pix', 'credit_card', 'boleto'),
      ['credit_card'],
      sorted('table', 'json', 'ndjson', 'csv'),
      sorted('process', 'power'),
    ]);
  });

  skip(title('--status of invoice list offers the statuses, and the next one after a comma'), () => {
    expect(offered(shell, 'pinvoice invoice list --status pa', 'pinvoice invoice list --status paid,pe')).toEqual([
      ['paid'],
      // zsh keeps "paid," and offers the next word; bash and fish offer the whole value
      [shell === 'zsh' ? 'pending' : 'paid,pending'],
    ]);
  });

  skip(title('--file, --batch and --token-file offer the files of the folder'), () => {
    const files = sorted('charge.json', 'batch.ndjson', 'orders');
    expect(offered(shell, 'pinvoice invoice create --file ', 'pinvoice invoice create --batch b', 'pinvoice whoami --token-file ')).toEqual([files, ['batch.ndjson'], files]);
  });

  skip(title('completion offers the shells; sandbox clock and chaos their actions, after flags too'), () => {
    expect(offered(shell, 'pinvoice completion ', 'pinvoice sandbox clock ', 'pinvoice sandbox chaos ', 'pinvoice sandbox clock --profile local ')).toEqual([
      sorted('bash', 'zsh', 'fish'),
      sorted('show', 'advance', 'set', 'reset'),
      sorted('show', 'set', 'clear'),
      sorted('show', 'advance', 'set', 'reset'),
    ]);
  });

  skip(title('--profile and profile use offer the profiles stored by pinvoice login'), () => {
    expect(offered(shell, 'pinvoice invoice get --profile ', 'pinvoice profile use ', 'pinvoice profile use st')).toEqual([['local', 'staging'], ['local', 'staging'], ['staging']]);
  });

  skip(title('a flag waiting for its value offers no flags (and no files)'), () => {
    expect(offered(shell, 'pinvoice invoice create --amount ', 'pinvoice invoice refund 42 --reason ', 'pinvoice serve --port ')).toEqual([[], [], []]);
  });
});

describe('--flag=value', () => {
  it('bash completes the value after "=", split off as bash does (COMP_WORDBREAKS) or kept in the word', () => {
    expect(offered('bash', 'pinvoice invoice create --method = ', 'pinvoice invoice create --method = c', 'pinvoice invoice list --format=cs')).toEqual([
      sorted('pix', 'credit_card', 'boleto'),
      ['credit_card'],
      ['--format=csv'],
    ]);
  });

  it.skipIf(skipReason('zsh'))('zsh completes the value after "="', () => {
    expect(offered('zsh', 'pinvoice invoice create --method=c')).toEqual([['credit_card']]);
  });

  it.skipIf(skipReason('fish'))('fish completes the value after "="', () => {
    expect(offered('fish', 'pinvoice invoice create --method=c')).toEqual([['--method=credit_card']]);
  });
});

describe('installing the scripts', () => {
  it.skipIf(skipReason('zsh'))('zsh: the script loads from $fpath with compinit and registers itself when sourced, without a message', () => {
    const dir = join(work, 'zsh-fpath');
    mkdirSync(dir, { recursive: true });
    copyFileSync(scripts.zsh ?? '', join(dir, '_pinvoice'));
    const fromFpath = spawnSync('zsh', ['-f', '-c', `fpath=(${dir} $fpath); autoload -U compinit; compinit -u -D; print -r -- $_comps[pinvoice]`], { env, encoding: 'utf8' });
    expect(fromFpath.stderr).toBe('');
    expect(fromFpath.stdout).toBe('_pinvoice\n');
    const sourced = spawnSync('zsh', ['-f', '-c', `autoload -U compinit; compinit -u -D; source ${scripts.zsh}; print -r -- $_comps[pinvoice]`], { env, encoding: 'utf8' });
    expect(sourced.stderr).toBe('');
    expect(sourced.stdout).toBe('_pinvoice\n');
    const completed = spawnSync('zsh', ['-f', ZSH_COMPLETE, 'source', scripts.zsh ?? '', 'pinvoice completion '], { cwd: folder, env, encoding: 'utf8', timeout: 60_000 });
    expect(lines(completed, 'zsh').sort()).toEqual(sorted('bash', 'zsh', 'fish'));
  });

  it('bash: sourcing the script registers _pinvoice for pinvoice and prints nothing', () => {
    const result = spawnSync('bash', ['--norc', '-c', 'source "$1" && complete -p pinvoice', 'bash', scripts.bash ?? ''], { env, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('complete -F _pinvoice pinvoice\n');
  });

  it('profile list --names prints the names one per line, and nothing (creating no file) where there is no configuration', async () => {
    const names = await run(['profile', 'list', '--names'], { env: home });
    expect(names).toMatchObject({ code: 0, stdout: 'local\nstaging\n', stderr: '' });
    const fresh = tempHome();
    const none = await run(['profile', 'list', '--names'], { env: fresh });
    expect(none).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(fresh.XDG_CONFIG_HOME ?? '', 'pinvoice', 'config.json'))).toBe(false);
  });
});
