# bash completion for pinvoice; generated from the command tree by `pinvoice completion bash`, do not edit.
# Install: pinvoice completion bash > ~/.local/share/bash-completion/completions/pinvoice

# The subcommands and flags of a command path (" invoice create"), in __pinvoice_commands and __pinvoice_flags.
__pinvoice_words() {
  __pinvoice_commands="" __pinvoice_flags=""
  case "$1" in
    "") __pinvoice_commands="login logout whoami company profile invoice sandbox logs drift dashboard webhooks events pix boleto serve proxy openapi completion" __pinvoice_flags="--version -V --help -h" ;;
    " login") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --timeout --token-stdin --token-file --no-input --force --help -h" ;;
    " logout") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --yes -y --help -h" ;;
    " whoami") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --help -h" ;;
    " company") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --help -h" ;;
    " profile") __pinvoice_commands="list use" __pinvoice_flags="--help -h" ;;
    " profile list") __pinvoice_commands="" __pinvoice_flags="--json --no-color --help -h" ;;
    " profile use") __pinvoice_commands="" __pinvoice_flags="--help -h" ;;
    " invoice") __pinvoice_commands="get list create refund 3ds open" __pinvoice_flags="--help -h" ;;
    " invoice get") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --qr --no-qr --qr-theme --watch --timeout --interval --help -h" ;;
    " invoice list") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --status --method --payer --external-id --since --until --min --max --limit --all --page-size --format --help -h" ;;
    " invoice create") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --qr --no-qr --qr-theme --file --batch --concurrency --out --method --amount --item --payer-name --payer-email --payer-document --payer-phone --payer-zip --payer-address --payer-number --payer-complement --payer-neighborhood --payer-city --payer-state --tangible --postback-url --ip --external-id --metadata --card-token --installments --idempotency-key --dry-run --allow-unknown-fields --no-input --full --help -h" ;;
    " invoice refund") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --yes -y --amount --reason --idempotency-key --full --help -h" ;;
    " invoice 3ds") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --cavv --xid --eci --version --referenceid --file --sample --help -h" ;;
    " invoice open") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --print --help -h" ;;
    " sandbox") __pinvoice_commands="pay expire cancel chargeback clock chaos webhook-signing scenarios" __pinvoice_flags="--help -h" ;;
    " sandbox pay") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --yes -y --full --help -h" ;;
    " sandbox expire") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --yes -y --full --help -h" ;;
    " sandbox cancel") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --yes -y --full --help -h" ;;
    " sandbox chargeback") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --yes -y --full --help -h" ;;
    " sandbox clock") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --help -h" ;;
    " sandbox chaos") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --duplicate --delay --reorder --drop-first --bad-signature --invoice --help -h" ;;
    " sandbox webhook-signing") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --help -h" ;;
    " sandbox scenarios") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --help -h" ;;
    " logs") __pinvoice_commands="tail list show clear export" __pinvoice_flags="--help -h" ;;
    " logs tail") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --method --status --path --charge --direction --journal --help -h" ;;
    " logs list") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --method --status --path --charge --direction --journal --limit --after --help -h" ;;
    " logs show") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --journal --help -h" ;;
    " logs clear") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --yes -y --help -h" ;;
    " logs export") __pinvoice_commands="" __pinvoice_flags="--journal --records --fixtures --charge --help -h" ;;
    " drift") __pinvoice_commands="" __pinvoice_flags="--journal --since --operation --format --json --fail-on --accept --against --profile --token-file --utc --no-color --help -h" ;;
    " dashboard") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --print --help -h" ;;
    " webhooks") __pinvoice_commands="listen verify secret" __pinvoice_flags="--help -h" ;;
    " webhooks listen") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --host --port --forward-to --secret-file --signed-with --count --timeout --tolerance --help -h" ;;
    " webhooks verify") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --body --signature --secret-file --signed-with --tolerance --help -h" ;;
    " webhooks secret") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --env --help -h" ;;
    " events") __pinvoice_commands="list resend" __pinvoice_flags="--help -h" ;;
    " events list") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --help -h" ;;
    " events resend") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --idempotency-key --help -h" ;;
    " pix") __pinvoice_commands="decode verify pay" __pinvoice_flags="--help -h" ;;
    " pix decode") __pinvoice_commands="" __pinvoice_flags="--json --no-color --help -h" ;;
    " pix verify") __pinvoice_commands="" __pinvoice_flags="--ca --cod-mun --timeout --json --no-color --help -h" ;;
    " pix pay") __pinvoice_commands="" __pinvoice_flags="--profile --base-url --debug --no-color --json --utc --token-file --timeout --ca --cod-mun --yes -y --help -h" ;;
    " boleto") __pinvoice_commands="decode" __pinvoice_flags="--help -h" ;;
    " boleto decode") __pinvoice_commands="" __pinvoice_flags="--json --no-color --help -h" ;;
    " serve") __pinvoice_commands="company ca token" __pinvoice_flags="--host --port --db --tls --public-host --allowed-host --token --seed --clock --write-env --fixtures --db-timeout --durability --pix-expiry --boleto-due-days --boleto-grace-days --rate-limit --journal --journal-max-bytes --postback-attempts --postback-base-delay --postback-timeout --metrics --metrics-token-file --memory --log-format --help -h" ;;
    " serve company") __pinvoice_commands="add list" __pinvoice_flags="--help -h" ;;
    " serve company add") __pinvoice_commands="" __pinvoice_flags="--db --name --corporate-reason --cnpj --sign-with --json --help -h" ;;
    " serve company list") __pinvoice_commands="" __pinvoice_flags="--db --json --help -h" ;;
    " serve ca") __pinvoice_commands="" __pinvoice_flags="--db --help -h" ;;
    " serve token") __pinvoice_commands="add list revoke" __pinvoice_flags="--help -h" ;;
    " serve token add") __pinvoice_commands="" __pinvoice_flags="--company --name --read-only --db --json --help -h" ;;
    " serve token list") __pinvoice_commands="" __pinvoice_flags="--company --db --json --help -h" ;;
    " serve token revoke") __pinvoice_commands="" __pinvoice_flags="--company --db --json --help -h" ;;
    " proxy") __pinvoice_commands="ca" __pinvoice_flags="--to --host --port --journal --journal-max --journal-max-bytes --allow-writes --max-amount --timeout --forward --record --replay --ignore --strict --write-env --help -h" ;;
    " proxy ca") __pinvoice_commands="" __pinvoice_flags="--journal --to --help -h" ;;
    " openapi") __pinvoice_commands="" __pinvoice_flags="--help -h" ;;
    " completion") __pinvoice_commands="" __pinvoice_flags="--help -h" ;;
  esac
}

# What completes the value of a flag (" invoice create --file") or positional argument (" completion #1"),
# in __pinvoice_reply; fails for a flag that takes no value.
__pinvoice_value() {
  __pinvoice_reply=""
  case "$1" in
    " login --profile"|" logout --profile"|" whoami --profile"|" company --profile"|" profile use #1"|" invoice get --profile"|" invoice list --profile"|" invoice create --profile"|" invoice refund --profile"|" invoice 3ds --profile"|" invoice open --profile"|" sandbox pay --profile"|" sandbox expire --profile"|" sandbox cancel --profile"|" sandbox chargeback --profile"|" sandbox clock --profile"|" sandbox chaos --profile"|" sandbox webhook-signing --profile"|" sandbox scenarios --profile"|" logs tail --profile"|" logs list --profile"|" logs show --profile"|" logs clear --profile"|" dashboard --profile"|" webhooks listen --profile"|" webhooks verify --profile"|" webhooks secret --profile"|" events list --profile"|" events resend --profile"|" pix pay --profile") __pinvoice_reply="profiles" ;;
    " login --base-url"|" login --timeout"|" logout --base-url"|" whoami --base-url"|" whoami --timeout"|" company --base-url"|" company --timeout"|" invoice get --base-url"|" invoice get --timeout"|" invoice get --interval"|" invoice get #1"|" invoice list --base-url"|" invoice list --timeout"|" invoice list --payer"|" invoice list --external-id"|" invoice list --since"|" invoice list --until"|" invoice list --min"|" invoice list --max"|" invoice list --limit"|" invoice list --page-size"|" invoice create --base-url"|" invoice create --timeout"|" invoice create --concurrency"|" invoice create --amount"|" invoice create --item"|" invoice create --payer-name"|" invoice create --payer-email"|" invoice create --payer-document"|" invoice create --payer-phone"|" invoice create --payer-zip"|" invoice create --payer-address"|" invoice create --payer-number"|" invoice create --payer-complement"|" invoice create --payer-neighborhood"|" invoice create --payer-city"|" invoice create --payer-state"|" invoice create --postback-url"|" invoice create --ip"|" invoice create --external-id"|" invoice create --metadata"|" invoice create --card-token"|" invoice create --installments"|" invoice create --idempotency-key"|" invoice refund --base-url"|" invoice refund --timeout"|" invoice refund --amount"|" invoice refund --reason"|" invoice refund --idempotency-key"|" invoice refund #1"|" invoice 3ds --base-url"|" invoice 3ds --timeout"|" invoice 3ds --cavv"|" invoice 3ds --xid"|" invoice 3ds --eci"|" invoice 3ds --version"|" invoice 3ds --referenceid"|" invoice 3ds #1"|" invoice open --base-url"|" invoice open --timeout"|" invoice open #1"|" sandbox pay --base-url"|" sandbox pay --timeout"|" sandbox pay #1"|" sandbox expire --base-url"|" sandbox expire --timeout"|" sandbox expire #1"|" sandbox cancel --base-url"|" sandbox cancel --timeout"|" sandbox cancel #1"|" sandbox chargeback --base-url"|" sandbox chargeback --timeout"|" sandbox chargeback #1"|" sandbox clock --base-url"|" sandbox clock --timeout"|" sandbox clock #2"|" sandbox chaos --base-url"|" sandbox chaos --timeout"|" sandbox chaos --delay"|" sandbox chaos --drop-first"|" sandbox chaos --invoice"|" sandbox webhook-signing --base-url"|" sandbox webhook-signing --timeout"|" sandbox scenarios --base-url"|" sandbox scenarios --timeout"|" logs tail --base-url"|" logs tail --timeout"|" logs tail --status"|" logs tail --path"|" logs tail --charge"|" logs list --base-url"|" logs list --timeout"|" logs list --status"|" logs list --path"|" logs list --charge"|" logs list --limit"|" logs list --after"|" logs show --base-url"|" logs show --timeout"|" logs show #1"|" logs clear --base-url"|" logs clear --timeout"|" logs export --charge"|" drift --since"|" drift --operation"|" drift --against"|" drift --profile"|" dashboard --base-url"|" dashboard --timeout"|" webhooks listen --base-url"|" webhooks listen --host"|" webhooks listen --port"|" webhooks listen --forward-to"|" webhooks listen --count"|" webhooks listen --timeout"|" webhooks listen --tolerance"|" webhooks verify --base-url"|" webhooks verify --timeout"|" webhooks verify --signature"|" webhooks verify --tolerance"|" webhooks secret --base-url"|" webhooks secret --timeout"|" events list --base-url"|" events list --timeout"|" events list #1"|" events resend --base-url"|" events resend --timeout"|" events resend --idempotency-key"|" events resend #1"|" pix decode #1"|" pix verify --cod-mun"|" pix verify --timeout"|" pix verify #1"|" pix pay --base-url"|" pix pay --timeout"|" pix pay --cod-mun"|" pix pay #1"|" boleto decode #1"|" serve --host"|" serve --port"|" serve --public-host"|" serve --allowed-host"|" serve --token"|" serve --seed"|" serve --clock"|" serve --db-timeout"|" serve --pix-expiry"|" serve --boleto-due-days"|" serve --boleto-grace-days"|" serve --rate-limit"|" serve --journal"|" serve --journal-max-bytes"|" serve --postback-attempts"|" serve --postback-base-delay"|" serve --postback-timeout"|" serve company add --name"|" serve company add --corporate-reason"|" serve company add --cnpj"|" serve token add --company"|" serve token add --name"|" serve token list --company"|" serve token revoke --company"|" serve token revoke #1"|" proxy --to"|" proxy --host"|" proxy --port"|" proxy --journal-max"|" proxy --journal-max-bytes"|" proxy --max-amount"|" proxy --timeout"|" proxy --ignore"|" proxy ca --to") __pinvoice_reply="" ;;
    " login --token-file"|" whoami --token-file"|" company --token-file"|" invoice get --token-file"|" invoice list --token-file"|" invoice create --token-file"|" invoice create --file"|" invoice create --batch"|" invoice create --out"|" invoice refund --token-file"|" invoice 3ds --token-file"|" invoice 3ds --file"|" invoice open --token-file"|" sandbox pay --token-file"|" sandbox expire --token-file"|" sandbox cancel --token-file"|" sandbox chargeback --token-file"|" sandbox clock --token-file"|" sandbox chaos --token-file"|" sandbox webhook-signing --token-file"|" sandbox scenarios --token-file"|" logs tail --token-file"|" logs tail --journal"|" logs list --token-file"|" logs list --journal"|" logs show --token-file"|" logs show --journal"|" logs clear --token-file"|" logs export --journal"|" logs export --records"|" logs export --fixtures"|" drift --journal"|" drift --accept"|" drift --token-file"|" dashboard --token-file"|" webhooks listen --token-file"|" webhooks listen --secret-file"|" webhooks verify --token-file"|" webhooks verify --body"|" webhooks verify --secret-file"|" webhooks secret --token-file"|" events list --token-file"|" events resend --token-file"|" pix verify --ca"|" pix pay --token-file"|" pix pay --ca"|" serve --db"|" serve --write-env"|" serve --fixtures"|" serve --metrics-token-file"|" serve company add --db"|" serve company list --db"|" serve ca --db"|" serve token add --db"|" serve token list --db"|" serve token revoke --db"|" proxy --journal"|" proxy --record"|" proxy --replay"|" proxy --write-env"|" proxy ca --journal") __pinvoice_reply="files" ;;
    " invoice get --qr-theme"|" invoice create --qr-theme") __pinvoice_reply="words:dark light" ;;
    " invoice list --status") __pinvoice_reply="list:pending waiting_3ds paid refused expired canceled refunded chargedback" ;;
    " invoice list --method") __pinvoice_reply="list:pix credit_card boleto" ;;
    " invoice list --format") __pinvoice_reply="words:table json ndjson csv" ;;
    " invoice create --method") __pinvoice_reply="words:pix credit_card boleto" ;;
    " sandbox clock #1") __pinvoice_reply="words:show advance set reset" ;;
    " sandbox chaos #1") __pinvoice_reply="words:show set clear" ;;
    " sandbox webhook-signing #1") __pinvoice_reply="words:show token secret" ;;
    " logs tail --method"|" logs list --method") __pinvoice_reply="words:GET POST PUT DELETE" ;;
    " logs tail --direction"|" logs list --direction") __pinvoice_reply="words:in out tunnel" ;;
    " drift --format") __pinvoice_reply="words:text json markdown junit" ;;
    " drift --fail-on") __pinvoice_reply="words:error warning info never" ;;
    " webhooks listen --signed-with"|" webhooks verify --signed-with"|" serve company add --sign-with") __pinvoice_reply="words:secret token" ;;
    " serve --durability") __pinvoice_reply="words:process power" ;;
    " serve --metrics") __pinvoice_reply="words:on off" ;;
    " serve --memory") __pinvoice_reply="words:fast lean" ;;
    " serve --log-format") __pinvoice_reply="words:text json" ;;
    " completion #1") __pinvoice_reply="words:bash zsh fish" ;;
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
      for name in $("${COMP_WORDS[0]}" profile list --names 2>/dev/null); do
        [[ $name == "$2"* ]] && COMPREPLY+=("$name")
      done ;;
    list:*)
      [[ $2 == *,* ]] && done="${2%,*},"
      mapfile -t COMPREPLY < <(compgen -P "$done" -W "${1#list:}" -- "${2##*,}") ;;
    words:*) mapfile -t COMPREPLY < <(compgen -W "${1#words:}" -- "$2") ;;
  esac
  if [[ -n $3 ]]; then COMPREPLY=("${COMPREPLY[@]/#/$3}"); fi
}

_pinvoice() {
  local cur="${COMP_WORDS[COMP_CWORD]}" path="" flag="" prefix="" word npos=0 i
  local __pinvoice_commands __pinvoice_flags __pinvoice_reply
  COMPREPLY=()
  # the command path, how many positional arguments follow it, and whether a flag waits for its value
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
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
    flag="${cur%%=*}" prefix="${cur%%=*}=" cur="${cur#*=}"
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
