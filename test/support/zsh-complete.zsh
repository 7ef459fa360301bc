# What zsh's completion system offers for command lines: an interactive `zsh -f` driven on a
# pseudo-terminal by the zsh/zpty module, with TAB bound to complete-word and compadd wrapped to print
# each match instead of inserting it (the technique of Valodim's zsh-capture-completion). The
# completion script is loaded as a user would: `fpath` puts its directory on $fpath before compinit
# (the #compdef route), `source` sources it after compinit. For each line, in turn: its matches, one
# per line, then an empty line.
#   zsh -f zsh-complete.zsh fpath|source <script> '<command line>'...
# Inside the driven shell this file is sourced again with --init, to set that shell up.

if [[ $1 == --init ]]; then
  PROMPT='' RPROMPT=''
  [[ $2 == fpath ]] && fpath=(${3:h} $fpath)
  autoload -U compinit && compinit -u -D
  [[ $2 == source ]] && source $3
  bindkey -e
  bindkey '^I' complete-word
  # never run a line
  bindkey '^M' undefined
  bindkey '^J' undefined
  zstyle ':completion:*' insert-tab false
  zstyle ':completion:*' list-grouped false
  # a line holding only NUL before the matches and after them
  __capture_mark() { print -rn -- $'\0\n' }
  __capture_hooks() {
    compprefuncs=(__capture_mark)
    comppostfuncs=(__capture_mark __capture_hooks)
  }
  __capture_hooks
  compadd() {
    # compadd's own queries (-O, -A, -D: matches into an array) are not additions: let them through
    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
      builtin compadd "$@"
      return
    fi
    local -a __hits
    builtin compadd -A __hits "$@"
    (( $#__hits )) && print -rl -- $__hits
  }
  print -r -- capture-ready
  return
fi

zmodload zsh/zpty || { print -u2 'zsh-complete: no zsh/zpty module'; exit 3 }
zpty capture zsh -f -i
zpty -w capture "source ${(q)0:A} --init ${(q)1} ${(q)2:A}"
local line
repeat 50; do
  zpty -r capture line || break
  [[ $line == *capture-ready* ]] && break
done
integer marks
for typed in ${@[3,-1]}; do
  # ^U empties the line the last completion left
  zpty -w -n capture $'\C-u'"$typed"$'\t'
  marks=0
  # the line typed comes back first (the terminal echoes it), then the marks and the matches
  while zpty -r capture line; do
    line=${line%$'\n'}
    line=${line%$'\r'}
    if [[ $line == *$'\0'* ]]; then
      (( ++marks == 2 )) && break
      continue
    fi
    (( marks == 1 )) && print -r -- $line
  done
  (( marks == 2 )) || { print -u2 "zsh-complete: the completion of '$typed' did not finish"; exit 2 }
  print
done
zpty -d capture
