#!/usr/bin/env bash
# The action's second step: starts `pinvoice serve` in the background on a database of its own, waits
# until it answers (its --write-env file written and /health answering), then exports what a test suite
# needs to the job (GITHUB_ENV) and to the action's outputs (GITHUB_OUTPUT). The token and the webhook
# secret are masked (::add-mask::) before anything could print them, and never printed here.
# Inputs come as INPUT_* variables (action.yml maps them); relative paths are read from the step's
# working directory. The server runs until the job ends (the runner stops what a job left running) or
# `kill "$PINVOICE_SERVE_PID"`; action/stop.sh stops it and waits for it.
set -euo pipefail

root="${GITHUB_ACTION_PATH:?run this as a step of the action: GITHUB_ACTION_PATH is not set}"

fail() {
  echo "::error title=pinvoice::$1"
  exit 1
}

port="${INPUT_PORT:-4010}"
host="${INPUT_HOST:-127.0.0.1}"
engine="${INPUT_ENGINE:-sqlite}"
seed="${INPUT_SEED:-}"
fixtures="${INPUT_FIXTURES:-}"
token="${INPUT_TOKEN:-}"
timeout="${INPUT_TIMEOUT:-60}"

[[ "$port" =~ ^[0-9]{1,5}$ ]] || fail "input port must be a port number (0 picks a free one), not \"$port\""
[[ "$timeout" =~ ^[1-9][0-9]{0,4}$ ]] || fail "input timeout must be a whole number of seconds, not \"$timeout\""
if [ -n "$token" ]; then echo "::add-mask::$token"; fi

# Everything of this server in a folder of its own, owner-only: database, env file, log, pid file.
umask 077
dir="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/pinvoice.XXXXXX")"
case "$engine" in
  sqlite) db="$dir/pinvoice.db" ;;
  memory) db=':memory:' ;;
  postgres://* | postgresql://*)
    db="$engine"
    # a password in the URL is a secret too
    password="$(node -e 'try { process.stdout.write(decodeURIComponent(new URL(process.argv[1]).password)) } catch {}' "$engine")"
    if [ -n "$password" ]; then echo "::add-mask::$password"; fi
    ;;
  *)
    # a URL of another kind may hold a password: only its scheme is repeated
    shown="$engine"
    if [[ "$engine" == *://* ]]; then shown="${engine%%://*}://…"; fi
    fail "input engine must be sqlite, memory or a postgres:// URL, not \"$shown\""
    ;;
esac

env_file="$dir/pinvoice.env"
log="$dir/serve.log"
args=(serve --host "$host" --port "$port" --write-env "$env_file")
if [ -n "$seed" ]; then args+=(--seed "$seed"); fi
if [ -n "$fixtures" ]; then
  [ -f "$fixtures" ] || fail "input fixtures: no file $fixtures (read from $(pwd))"
  args+=(--fixtures "$(cd "$(dirname "$fixtures")" && pwd)/$(basename "$fixtures")")
fi
# more flags, split on whitespace (never evaluated: no expansion, no command substitution)
read -r -a extra <<<"${INPUT_ARGS:-}"
args+=(${extra[@]+"${extra[@]}"})

# The database and token through the environment, not the command line: a URL's password and the
# token stay out of the process list. stdout, stderr and stdin away from the step's: the runner would
# otherwise wait for the server to close them before it ends the step.
if [ -n "$token" ]; then export PINVOICE_SERVE_TOKEN="$token"; fi
PINVOICE_DB="$db" PINVOICE_DATA_DIR="$dir/data" nohup node "$root/bin/pinvoice.js" "${args[@]}" >"$log" 2>&1 </dev/null &
pid=$!
echo "$pid" >"$dir/serve.pid"

# The value of NAME in the env file: NAME=value, or NAME='value' (src/base/env-file.ts).
value() {
  local line
  line="$(grep -m 1 "^$1=" "$env_file" 2>/dev/null || true)"
  line="${line#*=}"
  if [[ "$line" == \'*\' ]]; then line="${line:1:${#line}-2}"; fi
  printf '%s' "$line"
}

# The log, for a start that failed; tokens and secrets in it (a first start announces its token) hidden.
show_log() {
  echo "pinvoice serve's log ($log):"
  sed -E 's/(pinv_[A-Za-z0-9]+_|whsec_)[A-Za-z0-9_]+/\1[hidden]/g' "$log" || true
}

answers() {
  local url
  [ -s "$env_file" ] || return 1
  url="$(value PINVOICE_BASE_URL)"
  [ -n "$url" ] || return 1
  node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(2000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url/health"
}

deadline=$((SECONDS + timeout))
until answers; do
  if ! kill -0 "$pid" 2>/dev/null; then
    code=0
    wait "$pid" || code=$?
    show_log
    fail "pinvoice serve stopped (exit code $code) before it answered: its log is above"
  fi
  if ((SECONDS >= deadline)); then
    kill "$pid" 2>/dev/null || true
    show_log
    fail "pinvoice serve did not answer within ${timeout}s: its log is above (input timeout waits longer)"
  fi
  sleep 0.2
done

url="$(value PINVOICE_BASE_URL)"
known="$(value PINVOICE_TOKEN)"
if [ -z "$known" ]; then known="$token"; fi
secret="$(value PINVOICE_WEBHOOK_SECRET)"
if [ -n "$known" ]; then echo "::add-mask::$known"; fi
if [ -n "$secret" ]; then echo "::add-mask::$secret"; fi
if [ -z "$known" ]; then
  echo "::warning title=pinvoice::PINVOICE_TOKEN is not known: the database already had its company; give the action a token input"
fi

vars=("PINVOICE_BASE_URL=$url" "PINVOICE_SERVE_PID=$pid" "PINVOICE_SERVE_LOG=$log")
if [ -n "$known" ]; then vars+=("PINVOICE_TOKEN=$known"); fi
if [ -n "$secret" ]; then vars+=("PINVOICE_WEBHOOK_SECRET=$secret"); fi
if [ -n "${GITHUB_ENV:-}" ]; then printf '%s\n' "${vars[@]}" >>"$GITHUB_ENV"; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  printf '%s\n' "base-url=$url" "token=$known" "webhook-secret=$secret" "env-file=$env_file" "pid=$pid" "log=$log" >>"$GITHUB_OUTPUT"
fi
echo "pinvoice serve is listening on $url (pid $pid; log $log)"
