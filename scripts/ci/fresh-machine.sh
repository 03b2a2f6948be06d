#!/usr/bin/env bash
# The README's commands on a fresh Debian 12 machine: a new bookworm root (debootstrap minbase) with only
# what the README asks a newcomer to bring — Node.js with npm, git, and the build tools native modules
# fall back to when their prebuilt binaries cannot be downloaded — then, in a clean clone of this
# repository: `npm ci && npm start` (both services answer), and `npm test`, which installs the system
# packages the tests need by itself. It runs on Node.js 24 from the npm registry (FRESH_NODE_VERSION), so the
# whole suite also runs on an LTS line other than the machine's. Prints the test summary; exits non-zero on failure.
# Needs root (chroot, mounts) and Debian's package mirror.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/scripts/ci/debian-root.sh"
node_version=${FRESH_NODE_VERSION:-24}
root=$(mktemp -d /tmp/fresh-machine.XXXXXX)
log=${FRESH_LOG:-/tmp/fresh-machine-test.log}
cleanup() {
  debian_root_umount
  [ -f "$root/test.log" ] && cp "$root/test.log" "$log"
  [ -n "${FRESH_KEEP:-}" ] || rm -rf "$root"
}
trap cleanup EXIT

echo "[fresh] Debian 12 root in $root"
debian_root "$root"
debian_root_mount "$root"
echo "[fresh] what a newcomer brings: git, Node.js $node_version with npm, python3, make, g++"
in_root "$root" apt-get update -qq
in_root "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  git ca-certificates python3 make g++ >/dev/null
install_node "$root" "$node_version"
echo "[fresh] $(in_root "$root" node --version)"

echo "[fresh] a clean clone"
git clone -q "$repo" "$root/home/app"

echo "[fresh] npm ci && npm start"
in_root "$root" sh -c 'cd /home/app && npm ci --no-audit --no-fund' >/dev/null
# Its own process group (job control), so stopping it stops npm, the start script and both services.
set -m
in_root "$root" sh -c 'cd /home/app && exec npm start' >"$root/start.log" 2>&1 &
starter=$!
set +m
up=false
for _ in $(seq 1 180); do
  if in_root "$root" node -e '
    Promise.all(["http://127.0.0.1:3000/api/v1/health", "http://127.0.0.1:3100/api"].map((url) => fetch(url)))
      .then((answers) => process.exit(answers.every((answer) => answer.ok) ? 0 : 1), () => process.exit(1));' 2>/dev/null; then
    up=true
    break
  fi
  sleep 1
done
kill -TERM -- -"$starter" 2>/dev/null || true
wait "$starter" || true
for _ in $(seq 1 20); do kill -0 -- -"$starter" 2>/dev/null || break; sleep 0.5; done
if kill -KILL -- -"$starter" 2>/dev/null; then echo "[fresh] npm start did not stop within 10 s of SIGTERM"; exit 1; fi
if [ "$up" != true ]; then
  echo "[fresh] npm start did not bring both services up:"
  tail -40 "$root/start.log"
  exit 1
fi
echo "[fresh] both services answered"

echo "[fresh] npm test"
status=0
in_root "$root" sh -c 'cd /home/app && npm test' >"$root/test.log" 2>&1 || status=$?
sed 's/\x1b\[[0-9;]*m//g' "$root/test.log" | grep -E '^\s*(Test Files|Tests) ' || tail -40 "$root/test.log"
if [ "$status" -ne 0 ]; then
  sed 's/\x1b\[[0-9;]*m//g' "$root/test.log" | grep -A12 -E '^ FAIL ' | head -150
  echo "[fresh] the whole test output: $log"
fi
exit "$status"
