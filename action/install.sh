#!/usr/bin/env bash
# The action's first step: builds pinvoice from the action's own checkout ($GITHUB_ACTION_PATH, the
# version the workflow pinned with `uses: …@ref`) and puts a `pinvoice` command on the job's PATH.
# Built from that checkout rather than installed from a registry: the server is exactly the code of
# the ref, with nothing to publish first; rather than `npm install -g <folder>`, which links the folder
# without building it and needs a writable global prefix (not given on self-hosted runners).
set -euo pipefail

root="${GITHUB_ACTION_PATH:?run this as a step of the action: GITHUB_ACTION_PATH is not set}"

fail() {
  echo "::error title=pinvoice::$1"
  exit 1
}

command -v node >/dev/null 2>&1 || fail 'pinvoice needs Node.js 20.19 or later, and node is not on the PATH: add actions/setup-node before this action'
# the engines field of package.json, said before npm would say it less clearly
node -e 'const [major, minor] = process.versions.node.split(".").map(Number); process.exit(major > 20 || (major === 20 && minor >= 19) ? 0 : 1)' ||
  fail "pinvoice needs Node.js 20.19 or later, not $(node --version): add actions/setup-node (node-version: 20 or later) before this action"

# Built already: a second use of the action in the same job, or a checkout that was built by hand.
if [ -f "$root/dist/main.js" ] && [ -d "$root/node_modules" ]; then
  echo "pinvoice is built in $root"
else
  echo "Installing pinvoice's dependencies and building it in $root"
  # npm ci runs the package's prepare script, the TypeScript build; built again only if scripts were off
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
  [ -f "$root/dist/main.js" ] || (cd "$root" && npm run build)
fi

# A `pinvoice` command for the job's later steps (bin/pinvoice.js is named for npm's bin links, not for PATH).
bin="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/pinvoice-bin"
mkdir -p "$bin"
printf '#!/usr/bin/env bash\nexec node %q "$@"\n' "$root/bin/pinvoice.js" >"$bin/pinvoice"
chmod +x "$bin/pinvoice"
if [ -n "${GITHUB_PATH:-}" ]; then echo "$bin" >>"$GITHUB_PATH"; fi
echo "pinvoice $("$bin/pinvoice" --version) is the command pinvoice from the next step on"
