// The bash completion script, made from the command tree (tree.ts). Two generated tables, each one
// `case`: the subcommands and flags of each command path, and what completes the value of each flag or
// positional argument that takes one; a fixed function walks the words typed and consults them.
import type { CommandNode, Values } from './tree.js';

/** " invoice create --file", as the script builds it from the words typed ("" for the root). */
const key = (path: string[], last?: string) => [...path, ...(last === undefined ? [] : [last])].map((word) => ` ${word}`).join('');

/** What the script's __pinvoice_complete takes: files, profiles, words:…, list:… (comma-separated), or "" (nothing). */
function reply(values: Values): string {
  if (values.kind === 'words') return `${values.commaSeparated ? 'list' : 'words'}:${values.words.join(' ')}`;
  return values.kind === 'none' ? '' : values.kind;
}

function wordsTable(nodes: CommandNode[]): string {
  return nodes.map((node) => {
    const commands = node.subcommands.map((c) => c.name).join(' ');
    const flags = node.flags.flatMap((flag) => flag.names).join(' ');
    return `    "${key(node.path)}") __pinvoice_commands="${commands}" __pinvoice_flags="${flags}" ;;`;
  }).join('\n');
}

/** One `case` arm per distinct reply, listing every flag ("… --file") and argument ("… #1") it answers. */
function valuesTable(nodes: CommandNode[]): string {
  const byReply = new Map<string, string[]>();
  const add = (k: string, values: Values) => byReply.set(reply(values), [...(byReply.get(reply(values)) ?? []), `"${k}"`]);
  for (const node of nodes) {
    for (const flag of node.flags) for (const name of flag.names) if (flag.value) add(key(node.path, name), flag.value);
    node.positionals.forEach((positional, index) => add(key(node.path, `#${index + 1}`), positional.value));
  }
  return [...byReply].map(([answer, keys]) => `    ${keys.join('|')}) __pinvoice_reply="${answer}" ;;`).join('\n');
}

export function bashScript(nodes: CommandNode[]): string {
  return `# bash completion for pinvoice; generated from the command tree by \`pinvoice completion bash\`, do not edit.
# Install: pinvoice completion bash > ~/.local/share/bash-completion/completions/pinvoice

# The subcommands and flags of a command path (" invoice create"), in __pinvoice_commands and __pinvoice_flags.
__pinvoice_words() {
  __pinvoice_commands="" __pinvoice_flags=""
  case "$1" in
${wordsTable(nodes)}
  esac
}

# What completes the value of a flag (" invoice create --file") or positional argument (" completion #1"),
# in __pinvoice_reply; fails for a flag that takes no value.
__pinvoice_value() {
  __pinvoice_reply=""
  case "$1" in
${valuesTable(nodes)}
    *) return 1 ;;
  esac
}

# COMPREPLY for a value: $1 what completes it (as __pinvoice_reply), $2 the word typed, $3 a prefix to keep (--flag=).
__pinvoice_complete() {
  local name done=""
  case "$1" in
    files)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$2") ;;
    profiles)
      # word by word, never through compgen -W, which would expand $(…) in a name
      for name in $("\${COMP_WORDS[0]}" profile list --names 2>/dev/null); do
        [[ $name == "$2"* ]] && COMPREPLY+=("$name")
      done ;;
    list:*)
      [[ $2 == *,* ]] && done="\${2%,*},"
      mapfile -t COMPREPLY < <(compgen -P "$done" -W "\${1#list:}" -- "\${2##*,}") ;;
    words:*) mapfile -t COMPREPLY < <(compgen -W "\${1#words:}" -- "$2") ;;
  esac
  if [[ -n $3 ]]; then COMPREPLY=("\${COMPREPLY[@]/#/$3}"); fi
}

_pinvoice() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" flag="" prefix="" word npos=0 i
  local __pinvoice_commands __pinvoice_flags __pinvoice_reply
  COMPREPLY=()
  # the command path, how many positional arguments follow it, and whether a flag waits for its value
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    # bash splits --flag=value at "=" (COMP_WORDBREAKS): "--flag" "=" "value"
    if [[ -n $flag ]]; then [[ $word == "=" ]] || flag=""; continue; fi
    case "$word" in
      --*=*) continue ;;
      -*) __pinvoice_value "$path $word" && flag="$word"; continue ;;
    esac
    __pinvoice_words "$path"
    if ((npos == 0)) && [[ " $__pinvoice_commands " == *" $word "* ]]; then path="$path $word"; else npos=$((npos + 1)); fi
  done
  if [[ -z $flag && $cur == --*=* ]]; then
    flag="\${cur%%=*}" prefix="\${cur%%=*}=" cur="\${cur#*=}"
    __pinvoice_value "$path $flag" || return 0
  fi
  if [[ -n $flag ]]; then
    [[ $cur == "=" ]] && cur=""
    __pinvoice_value "$path $flag"
    __pinvoice_complete "$__pinvoice_reply" "$cur" "$prefix"
    return 0
  fi
  __pinvoice_words "$path"
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$__pinvoice_flags" -- "$cur")
  elif [[ -n $__pinvoice_commands ]] && ((npos == 0)); then
    mapfile -t COMPREPLY < <(compgen -W "$__pinvoice_commands" -- "$cur")
  elif __pinvoice_value "$path #$((npos + 1))" && [[ -n $__pinvoice_reply ]]; then
    __pinvoice_complete "$__pinvoice_reply" "$cur" ""
  else
    mapfile -t COMPREPLY < <(compgen -W "$__pinvoice_flags" -- "$cur")
  fi
}
complete -F _pinvoice pinvoice
`;
}
