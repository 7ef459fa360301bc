// The completion scripts as generated: completions/ holds exactly what the command tree makes, and the
// generator reads what completes each value from the tree's own declarations. Each shell running the
// scripts is test/e2e/completion-shells.test.ts.
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { completionScript, SHELLS } from '../../src/commands/completion/script.js';
import { commandNodes } from '../../src/commands/completion/tree.js';
import { collect, completes } from '../../src/commands/options.js';
import { buildProgram } from '../../src/program.js';
import { packageVersion } from '../../src/version.js';

const FILES = { bash: 'pinvoice.bash', zsh: '_pinvoice', fish: 'pinvoice.fish' } as const;
const program = await buildProgram(packageVersion());
const script = (shell: string) => completionScript(program, shell);

/** A small tree declared as the command groups declare theirs. */
function sampleTree() {
  const add = new Command('add')
    .argument('<name>', 'a free-form name')
    .addArgument(completes(new Argument('[profile]', 'a stored profile'), 'profiles'))
    .option('--in <path>', 'a file to read')
    .option('--count <n>', 'a number')
    .option('--tag <tag>', 'repeatable', collect)
    .option('-q, --quiet', 'a switch')
    .addOption(new Option('--mode <mode>', 'fixed values').choices(['fast', 'safe']))
    .addOption(completes(new Option('--kinds <kinds>', 'several, comma-separated'), { words: ['a', 'b'], commaSeparated: true }))
    .addOption(new Option('--secret <x>', 'hidden').hideHelp());
  return new Command('tool').addCommand(new Command('thing').description('a group').addCommand(add));
}

describe('completion scripts', () => {
  it.each(SHELLS)('completions/ holds the %s script generated from the command tree (run `npm run completions` after changing commands)', (shell) => {
    const committed = readFileSync(new URL(`../../completions/${FILES[shell]}`, import.meta.url), 'utf8');
    expect(committed).toBe(script(shell));
  });

  it('reads what completes each value from the declarations: choices, a <path> value name, the completes() mark; anything else takes nothing', () => {
    const [root, group, add] = commandNodes(sampleTree());
    expect(root?.subcommands).toEqual([{ name: 'thing', description: 'a group' }]);
    expect(group?.path).toEqual(['thing']);
    expect(add?.path).toEqual(['thing', 'add']);
    const flag = (name: string) => add?.flags.find((f) => f.names.includes(name));
    expect(flag('--in')?.value).toEqual({ kind: 'files' });
    expect(flag('--count')?.value).toEqual({ kind: 'none' });
    expect(flag('--mode')?.value).toEqual({ kind: 'words', words: ['fast', 'safe'], commaSeparated: false });
    expect(flag('--kinds')?.value).toEqual({ kind: 'words', words: ['a', 'b'], commaSeparated: true });
    expect(flag('--quiet')?.names).toEqual(['--quiet', '-q']);
    expect(flag('--quiet')?.value).toBeUndefined();
    expect(flag('--tag')?.repeatable).toBe(true);
    expect(flag('--secret')).toBeUndefined();
    expect(add?.positionals.map((p) => [p.name, p.required, p.value.kind])).toEqual([['name', true, 'none'], ['profile', false, 'profiles']]);
  });

  it('every flag that names a file declares its value as <path>, so that the shells offer file names', () => {
    const named = /^--(file|batch|out|db|body|fixtures|write-env|[\w-]+-file)$/;
    const pathFlags = commandNodes(program).flatMap((node) =>
      node.flags.filter((flag) => flag.names.some((name) => named.test(name))).map((flag) => [`${node.path.join(' ')} ${flag.names[0]}`, flag.value?.kind]));
    expect(pathFlags.length).toBeGreaterThan(10);
    expect(pathFlags.filter(([, kind]) => kind !== 'files')).toEqual([]);
  });

  it('refuses a choice no shell could offer as a plain word', () => {
    const odd = new Command('tool').addOption(new Option('--x <x>', 'x').choices(['a b']));
    expect(() => commandNodes(odd)).toThrow(/"a b" is not a plain word/);
  });

  it('takes the tree it is given: nothing in src/commands/completion imports program.ts', () => {
    const dir = new URL('../../src/commands/completion/', import.meta.url);
    for (const file of readdirSync(dir)) expect(readFileSync(new URL(file, dir), 'utf8'), file).not.toMatch(/program\.js/);
  });

  it('rejects an unknown shell with a usage error', () => {
    expect(() => script('tcsh')).toThrow(/unknown shell "tcsh"/);
  });
});
