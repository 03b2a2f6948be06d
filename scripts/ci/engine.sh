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
# - overlay2 works on this kernel (it lists overlay in /proc/filesystems); vfs would copy every layer.
engine_socket=/var/run/docker.sock
engine_pidfile=/run/fleet-ci-dockerd.pid
engine_log=${ENGINE_LOG:-/tmp/fleet-ci-dockerd.log}
engine_started=false

engine_answers() { curl -sf --unix-socket "$engine_socket" http://localhost/_ping >/dev/null 2>&1; }

engine_start() {
  engine_answers && return 0
  if ! command -v dockerd >/dev/null; then
    echo "[engine] installing Debian's docker.io"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -o DPkg::Lock::Timeout=600 -y -qq --no-install-recommends \
      docker.io >/dev/null || return 1
  fi
  mkdir -p /etc/docker
  cat >/etc/docker/daemon.json <<'JSON'
{
  "default-ulimits": {
    "nofile": { "Name": "nofile", "Soft": 1024, "Hard": 1024 },
    "nproc": { "Name": "nproc", "Soft": 4096, "Hard": 4096 }
  },
  "iptables": false,
  "ip6tables": false,
  "storage-driver": "overlay2"
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
  echo "[engine] dockerd did not answer after ${waited}s:"
  tail -20 "$engine_log"
  engine_stop
  return 1
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
