#!/usr/bin/env bash
# The project on a Node.js line other than the machine's (`node-line.sh 26`; default 26, the newest LTS),
# taken from the npm registry's binary package: a clean clone's `npm ci` (native modules built against
# that Node.js's headers), `npm start` (both services answer), and the tests that load the native modules
# (SQLite, argon2) and start the services. The whole suite runs on a second line in fresh-machine.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/scripts/ci/debian-root.sh"
. "$repo/scripts/ci/start-check.sh"
version=${1:-26}
work=$(mktemp -d /tmp/node-line.XXXXXX)
trap 'rm -rf "$work"' EXIT

install_node "$work" "$version"
export PATH="$work/usr/local/bin:$PATH" npm_config_nodedir="$work/usr/local"
echo "[node $version] $(node --version): npm ci in a clean clone"
git clone -q "$repo" "$work/app"
cd "$work/app"
npm ci --no-audit --no-fund >/dev/null
# On ports of its own: CI runs it beside the production install's `npm start`.
MANAGER_PORT=3200 TRANSLATOR_PORT=3300 start_check env "$work/app" "$work/start.log"
npm test -- packages/server-kit packages/manager/test/process.test.ts packages/manager/test/auth.test.ts \
  packages/translator/test/main.test.ts packages/translator/test/project.test.ts
