#!/usr/bin/env bash
# The site agent's Debian package on a fresh Debian 12 (debootstrap minbase): builds it (and the Node.js
# runtime package, since Debian 12's nodejs is 18), installs both with apt-get, which brings nginx and
# dnsmasq from Debian's mirror, then checks `site-agent --help`, a dry run from a saved snapshot (printed,
# nothing written), `systemd-analyze verify` of the installed units, and that a purge leaves no files.
# Needs root (chroot, mounts) and Debian's package mirror.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/scripts/ci/debian-root.sh"
root=$(mktemp -d /tmp/agent-package.XXXXXX)
cleanup() {
  debian_root_umount_under "$root"
  rm -rf "$root"
}
trap cleanup EXIT
fail() {
  echo "[agent-package] FAILED: $*"
  exit 1
}

echo "[agent-package] building the packages"
mapfile -t debs < <("$repo/scripts/ci/build-agent-deb.sh" "$root/tmp/debs" --with-node)
echo "[agent-package] Debian 12 root in $root"
debian_root "$root"
debian_root_mount "$root"
# A package's maintainer scripts must not start nginx or dnsmasq on this machine's ports.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d" && chmod 755 "$root/usr/sbin/policy-rc.d"
in_root "$root" apt-get update -qq
# systemd only for systemd-analyze: it does not run in the root (the maintainer scripts must cope).
in_root "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "${debs[@]#"$root"}" systemd >"$root/tmp/apt.log" 2>&1 || {
  tail -30 "$root/tmp/apt.log"
  fail "apt-get install"
}
in_root "$root" dpkg -s site-agent site-agent-node nginx dnsmasq | grep -E '^(Package|Status|Version):'

echo "[agent-package] site-agent --help"
in_root "$root" site-agent --help | grep -q 'dry-run' || fail "--help does not list the commands"
[ "$(stat -c %a "$root/etc/site-agent/env")" = 600 ] || fail "/etc/site-agent/env is not 0600"

echo "[agent-package] site-agent dry-run"
cat >"$root/tmp/snapshot.json" <<'JSON'
{"data":{"site":{"id":1,"name":"Site","internalDomain":"site.test","dhcpRange":"10.99.0.100-10.99.0.200",
"subnetMask":"255.255.255.0","gateway":"10.99.0.1","dnsForwarders":"10.99.0.1","externalIp":null,
"nodes":[{"name":"pve1","ipv4Address":"10.99.0.2"}],
"containers":[{"id":1,"hostname":"web1","ipv4Address":"10.99.0.101","macAddress":"02:00:0A:63:00:65"}],
"dnsRecords":[]},"proxy":{"httpServices":[{"serviceId":1,"host":"app.example.test","domain":"example.test",
"backendScheme":"http","address":"10.99.0.101","port":8080,"authRequired":false,"authServer":null}],
"streamServices":[],"externalDomains":[{"name":"example.test"}],"volumes":[]}}}
JSON
in_root "$root" site-agent dry-run /tmp/snapshot.json >"$root/tmp/dry-run.out" || fail "dry-run"
for expected in '# /etc/nginx/conf.d/site-agent.conf' 'server_name app.example.test;' \
  'proxy_pass http://10.99.0.101:8080;' '02:00:0a:63:00:65,10.99.0.101,web1'; do
  grep -qF "$expected" "$root/tmp/dry-run.out" || fail "the dry run did not print: $expected"
done
for written in /etc/nginx/conf.d/site-agent.conf /etc/dnsmasq.d/site-agent.conf /var/lib/site-agent/hosts; do
  [ ! -e "$root$written" ] || fail "the dry run wrote $written"
done
echo "[agent-package] the dry run printed the configuration and wrote nothing"

echo "[agent-package] systemd-analyze verify"
verify=$(in_root "$root" systemd-analyze verify site-agent.service site-agent.timer site-agent-traffic.service 2>&1) ||
  true
[ -z "$verify" ] || fail "systemd-analyze verify: $verify"

echo "[agent-package] purge"
in_root "$root" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq site-agent >/dev/null
for gone in /usr/bin/site-agent /etc/site-agent/env /lib/systemd/system/site-agent.service; do
  [ ! -e "$root$gone" ] || fail "$gone is left after a purge"
done
echo "[agent-package] passed"
