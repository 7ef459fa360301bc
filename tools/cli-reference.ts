// docs/cli.md, generated from the command tree as the completion scripts are: every command, its
// arguments, its flags with their defaults, and the examples its help ends with, all read from
// commander's own declarations. `npm run docs:cli` writes the file; test/unit/cli-reference.test.ts
// fails while it differs. Nothing here depends on the terminal or the date, so the output is stable.
import type { Argument, CommandUnknownOpts, Help, Option } from '@commander-js/extra-typings';
import type { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { codeSpan, markdownEscape } from '../src/base/markdown.js';

export { codeSpan };

export const CLI_REFERENCE = new URL('../docs/cli.md', import.meta.url);

/** Text for a Markdown paragraph or table cell: one line, with what Markdown or HTML would read as syntax escaped. */
export function markdownText(text: string): string {
  // `code` in a description stays code; the rest is plain text.
  return text.replace(/\s+/g, ' ').trim().split(/(`[^`]+`)/).map((part, i) => (i % 2 === 1 ? part.replace(/\|/g, '\\|') : markdownEscape(part))).join('');
}

/** A fenced block that no line of `body` can close early. */
function fenced(language: string, body: string): string {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${body}\n${fence}`;
}

/** What a command's help prints after its options (`addHelpText('after', …)`), as commander writes it. */
function afterHelp(command: CommandUnknownOpts): string {
  let text = '';
  // commander keeps that text as an 'afterHelp' listener: ask it to write, as `--help` does, into a string
  (command as unknown as EventEmitter).emit('afterHelp', { error: false, command, write: (chunk: string) => { text += chunk; } });
  return text;
}

/** The examples of src/commands/options.ts' `examples()` ("  $ " before each, a comment line above some; a continued line keeps its indent), and any other text. */
export function splitAfterHelp(text: string): { examples: string[]; other: string } {
  const at = text.indexOf('\nExamples:\n');
  if (at < 0) return { examples: [], other: text.trim() };
  const examples: string[] = [];
  // a comment too long to sit beside its command is the line above it ("  # why")
  let comment: string | undefined;
  for (const line of text.slice(at + '\nExamples:\n'.length).replace(/\n+$/, '').split('\n')) {
    if (line.startsWith('  # ')) comment = line.slice(2);
    else if (line.startsWith('  $ ')) {
      examples.push(comment === undefined ? line.slice(4) : `${comment}\n${line.slice(4)}`);
      comment = undefined;
    } else if (examples.length > 0) examples[examples.length - 1] += `\n${line}`;
  }
  return { examples, other: text.slice(0, at).trim() };
}

/** A default as commander's help shows it, when it shows one. */
function defaultOf(target: Option | Argument): string | undefined {
  if (target.defaultValue === undefined) return undefined;
  const shown = !('isBoolean' in target) || target.required || target.optional || typeof target.defaultValue === 'boolean';
  return shown ? (target.defaultValueDescription ?? JSON.stringify(target.defaultValue)) : undefined;
}

function describe(description: string, choices: readonly string[] | undefined): string {
  const text = markdownText(description);
  return choices ? `${text} (one of ${choices.map(codeSpan).join(', ')})` : text;
}

/** `path` is the words typed, the program's name first: ['pinvoice', 'invoice', 'create']. */
const anchor = (path: string[]) => path.join('-').toLowerCase().replace(/[^a-z0-9-]/g, '');
const title = (path: string[]) => path.join(' ');

function section(command: CommandUnknownOpts, path: string[], help: Help): string[] {
  const out = [`## ${title(path)}`, '', markdownText(command.description()), '', `Usage: ${codeSpan(help.commandUsage(command))}`];
  const subcommands = help.visibleCommands(command).filter((child) => command.commands.includes(child));
  if (subcommands.length > 0) {
    out.push('', '| command | what it does |', '| --- | --- |');
    for (const child of subcommands) out.push(`| [${codeSpan(title([...path, child.name()]))}](#${anchor([...path, child.name()])}) | ${markdownText(child.description())} |`);
  }
  const args = help.visibleArguments(command) as Argument[];
  if (args.length > 0) {
    out.push('', '| argument | default | description |', '| --- | --- | --- |');
    for (const arg of args) {
      const term = arg.required ? `<${arg.name()}>` : `[${arg.name()}]`;
      const fallback = defaultOf(arg);
      out.push(`| ${codeSpan(term)} | ${fallback === undefined ? '' : codeSpan(fallback)} | ${describe(arg.description, arg.argChoices)} |`);
    }
  }
  const options = help.visibleOptions(command) as Option[];
  if (options.length > 0) {
    out.push('', '| flag | default | description |', '| --- | --- | --- |');
    for (const option of options) {
      const fallback = defaultOf(option);
      out.push(`| ${codeSpan(option.flags)} | ${fallback === undefined ? '' : codeSpan(fallback)} | ${describe(option.description, option.argChoices)} |`);
    }
  }
  const { examples, other } = splitAfterHelp(afterHelp(command));
  if (examples.length > 0) out.push('', 'Examples:', '', fenced('sh', examples.join('\n')));
  if (other) out.push('', fenced('text', other));
  return out;
}

/** Every command of the tree, parents first, in commander's order (hidden ones left out, as help leaves them). */
function walk(command: CommandUnknownOpts, path: string[] = [command.name()], out: { command: CommandUnknownOpts; path: string[] }[] = []) {
  out.push({ command, path });
  for (const child of command.createHelp().visibleCommands(command)) {
    if (command.commands.includes(child)) walk(child, [...path, child.name()], out);
  }
  return out;
}

/** The whole of docs/cli.md for the tree `program`. */
export function cliReference(program: CommandUnknownOpts): string {
  const commands = walk(program);
  const intro = [
    '# Command reference',
    '',
    '<!-- Generated from the command tree by `npm run docs:cli` (tools/cli-reference.ts). Do not edit: change the',
    '     commands in src/commands/, then run `npm run docs:cli`; test/unit/cli-reference.test.ts fails while they differ. -->',
    '',
    'Every command, its arguments and flags, as `pinvoice <command> --help` shows them. What the commands',
    'do, and why, is told in the guides: [charges](charges.md), [pix and boleto codes](pix.md),',
    '[postbacks](postbacks.md), [the sandbox](sandbox.md), [`pinvoice serve`](serve.md), [CI](ci.md),',
    '[configuration](configuration.md), [the command line](cli-guide.md) and [production](production.md).',
    '',
    ...commands.map(({ path }) => `${'  '.repeat(Math.max(0, path.length - 2))}- [${codeSpan(title(path))}](#${anchor(path)})`),
  ];
  const sections = commands.map(({ command, path }) => section(command, path, command.createHelp()));
  return `${[intro, ...sections].map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { buildProgram } = await import('../src/program.js');
  const { packageVersion } = await import('../src/version.js');
  writeFileSync(CLI_REFERENCE, cliReference((await buildProgram(packageVersion()))));
  console.error(`wrote ${fileURLToPath(CLI_REFERENCE)}`);
}
