#!/usr/bin/env bash
# The container image on a real Docker Engine: builds it once from the Containerfile on a base made offline
# (base-image.sh), runs the manager, a job worker and the translator from it against a fresh database on
# this machine's PostgreSQL, waits for the image's own health check, makes a real API call to each
# service, checks that they run as the image's non-root user and stop cleanly, and removes what it made.
# Needs root, Debian's package mirror and the npm registry the first time; PostgreSQL on 127.0.0.1:5432.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/scripts/ci/engine.sh"
. "$repo/scripts/ci/base-image.sh"
pg_admin_url=${TEST_PG_URL:-postgres://root@127.0.0.1:5432/test}
base=fleet-ci/node:24-bookworm
image=fleet-ci/app:smoke
# One database per service, as in production (each keeps its own migrations).
databases=("image_smoke_manager_$$" "image_smoke_translator_$$")
containers=()

cleanup() {
  local container
  for container in "${containers[@]}"; do docker rm -f -v "$container" >/dev/null 2>&1 || true; done
  for database in "${databases[@]}"; do
    psql -q "$pg_admin_url" -c "DROP DATABASE IF EXISTS $database" >/dev/null 2>&1 || true
  done
  engine_stop
}
trap cleanup EXIT
fail() {
  echo "[image] FAILED: $*"
  local container
  for container in "${containers[@]}"; do
    echo "--- $container"
    docker logs --tail 30 "$container" 2>&1 || true
  done
  exit 1
}
free_port() { node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

engine_start
base_image "$base"
echo "[image] building $image from $base"
# Host networking: with the engine's iptables off (engine.sh), the build reaches npm and Debian's mirror
# only through the host's own network.
started=$SECONDS
build_log=$(mktemp /tmp/image-build.XXXXXX.log)
docker build --network host --build-arg "BASE_IMAGE=$base" -t "$image" -f "$repo/Containerfile" "$repo" \
  >"$build_log" 2>&1 || {
  tail -40 "$build_log"
  fail "docker build (the whole output: $build_log)"
}
rm -f "$build_log"
echo "[image] built in $((SECONDS - started)) s, $(docker image inspect -f '{{.Size}}' "$image" | numfmt --to=iec)"

for database in "${databases[@]}"; do psql -q "$pg_admin_url" -c "CREATE DATABASE $database" >/dev/null; done
manager_port=$(free_port)
translator_port=$(free_port)
# Each service runs as it would in production, on the host's network so 127.0.0.1 is the host's
# PostgreSQL; a short health interval so the image's health check answers within seconds.
run() {
  local name=$1
  shift
  containers+=("$name")
  docker run -d --name "$name" --network host --health-interval 2s --health-start-period 60s \
    -e "MANAGER_PORT=$manager_port" -e "TRANSLATOR_PORT=$translator_port" \
    -e "MANAGER_DATABASE_URL=${pg_admin_url%/*}/${databases[0]}" \
    -e "TRANSLATOR_DATABASE_URL=${pg_admin_url%/*}/${databases[1]}" \
    -e "PUBLIC_URL=http://127.0.0.1:$manager_port" -e TRANSLATOR_SEO_ORIGIN_ALLOWLIST=127.0.0.1 \
    "$image" "$@" >/dev/null
}
run "smoke-manager-$$" manager --role api
run "smoke-worker-$$" worker
run "smoke-translator-$$" translator

for container in "${containers[@]}"; do
  status=starting
  for _ in $(seq 1 90); do
    status=$(docker inspect -f '{{.State.Health.Status}}' "$container")
    [ "$status" = starting ] || break
    sleep 1
  done
  [ "$status" = healthy ] || fail "$container is $status"
  uid=$(docker exec "$container" sh -c 'awk "/^Uid:/ {print \$2}" /proc/1/status')
  [ "$uid" != 0 ] || fail "$container runs as root"
  echo "[image] $container: healthy, uid $uid ($(docker exec "$container" id -un))"
done

node "$repo/scripts/ci/image-smoke-api.mjs" manager "http://127.0.0.1:$manager_port" || fail "manager API"
key=$(docker exec "smoke-translator-$$" /app/packaging/container/entrypoint.sh translator project create --name smoke |
  sed -n 's/^API key: //p')
[ -n "$key" ] || fail "translator project create printed no key"
node "$repo/scripts/ci/image-smoke-api.mjs" translator "http://127.0.0.1:$translator_port" "$key" || fail "translator API"
# `docker stop` sends SIGTERM to the service itself (the entrypoint execs it): each shuts down cleanly.
for container in "${containers[@]}"; do
  docker stop -t 20 "$container" >/dev/null
  code=$(docker inspect -f '{{.State.ExitCode}}' "$container")
  [ "$code" = 0 ] || fail "$container exited with $code on SIGTERM"
done
echo "[image] all three stopped cleanly on SIGTERM"
echo "[image] passed"
