// The command tree as the completion scripts see it: each command's path, subcommands, flags and
// positional arguments, and what completes each value, all read from commander's own declarations
// (choices, the `<path>` value name, the marks of options.ts' `completes`), so no list is kept twice.
import type { Argument, CommandUnknownOpts, Option } from '../commander.js';
import { collect, completionHint } from '../options.js';

/** What a shell offers for a value: words (several, comma-separated, when `commaSeparated`), file names, profile names, or nothing. */
export type Values =
  | { kind: 'words'; words: readonly string[]; commaSeparated: boolean }
  | { kind: 'files' }
  | { kind: 'profiles' }
  | { kind: 'none' };

export interface Flag {
  /** `--file` and `-y`: the forms typed (at least one) */
  names: string[];
  description: string;
  /** what follows the flag: undefined for a switch */
  value?: Values;
  /** `<path>`'s "path": what the value is called */
  valueName: string;
  /** may be given more than once (--item, --metadata) */
  repeatable: boolean;
}

export interface Positional {
  name: string;
  description: string;
  required: boolean;
  value: Values;
}

export interface CommandNode {
  /** the words after `pinvoice`: [] for the root, ['invoice', 'create'] */
  path: string[];
  subcommands: { name: string; description: string }[];
  flags: Flag[];
  positionals: Positional[];
}

/** Words go into shell code unquoted: a value commander offers must be a plain word. */
const PLAIN_WORD = /^[A-Za-z0-9_.:@%+-]+$/;

/** One line, short enough for a completion menu. */
export function summary(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79).trimEnd()}…` : line;
}

function wordsOf(words: readonly string[], commaSeparated = false): Values {
  const odd = words.find((word) => !PLAIN_WORD.test(word));
  if (odd !== undefined) throw new Error(`completion: "${odd}" is not a plain word a shell can offer`);
  return { kind: 'words', words, commaSeparated };
}

/** What completes the value of an option or argument whose value is called `valueName`. */
function valuesOf(target: Option | Argument, valueName: string): Values {
  const hint = completionHint(target);
  if (hint === 'profiles') return { kind: 'profiles' };
  if (hint) return wordsOf(hint.words, hint.commaSeparated);
  if (target.argChoices) return wordsOf(target.argChoices);
  if (/^(path|file)$/.test(valueName)) return { kind: 'files' };
  return { kind: 'none' };
}

function flagOf(option: Option): Flag {
  const valueName = /[<[]([^>\]]*?)(\.\.\.)?[>\]]/.exec(option.flags)?.[1] ?? '';
  const takesValue = option.required || option.optional;
  return {
    names: [option.long, option.short].filter((name): name is string => Boolean(name)),
    description: summary(option.description),
    ...(takesValue && { value: valuesOf(option, valueName) }),
    valueName,
    repeatable: option.variadic || option.parseArg === collect,
  };
}

const positionalOf = (argument: Argument): Positional => ({
  name: argument.name(),
  description: summary(argument.description),
  required: argument.required,
  value: valuesOf(argument, argument.name()),
});

/** Every command of the tree, parents first, as commander's help shows it (hidden commands and options left out). */
export function commandNodes(command: CommandUnknownOpts, path: string[] = [], out: CommandNode[] = []): CommandNode[] {
  const help = command.createHelp();
  const visible = new Set(help.visibleCommands(command));
  const subcommands = command.commands.filter((child) => visible.has(child));
  out.push({
    path,
    subcommands: subcommands.map((child) => ({ name: child.name(), description: summary(child.description()) })),
    flags: help.visibleOptions(command).map((option) => flagOf(option as Option)),
    positionals: command.registeredArguments.map((argument) => positionalOf(argument as Argument)),
  });
  for (const child of subcommands) commandNodes(child, [...path, child.name()], out);
  return out;
}
