import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionScript, SHELLS } from '../../src/commands/completion/script.js';
import { buildProgram } from '../../src/program.js';
import { packageVersion } from '../../src/version.js';

const FILES = { bash: 'pinvoice.bash', zsh: '_pinvoice', fish: 'pinvoice.fish' } as const;
const script = (shell: string) => completionScript(buildProgram(packageVersion()), shell);
const hasShell = (shell: string) => spawnSync(shell, ['-c', 'true']).status === 0;

/** What bash completes for the words typed so far (the last one being completed). */
function bashComplete(...words: string[]): string[] {
  const program = `${script('bash')}
COMP_WORDS=(pinvoice ${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length}; _pinvoice; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('completion scripts', () => {
  it.each(SHELLS)('completions/ holds the %s script generated from the command tree (run `npm run completions` after changing commands)', (shell) => {
    const committed = readFileSync(new URL(`../../completions/${FILES[shell]}`, import.meta.url), 'utf8');
    expect(committed).toBe(script(shell));
  });

  it('bash completes commands, subcommands and flags at each level', () => {
    expect(bashComplete('se')).toEqual(['serve']);
    expect(bashComplete('serve', 'co')).toEqual(['company']);
    expect(bashComplete('serve', 'company', '')).toEqual(expect.arrayContaining(['add', 'list']));
    expect(bashComplete('serve', '--port', '0', '--p')).toEqual(['--port', '--pix-expiry', '--postback-attempts', '--postback-base-delay', '--postback-timeout']);
    expect(bashComplete('webhooks', '')).toEqual(['listen', 'verify', 'secret', '--help', '-h']);
    expect(bashComplete('serve', 'company', 'add', '--c')).toEqual(['--corporate-reason', '--cnpj']);
  });

  it.each(['zsh', 'fish'])('the %s script is valid syntax (where that shell is installed)', (shell) => {
    if (!hasShell(shell)) return expect(script(shell)).toContain('pinvoice');
    const file = join(mkdtempSync(join(tmpdir(), 'pinvoice-completion-')), 'script');
    writeFileSync(file, script(shell));
    const result = spawnSync(shell, ['-n', file]);
    expect(result.stderr.toString()).toBe('');
    expect(result.status).toBe(0);
  });

  it('fish completes subcommands and flags (where fish is installed)', () => {
    if (!hasShell('fish')) return expect(script('fish')).toContain('__pinvoice_path_is');
    const file = join(mkdtempSync(join(tmpdir(), 'pinvoice-completion-')), 'pinvoice.fish');
    writeFileSync(file, script('fish'));
    const complete = (line: string) =>
      execFileSync('fish', ['-c', `source ${file}; complete -C '${line}'`], { encoding: 'utf8' }).split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    expect(complete('pinvoice serve co')).toEqual(['company']);
    expect(complete('pinvoice serve company add --c')).toEqual(expect.arrayContaining(['--corporate-reason', '--cnpj']));
  });

  it('rejects an unknown shell with a usage error', () => {
    expect(() => script('tcsh')).toThrow(/unknown shell "tcsh"/);
  });
});
