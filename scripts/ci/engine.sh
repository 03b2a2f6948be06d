#!/usr/bin/env bash
# A real Docker Engine for CI, sourced by the scripts that need one (or run as `engine.sh start|stop`):
#   engine_start   uses the engine already answering on /var/run/docker.sock; otherwise installs Debian's
#                  docker.io when dockerd is missing, writes /etc/docker/daemon.json and starts dockerd
#   engine_stop    stops dockerd only when this shell's engine_start started it (`engine.sh stop`: when an
#                  `engine.sh start` did, as its pid file says)
# Needs root and Debian's package mirror (the first time).
#
# What this sandbox needs, found by trying:
# - It cannot raise resource limits, and dockerd gives containers its own high nofile/nproc limits by
#   default, so runc fails to start any container; lowered default-ulimits (nofile 1024, nproc 4096) fix it.
# - The engine leaves the host's firewall alone (iptables off): the machine is shared, and a dockerd that
#   rewrites its rules would change what every other process here can reach. Containers on the default
#   bridge then have no way out, so builds and the smoke test use `--network host`.
# - overlay2 needs a kernel overlay under /var/lib/docker that is not itself on an overlay (a container, a
#   CI runner, the fresh-machine root): there dockerd fails with "failed to mount overlay: invalid
#   argument … driver not supported". engine_storage_driver picks fuse-overlayfs (from Debian, when
#   /dev/fuse exists), else vfs (which copies every layer: slow but works everywhere), and says so.
# - Nothing here needs curl (a minimal Debian has none): the socket is asked from Node.js.
engine_socket=/var/run/docker.sock
engine_pidfile=/run/fleet-ci-dockerd.pid
engine_log=${ENGINE_LOG:-/tmp/fleet-ci-dockerd.log}
engine_started=false

engine_answers() {
  [ -S "$engine_socket" ] || return 1
  node -e '
    const request = require("node:http").request({ socketPath: process.argv[1], path: "/_ping", timeout: 2000 },
      (reply) => process.exit(reply.statusCode === 200 ? 0 : 1));
    request.on("error", () => process.exit(1)).on("timeout", () => process.exit(1)).end();' "$engine_socket"
}

engine_apt_install() {
  { apt-get install -o DPkg::Lock::Timeout=600 -y -qq --no-install-recommends "$@" >/dev/null 2>&1 ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -o DPkg::Lock::Timeout=600 -y -qq \
      --no-install-recommends "$@" >/dev/null; }; }
}

# The file system type that will hold /var/lib/docker (its nearest existing folder).
engine_data_fs() {
  local dir=/var/lib/docker
  while [ ! -d "$dir" ]; do dir=$(dirname "$dir"); done
  stat -f -c %T "$dir"
}

# overlay2 where the kernel can stack it; otherwise fuse-overlayfs, else vfs.
engine_storage_driver() {
  local fs
  fs=$(engine_data_fs)
  if [ "$fs" != overlayfs ] && grep -qw overlay /proc/filesystems; then
    echo overlay2
    return
  fi
  if [ -c /dev/fuse ] && { command -v fuse-overlayfs >/dev/null || DEBIAN_FRONTEND=noninteractive engine_apt_install fuse-overlayfs; }; then
    echo "[engine] /var/lib/docker is on $fs, where overlay2 cannot mount: using fuse-overlayfs" >&2
    echo fuse-overlayfs
    return
  fi
  echo "[engine] /var/lib/docker is on $fs, where overlay2 cannot mount, and fuse-overlayfs cannot run (no /dev/fuse): using vfs, which copies every layer" >&2
  echo vfs
}

engine_start() {
  engine_answers && return 0
  if ! command -v dockerd >/dev/null; then
    echo "[engine] installing Debian's docker.io"
    DEBIAN_FRONTEND=noninteractive engine_apt_install docker.io || {
      engine_cannot_start "installing Debian's docker.io failed" "apt-get install -y --no-install-recommends docker.io"
      return 1
    }
  fi
  local driver
  driver=$(engine_storage_driver)
  mkdir -p /etc/docker
  cat >/etc/docker/daemon.json <<JSON
{
  "default-ulimits": {
    "nofile": { "Name": "nofile", "Soft": 1024, "Hard": 1024 },
    "nproc": { "Name": "nproc", "Soft": 4096, "Hard": 4096 }
  },
  "iptables": false,
  "ip6tables": false,
  "storage-driver": "$driver"
}
JSON
  echo "[engine] starting dockerd (log: $engine_log)"
  dockerd >"$engine_log" 2>&1 &
  echo $! >"$engine_pidfile"
  engine_started=true
  local waited
  for waited in $(seq 1 60); do
    engine_answers && return 0
    kill -0 "$(cat "$engine_pidfile")" 2>/dev/null || break
    sleep 1
  done
  engine_stop
  engine_cannot_start "dockerd did not answer after ${waited}s ($(grep -m1 -iE 'failed to start|level=(fatal|error)' "$engine_log" | tail -c 300 || true))" \
    "dockerd --debug   # as root, to see why; its log: $engine_log"
  return 1
}

# Says at once why no engine runs and what fixes it (the real-engine tests stop on it, not one by one).
engine_cannot_start() {
  echo "[engine] no Docker Engine can be started here: $1" >&2
  echo "[engine] fix it with:  $2" >&2
  echo "[engine] or run the tests without the real engines:  npm test -- --project unit --project main" >&2
}

engine_stop() {
  [ "$engine_started" = true ] && [ -f "$engine_pidfile" ] || return 0
  local pid
  pid=$(cat "$engine_pidfile")
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  rm -f "$engine_pidfile"
  engine_started=false
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-}" in
  start) engine_start ;;
  stop) engine_started=true engine_stop ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
  esac
fi
