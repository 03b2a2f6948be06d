// Runs before `npm test`: the tests drive real programs (nginx, dnsmasq, Chromium, a PostgreSQL server of
// their own, and in the SQLite pass a real Docker Engine, Podman and registry). Each missing one is installed from Debian's packages when we are root on a Debian-like
// system; otherwise this stops at once with the exact command to run, instead of a wall of ENOENT
// failures later.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const onPath = (program) =>
  [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin'].some((dir) =>
    existsSync(join(dir, program)),
  );
const postgresServer = () =>
  existsSync('/usr/lib/postgresql') &&
  readdirSync('/usr/lib/postgresql').some((version) =>
    existsSync(`/usr/lib/postgresql/${version}/bin/initdb`),
  );

// The test image's root file system is busybox alone: it must need no shared libraries (no ELF
// interpreter section).
const isStatic = (file) => !readFileSync(file).includes('.interp');

/** Debian package → whether what the tests use from it is here. */
export const NEEDED = [
  { pkg: 'nginx', have: () => onPath('nginx') },
  { pkg: 'libnginx-mod-stream', have: () => existsSync('/usr/lib/nginx/modules/ngx_stream_module.so') },
  { pkg: 'dnsmasq', have: () => onPath('dnsmasq') },
  { pkg: 'chromium', have: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') },
  { pkg: 'postgresql', have: postgresServer },
  // The real-engine tests (packages/manager/test/real-engines): their global setup starts what is needed.
  { pkg: 'docker.io', have: () => onPath('dockerd') },
  { pkg: 'podman', have: () => onPath('podman') },
  { pkg: 'runc', have: () => onPath('runc') },
  { pkg: 'docker-registry', have: () => onPath('docker-registry') },
  // The ACME tests (packages/agent/test/acme*.test.ts): a real ACME server.
  { pkg: 'pebble', have: () => onPath('pebble') },
  // The translator's file-format tests check exported PO with msgfmt and XLIFF against the OASIS schemas.
  { pkg: 'gettext', have: () => onPath('msgfmt') },
  { pkg: 'libxml2-utils', have: () => onPath('xmllint') },
  { pkg: 'busybox-static', have: () => existsSync('/bin/busybox') && isStatic('/bin/busybox') },
];

const missing = NEEDED.filter((need) => !need.have()).map((need) => need.pkg);
if (missing.length) {
  const command = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  const canInstall = process.getuid?.() === 0 && onPath('apt-get');
  if (!canInstall) {
    console.error(`The tests need these system packages, which are missing: ${missing.join(', ')}.`);
    console.error(`Install them as root, then run the tests again:\n\n  ${command}\n`);
    process.exit(1);
  }
  console.log(`[test] installing missing system packages: ${missing.join(' ')}`);
  // Package scripts must not start nginx, dnsmasq, PostgreSQL or dockerd as system services: the tests
  // run their own.
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  // Another apt run (a package upgrade, a second checkout's tests) holds the lock for a while: wait for it.
  const apt = (args) =>
    spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  const installed =
    apt(['update', '-qq']).status === 0 &&
    apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]).status === 0;
  if (ownPolicy) rmSync(policy, { force: true });
  const still = NEEDED.filter((need) => !need.have()).map((need) => need.pkg);
  if (!installed || still.length) {
    console.error(
      `Installing ${still.join(', ') || missing.join(', ')} failed. Run it by hand and try again:\n\n  ${command}\n`,
    );
    process.exit(1);
  }
}
