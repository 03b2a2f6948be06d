#!/usr/bin/env bash
# The README's commands on a fresh Debian 12 machine, exactly as written: a new bookworm root (debootstrap
# minbase) with only what the README asks a newcomer to bring — Node.js with npm, git, and the build
# tools native modules fall back to when their prebuilt binaries cannot be downloaded (no curl) — whose
# / is an overlay, as in a container or on a CI runner (so dockerd cannot use overlay2 there). In a clean
# clone: `npm ci && npm start` (both services answer), then `npm test` (with CI=true, as a CI runner sets
# it), which installs the system packages the tests need and starts the real engines by itself.
#
# This is CI's SQLite pass, on Node.js 24 from the npm registry (FRESH_NODE_VERSION): the whole suite,
# the real-engine tests included, runs once here and not again on the host (which runs the PostgreSQL
# pass on the machine's Node.js). FRESH_REPORT names where the run's JSON report is copied;
# FRESH_TEST_ARGS (empty in CI) passes arguments to that `npm test`, to try one part of it by hand.
# In two halves, so that CI can make the machine (and try its `npm start`) while it runs its own checks,
# and give the processors to nothing but `npm test`:
#   fresh-machine.sh prepare DIR   the root in DIR, what a newcomer brings, a clean clone, `npm ci` and
#                                  `npm start` (both services answer, on the README's ports)
#   fresh-machine.sh test DIR      `npm test`; removes DIR
#   fresh-machine.sh               both, in a temporary DIR
# Needs root (chroot, mounts) and Debian's package mirror.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/scripts/ci/debian-root.sh"
. "$repo/scripts/ci/start-check.sh"
node_version=${FRESH_NODE_VERSION:-24}
log=${FRESH_LOG:-/tmp/fresh-machine-test.log}
report=${FRESH_REPORT:-}

prepare() {
  local base=$1 root=$1/root
  echo "[fresh] Debian 12 root in $root, on an overlay file system"
  debian_root "$base/lower"
  debian_root_overlay "$base/lower" "$root"
  debian_root_mount "$root"
  debian_root_caches "$root"
  echo "[fresh] what a newcomer brings: git, Node.js $node_version with npm, python3, make, g++"
  in_root "$root" apt-get update -qq
  in_root "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    git ca-certificates python3 make g++ >/dev/null
  install_node "$root" "$node_version"
  echo "[fresh] $(in_root "$root" node --version)"
  echo "[fresh] a clean clone"
  git clone -q "$repo" "$root/home/app"
  echo "[fresh] npm ci"
  in_root "$root" sh -c 'cd /home/app && npm ci --no-audit --no-fund' >/dev/null
  echo "[fresh] npm start"
  start_check "in_root $root" /home/app "$root/start.log"
  echo "[fresh] made in $SECONDS s"
}

# What the tests left running (nginx, dnsmasq, PostgreSQL, dockerd) ended with their PID namespace.
cleanup() {
  local base=$1 root=$1/root
  [ -f "$root/home/app/test.log" ] && cp "$root/home/app/test.log" "$log"
  debian_root_umount_under "$base"
  [ -n "${FRESH_KEEP:-}" ] || rm -rf "$base"
}

run_tests() {
  local base=$1 root=$1/root status=0
  echo "[fresh] npm test"
  in_root "$root" env CI=true TEST_REPORT_DIR=/home/app/test-results sh -c "cd /home/app && npm test ${FRESH_TEST_ARGS:+-- $FRESH_TEST_ARGS}" \
    >"$root/home/app/test.log" 2>&1 || status=$?
  [ -z "$report" ] || cp "$root/home/app/test-results/vitest-sqlite.json" "$report" 2>/dev/null || true
  sed 's/\x1b\[[0-9;]*m//g' "$root/home/app/test.log" | grep -E '^\[(engine|test)\]|^\s*(Test Files|Tests|Duration) ' ||
    tail -40 "$root/home/app/test.log"
  if [ "$status" -ne 0 ]; then
    sed 's/\x1b\[[0-9;]*m//g' "$root/home/app/test.log" | grep -A12 -E '^ FAIL ' | head -150
    echo "[fresh] the whole test output: $log"
  fi
  return "$status"
}

case ${1:-} in
  prepare)
    # A failed half-made machine is taken down at once; a made one waits for `test`.
    trap 'status=$?; [ "$status" -eq 0 ] || cleanup "$2"' EXIT
    mkdir -p "$2"
    prepare "$2"
    ;;
  test)
    trap 'cleanup "$2"' EXIT
    run_tests "$2"
    ;;
  "")
    base=$(mktemp -d /tmp/fresh-machine.XXXXXX)
    trap 'cleanup "$base"' EXIT
    prepare "$base"
    run_tests "$base"
    ;;
  *)
    echo "usage: $0 [prepare DIR | test DIR]" >&2
    exit 2
    ;;
esac
