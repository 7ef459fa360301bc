// The zsh completion script, made from the command tree (tree.ts): one function per command, each an
// `_arguments` call (flags with what completes their values, positional arguments), and for a command
// with subcommands a `_describe` of them and a dispatch to theirs. Loads from $fpath or by `source`.
import type { CommandNode, Flag, Positional, Values } from './tree.js';

/** A single-quoted zsh word. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
/** Text inside an _arguments spec, where `[`, `]`, `:` and `\` have meanings. */
const specText = (text: string) => text.replace(/[\\[\]:]/g, (c) => `\\${c}`);

const functionName = (path: string[]) => ['_pinvoice', ...path].join('_').replace(/[^A-Za-z0-9_]/g, '_');

function action(values: Values, name: string): string {
  if (values.kind === 'files') return '_files';
  if (values.kind === 'profiles') return '_pinvoice_profiles';
  if (values.kind === 'none') return ' ';
  if (values.commaSeparated) return `_values -s , ${name} ${values.words.join(' ')}`;
  return `(${values.words.join(' ')})`;
}

function flagSpec(flag: Flag): string {
  const names = flag.value ? flag.names.map((name) => (name.startsWith('--') ? `${name}=` : `${name}+`)) : flag.names;
  const value = flag.value ? `:${specText(flag.valueName || 'value')}:${action(flag.value, flag.valueName || 'value')}` : '';
  const rest = `[${specText(flag.description)}]${value}`;
  if (names.length === 1) return quote(`${flag.repeatable ? '*' : ''}${names[0]}${rest}`);
  const exclusive = flag.repeatable ? '*' : `(${flag.names.join(' ')})`;
  return `${quote(exclusive)}{${names.join(',')}}${quote(rest)}`;
}

const positionalSpec = (positional: Positional, index: number) =>
  quote(`${index + 1}:${positional.required ? '' : ':'}${specText(positional.name)}:${action(positional.value, positional.name)}`);

/** `prelude`: the first lines of the function's body (the root keeps the command word typed, for _pinvoice_profiles). */
function commandFunction(node: CommandNode, prelude = ''): string {
  const specs = [...node.flags.map(flagSpec), ...node.positionals.map(positionalSpec)];
  const name = functionName(node.path);
  if (node.subcommands.length === 0) return `${name}() {\n${prelude}  _arguments -s -S \\\n    ${specs.join(' \\\n    ')}\n}`;
  const commands = node.subcommands.map((c) => `    ${quote(`${specText(c.name)}:${c.description}`)}`).join('\n');
  const dispatch = node.subcommands.map((c) => `        ${c.name}) ${functionName([...node.path, c.name])} && ret=0 ;;`).join('\n');
  const context = ['pinvoice', ...node.path].join('-');
  return `${name}() {
${prelude}  local curcontext="$curcontext" state state_descr line ret=1
  local -a subcommands=(
${commands}
  )
  typeset -A opt_args
  _arguments -C -s -S \\
    ${[...specs, quote('1: :->command'), quote('*:: :->argument')].join(' \\\n    ')} && ret=0
  case $state in
    command) _describe -t commands ${quote(`${['pinvoice', ...node.path].join(' ')} command`)} subcommands && ret=0 ;;
    argument)
      curcontext="\${curcontext%:*:*}:${context}-$words[1]:"
      case $words[1] in
${dispatch}
      esac ;;
  esac
  return ret
}`;
}

export function zshScript(nodes: CommandNode[]): string {
  const [root, ...rest] = nodes.map((node, index) => commandFunction(node, index === 0 ? '  local _pinvoice_command=$words[1]\n' : ''));
  return `#compdef pinvoice
# zsh completion for pinvoice; generated from the command tree by \`pinvoice completion zsh\`, do not edit.
# Install: pinvoice completion zsh > "\${fpath[1]}/_pinvoice" (then start a new zsh),
# or, in ~/.zshrc after compinit: source <(pinvoice completion zsh)

# The stored profiles, as the pinvoice being completed reads them (its config directory, its file).
_pinvoice_profiles() {
  local -a profiles
  profiles=(\${(f)"$(_call_program profiles "$_pinvoice_command" profile list --names 2>/dev/null)"})
  _describe -t profiles 'profile' profiles
}

${rest.join('\n\n')}

${root ?? ''}

# Autoloaded from $fpath, this file is the body of _pinvoice: complete. Sourced: register the function.
if [[ $funcstack[1] == _pinvoice ]]; then
  _pinvoice "$@"
else
  compdef _pinvoice pinvoice
fi
`;
}
