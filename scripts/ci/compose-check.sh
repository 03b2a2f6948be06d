#!/usr/bin/env bash
# Validates compose.yaml with Debian's docker-compose (installed when missing): `config` parses it, resolves
# the anchors and variables and checks it against the Compose schema. Needs no engine.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v docker-compose >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -o DPkg::Lock::Timeout=600 -y -qq --no-install-recommends \
    docker-compose >/dev/null
fi
# It must refuse to run without a database password rather than start PostgreSQL with none.
if POSTGRES_PASSWORD= docker-compose -f compose.yaml config -q 2>/dev/null; then
  echo "compose.yaml accepted an empty POSTGRES_PASSWORD"
  exit 1
fi
POSTGRES_PASSWORD=check docker-compose -f compose.yaml config --services | sort | xargs echo "services:"
POSTGRES_PASSWORD=check docker-compose -f compose.yaml config -q
