#!/usr/bin/env bash
# Stops the server the action started, and waits until it has: it finishes requests in flight and
# closes its database on SIGTERM. Not needed at the end of a job (the runner stops what a job left
# running); for a step that must see the server gone, or `kill "$PINVOICE_SERVE_PID"` without waiting.
# The pid: the first argument, else PINVOICE_SERVE_PID (exported by the action).
set -euo pipefail

pid="${1:-${PINVOICE_SERVE_PID:-}}"
[[ "$pid" =~ ^[0-9]+$ ]] || {
  echo "::error title=pinvoice::no server to stop: give its pid, or run this after the action (it exports PINVOICE_SERVE_PID)"
  exit 1
}
# Running, and not a zombie: a server whose parent (the step's shell) is gone may wait to be reaped by a
# PID 1 that never does (in a container), and signals still reach a zombie.
alive() {
  local state=''
  kill -0 "$pid" 2>/dev/null || return 1
  if [ -r "/proc/$pid/stat" ]; then state="$(sed -e 's/^.*) //' "/proc/$pid/stat" | cut -d ' ' -f 1)"; fi
  [ "$state" != Z ]
}

if ! alive || ! kill -TERM "$pid" 2>/dev/null; then
  echo "pinvoice serve (pid $pid) is not running"
  exit 0
fi
for _ in $(seq 1 100); do
  if ! alive; then
    echo "pinvoice serve (pid $pid) stopped"
    exit 0
  fi
  sleep 0.1
done
echo "::warning title=pinvoice::pinvoice serve (pid $pid) did not stop within 10 s of SIGTERM: killed"
kill -KILL "$pid" 2>/dev/null || true
