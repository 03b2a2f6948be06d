#!/usr/bin/env bash
# The README's commands on a fresh Debian 12 machine: a new bookworm root (debootstrap minbase) with only
# what the README asks a newcomer to bring — Node.js with npm, git, and the build tools native modules
# fall back to when their prebuilt binaries cannot be downloaded — then, in a clean clone of this
# repository: `npm ci && npm start` (both services answer), and `npm test` (its main project), which
# installs the system packages the tests need by itself. It runs on Node.js 24 from the npm registry (FRESH_NODE_VERSION), so the
# whole suite also runs on an LTS line other than the machine's. Prints the test summary; exits non-zero on failure.
# Needs root (chroot, mounts) and Debian's package mirror.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/scripts/ci/debian-root.sh"
. "$repo/scripts/ci/start-check.sh"
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
start_check "in_root $root" /home/app "$root/start.log"

echo "[fresh] npm test"
status=0
# The real-engine tests (their own vitest project) ran on the host: in this root a second dockerd would
# fight the host's for the same kernel's bridges and cgroups, so here `npm test` runs the main project.
in_root "$root" sh -c 'cd /home/app && npm test -- --project main' >"$root/test.log" 2>&1 || status=$?
sed 's/\x1b\[[0-9;]*m//g' "$root/test.log" | grep -E '^\s*(Test Files|Tests) ' || tail -40 "$root/test.log"
if [ "$status" -ne 0 ]; then
  sed 's/\x1b\[[0-9;]*m//g' "$root/test.log" | grep -A12 -E '^ FAIL ' | head -150
  echo "[fresh] the whole test output: $log"
fi
exit "$status"
