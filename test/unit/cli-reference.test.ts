// docs/cli.md as generated: it holds exactly what the command tree makes (tools/cli-reference.ts), as
// completions/ does for the completion scripts, so the reference cannot fall behind the commands.
import { Command, Option } from '@commander-js/extra-typings';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/program.js';
import { examples } from '../../src/commands/options.js';
import { packageVersion } from '../../src/version.js';
import { CLI_REFERENCE, cliReference, codeSpan, markdownText } from '../../tools/cli-reference.js';

describe('docs/cli.md', () => {
  it('is what the command tree makes', async () => {
    const committed = readFileSync(CLI_REFERENCE, 'utf8');
    const generated = cliReference((await buildProgram(packageVersion())));
    if (committed === generated) return;
    const [ours, theirs] = [committed.split('\n'), generated.split('\n')];
    const line = ours.findIndex((text, i) => text !== theirs[i]);
    expect.fail(`docs/cli.md differs from the command tree from line ${line + 1} (${JSON.stringify(theirs[line])}): run \`npm run docs:cli\``);
  });

  it('holds every command, its flags with their defaults, and the examples of its help', async () => {
    const reference = cliReference((await buildProgram(packageVersion())));
    expect(reference).toContain('## pinvoice serve token revoke\n');
    expect(reference).toContain('| `--port <number>` | `4010` | port to listen on (0 picks a free port) |');
    expect(reference).toMatch(/```sh\npinvoice invoice create {2,}# guided prompts on a terminal\n/);
    expect(reference).toContain('Exit codes:\n  0    success');
  });

  it('reads a small tree as its help shows it, without a terminal or a date', () => {
    const tool = new Command('tool').description('a <tool>').addCommand(
      new Command('run')
        .description('runs | things')
        .argument('[mode]', 'how', 'fast')
        .addOption(new Option('--level <n>', 'a level').default(3))
        .addOption(new Option('--kind <kind>', 'a kind').choices(['a', 'b']))
        .option('--quiet', 'say nothing')
        .addOption(new Option('--secret <x>', 'hidden').hideHelp())
        .addHelpText('after', examples('tool run --level 2', `tool run ${'x'.repeat(40)} ${'y'.repeat(40)}   # why`)),
    );
    const reference = cliReference(tool);
    expect(reference).toContain('a \\<tool\\>');
    expect(reference).toContain('## tool run\n');
    expect(reference).toContain('| [`tool run`](#tool-run) | runs \\| things |');
    expect(reference).toContain('| `[mode]` | `"fast"` | how |');
    expect(reference).toContain('| `--level <n>` | `3` | a level |');
    expect(reference).toContain('| `--kind <kind>` |  | a kind (one of `a`, `b`) |');
    expect(reference).toContain('| `--quiet` |  | say nothing |');
    expect(reference).not.toContain('--secret');
    // wider than 80 columns: the comment above, the command folded with " \\"
    expect(reference).toContain(`\`\`\`sh\ntool run --level 2\n# why\ntool run ${'x'.repeat(40)} \\\n     ${'y'.repeat(40)}\n\`\`\``);
  });

  it('escapes what Markdown would read as syntax, and keeps code spans whole', () => {
    expect(markdownText('a <b> | *c* [d](e) & f_ PINVOICE_TOKEN `x|y`')).toBe('a \\<b\\> \\| \\*c\\* \\[d\\](e) \\& f\\_ PINVOICE_TOKEN `x\\|y`');
    expect(codeSpan('a|b')).toBe('`a\\|b`');
    expect(codeSpan('a `b` c')).toBe('`` a `b` c ``');
  });
});
