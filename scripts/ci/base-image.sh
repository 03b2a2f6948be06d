#!/usr/bin/env bash
# The offline stand-in for the official node:24-bookworm-slim image, sourced by the image scripts:
#   base_image TAG   loads TAG into the running engine: a Debian 12 minbase root with Node.js 24 and npm from
#                    the npm registry (this machine reaches no image registry), `docker import`ed. The root's
#                    tarball is cached, so only the first run builds it.
# Needs root, a running engine (engine.sh) and, the first time, Debian's mirror and the npm registry.
. "$(dirname "${BASH_SOURCE[0]}")/debian-root.sh"
base_image_cache=${BASE_IMAGE_CACHE:-/var/cache/fleet-ci/node24-bookworm-base.tar}

base_image() {
  local tag=$1
  docker image inspect "$tag" >/dev/null 2>&1 && return 0
  if [ ! -s "$base_image_cache" ]; then
    local root
    root=$(mktemp -d /tmp/base-image.XXXXXX)
    debian_root "$root" && install_node "$root" 24 || { rm -rf "$root"; return 1; }
    rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
    mkdir -p "$(dirname "$base_image_cache")"
    tar -C "$root" -cf "$base_image_cache.part" . && mv "$base_image_cache.part" "$base_image_cache"
    rm -rf "$root"
  fi
  # What the official image sets that the build relies on: node and npm on PATH, node as the command.
  docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["node"]' \
    "$base_image_cache" "$tag" >/dev/null
}
