#!/usr/bin/env bash
# A production install on the machine's Node.js: the built tree (`npm run build`; stale parts are rebuilt
# first) copied into a temporary folder with its dependencies pruned to the production ones (`npm prune
# --omit=dev` over a hard-linked copy of node_modules: the same tree `npm ci --omit=dev` makes, which
# the container image's build runs itself, without building the native modules a second time), then
# `npm start` must bring up both services with no dev dependency installed (no TypeScript, tsx, esbuild
# or Vite at run time): the manager's health and web client, the translator's API and prebuilt page
# client. Ports: MANAGER_PORT (default 3000) and TRANSLATOR_PORT (default 3100). Exits non-zero on
# failure.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
export MANAGER_PORT=${MANAGER_PORT:-3000} TRANSLATOR_PORT=${TRANSLATOR_PORT:-3100}
dir=$(mktemp -d /tmp/production-install.XXXXXX)
starter=
cleanup() {
  if [ -n "$starter" ] && kill -0 "$starter" 2>/dev/null; then
    kill -TERM -- "-$starter" # npm, start.mjs and both services
    wait "$starter" || true
    for _ in $(seq 1 50); do kill -0 -- "-$starter" 2>/dev/null && sleep 0.2; done
  fi
  rm -rf "$dir"
}
trap cleanup EXIT

node "$repo/scripts/build.mjs" --stale
echo "[production] the built tree in $dir"
# tar keeps the files' times, so the copy's build is as fresh as the original's.
tar -C "$repo" --exclude=node_modules --exclude=./.git --exclude=./data --exclude=./test-artifacts -cf - . |
  tar -C "$dir/" -xf -
(cd "$repo" && find . -path ./.git -prune -o -type d -name node_modules -prune -print) |
  while read -r modules; do cp -al "$repo/$modules" "$dir/$modules"; done
cd "$dir"
echo "[production] npm prune --omit=dev"
npm prune --omit=dev --no-audit --no-fund
for tool in typescript tsx esbuild vite; do
  if [ -e "node_modules/$tool" ]; then
    echo "[production] the dev dependency $tool was installed"
    exit 1
  fi
done

echo "[production] npm start"
DATA_DIR="$dir/data" setsid npm start >"$dir/start.log" 2>&1 &
starter=$!
status() { curl -s -o /dev/null -w '%{http_code}' "$1" || true; }
for _ in $(seq 1 120); do
  [ "$(status "http://127.0.0.1:$MANAGER_PORT/api/v1/health")" = 200 ] &&
    [ "$(status "http://127.0.0.1:$TRANSLATOR_PORT/api")" = 200 ] && break
  kill -0 "$starter" 2>/dev/null || break
  sleep 0.5
done
failed=0
for url in "http://127.0.0.1:$MANAGER_PORT/api/v1/health" "http://127.0.0.1:$MANAGER_PORT/" \
  "http://127.0.0.1:$TRANSLATOR_PORT/api" "http://127.0.0.1:$TRANSLATOR_PORT/client.js"; do
  code=$(status "$url")
  echo "[production] GET $url: $code"
  [ "$code" = 200 ] || failed=1
done
if [ "$failed" = 1 ] || grep -q 'build failed\|not built' "$dir/start.log"; then
  echo "[production] npm start did not bring both services up from the build:"
  cat "$dir/start.log"
  exit 1
fi
echo "[production] both services answer"
