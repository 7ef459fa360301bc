// The fish completion script, made from the command tree (tree.ts): one `complete` line per
// subcommand, flag and positional argument, each under a condition naming its command path; two
// generated lookups (subcommands, flags that take a value) let the script find that path in the words.
import type { CommandNode, Flag, Positional, Values } from './tree.js';

/** A single-quoted fish word. */
const quote = (text: string) => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;

const at = (path: string[], position?: number) => `-n '__pinvoice_at "${path.join(' ')}"${position === undefined ? '' : ` ${position}`}'`;

/** What follows a flag, or what a positional argument offers. */
function valueArgs(values: Values): string {
  if (values.kind === 'files') return '-F';
  if (values.kind === 'profiles') return "-a '(__pinvoice_profiles)'";
  if (values.kind === 'none') return '';
  if (values.commaSeparated) return `-a '(__fish_append , ${values.words.join(' ')})'`;
  return `-a '${values.words.join(' ')}'`;
}

function flagLine(path: string[], flag: Flag): string {
  const names = flag.names.map((name) => (name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`));
  // -r: a value follows; -x: and it is no file name
  const value = !flag.value ? '' : flag.value.kind === 'files' ? ' -r -F' : ` -x ${valueArgs(flag.value)}`.trimEnd();
  return `complete -c pinvoice ${at(path)} ${names.join(' ')}${value} -d ${quote(flag.description)}`;
}

function positionalLine(path: string[], positional: Positional, index: number): string | undefined {
  const args = valueArgs(positional.value);
  return args === '' ? undefined : `complete -c pinvoice ${at(path, index + 1)} ${args} -d ${quote(positional.description)}`;
}

function lines(node: CommandNode): string[] {
  return [
    ...node.subcommands.map((c) => `complete -c pinvoice ${at(node.path)} -a ${c.name} -d ${quote(c.description)}`),
    ...node.flags.map((flag) => flagLine(node.path, flag)),
    ...node.positionals.flatMap((positional, index) => positionalLine(node.path, positional, index) ?? []),
  ];
}

const subcommandCases = (nodes: CommandNode[]) => nodes.filter((n) => n.subcommands.length > 0)
  .map((n) => `        case ${quote(n.path.join(' '))}\n            printf '%s\\n' ${n.subcommands.map((c) => c.name).join(' ')}`).join('\n');

const valueFlags = (nodes: CommandNode[]) => nodes.flatMap((n) => n.flags.filter((f) => f.value).flatMap((f) => f.names.map((name) => quote([...n.path, name].join(' ')))));

export function fishScript(nodes: CommandNode[]): string {
  return `# fish completion for pinvoice; generated from the command tree by \`pinvoice completion fish\`, do not edit.
# Install: pinvoice completion fish > ~/.config/fish/completions/pinvoice.fish

# The subcommands of a command path ("serve company"), one per line.
function __pinvoice_subcommands
    switch "$argv[1]"
${subcommandCases(nodes)}
    end
end

# Whether a flag of a command path takes a value ("invoice create" --file).
function __pinvoice_takes_value
    switch (string join ' ' -- $argv[1] $argv[2] | string trim)
        case ${valueFlags(nodes).join(' ')}
            return 0
    end
    return 1
end

# "N path": the command path typed so far and how many positional arguments follow it (flags and
# their values skipped); kept for the command line it was worked out for, as every condition asks.
function __pinvoice_state
    set -l words (commandline -opc)
    if test "$words" = "$__pinvoice_state_words"
        echo $__pinvoice_state_answer
        return
    end
    set -l path ''
    set -l positionals 0
    set -l value 0
    for word in $words[2..-1]
        if test $value = 1
            set value 0
            continue
        end
        switch $word
            case '--*=*'
                continue
            case '-*'
                __pinvoice_takes_value "$path" $word; and set value 1
                continue
        end
        if test $positionals = 0; and contains -- $word (__pinvoice_subcommands "$path")
            set path (string trim -- "$path $word")
        else
            set positionals (math $positionals + 1)
        end
    end
    set -g __pinvoice_state_words "$words"
    set -g __pinvoice_state_answer "$positionals $path"
    echo $__pinvoice_state_answer
end

# Whether the words typed are at a command path, and with a number, at that positional argument of it.
function __pinvoice_at --argument-names want position
    set -l state (string split -m 1 ' ' -- (__pinvoice_state))
    test "$state[2]" = "$want"; or return 1
    test -z "$position"; or test "$state[1]" -eq (math $position - 1)
end

# The stored profiles, as the pinvoice being completed reads them (its config directory, its file).
function __pinvoice_profiles
    set -l command (commandline -opc)[1]
    $command profile list --names 2>/dev/null
end

# No file names, except where a flag or argument takes a path.
complete -c pinvoice -f
${nodes.flatMap(lines).join('\n')}
`;
}
