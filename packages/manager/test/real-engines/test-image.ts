import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, copyFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What the test image declares, as the manager should read it from the registry. */
export const TEST_IMAGE = {
  httpPort: 8080,
  tcpPort: 7000,
  env: { PATH: '/bin', GREETING: 'image' },
  volume: '/data',
  /** The `User` of the non-root variant, which first writes `/data/proof` (see buildAndPush). */
  user: { uid: 1234, gid: 2345 },
};

/**
 * A root file system of busybox (Debian's busybox-static) with its applets: httpd serves `/www` on
 * 8080, where `/cgi-bin/env` prints `greeting=$GREETING`, and `nc` answers `tcp-ok` on 7000.
 */
function rootFs(): string {
  const root = mkdtempSync(join(tmpdir(), 'fleet-test-image-'));
  for (const dir of ['bin', 'www/cgi-bin', 'data', 'tmp']) mkdirSync(join(root, dir), { recursive: true });
  copyFileSync('/bin/busybox', join(root, 'bin/busybox'));
  const applets = execFileSync('/bin/busybox', ['--list'], { encoding: 'utf8' }).split('\n');
  for (const applet of applets) {
    if (applet && applet !== 'busybox') symlinkSync('busybox', join(root, 'bin', applet));
  }
  writeFileSync(join(root, 'www/index.html'), 'hello from a real engine\n');
  writeFileSync(
    join(root, 'www/cgi-bin/env'),
    // CGI output is sent as it is: the header lines end in CRLF for strict HTTP clients (Node's).
    '#!/bin/sh\nprintf "Content-Type: text/plain\\r\\n\\r\\n"\necho "greeting=$GREETING"\n',
  );
  chmodSync(join(root, 'www/cgi-bin/env'), 0o755);
  return root;
}

/**
 * Imports the image into the Docker Engine as `reference` (`env` over the usual; without the VOLUME
 * when `volume` is false; run as TEST_IMAGE.user, writing `proof` into the volume first, when
 * `nonRoot`), and pushes it.
 */
export function buildAndPush(
  reference: string,
  extraEnv: Record<string, string> = {},
  volume = true,
  nonRoot = false,
) {
  const root = rootFs();
  try {
    const env = Object.entries({ ...TEST_IMAGE.env, ...extraEnv }).map(([key, value]) => `${key}=${value}`);
    const { uid, gid } = TEST_IMAGE.user;
    const proof = nonRoot ? `id > ${TEST_IMAGE.volume}/proof; ` : '';
    const changes = [
      // A shell as PID 1 ends on SIGTERM only with a trap: stop and restart need not wait 10 s for SIGKILL.
      `CMD ["sh","-c","trap 'exit 0' TERM; ${proof}httpd -h /www -p ${TEST_IMAGE.httpPort}; nc -ll -p ${TEST_IMAGE.tcpPort} -e echo tcp-ok & wait"]`,
      ...(nonRoot ? [`USER ${uid}:${gid}`] : []),
      `EXPOSE ${TEST_IMAGE.httpPort}`,
      `EXPOSE ${TEST_IMAGE.tcpPort}`,
      `ENV ${env.join(' ')}`,
      ...(volume ? [`VOLUME ${TEST_IMAGE.volume}`] : []),
    ].flatMap((change) => ['--change', change]);
    const archive = execFileSync('tar', ['-C', root, '-c', '.'], { maxBuffer: 64 * 1024 * 1024 });
    execFileSync('docker', ['import', ...changes, '-', reference], {
      input: archive,
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    execFileSync('docker', ['push', reference], { stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    rmSync(root, { recursive: true, force: true });
    // The engines pull it from the registry, as they would any image.
    execFileSync('docker', ['rmi', reference], { stdio: 'ignore' });
  }
}

/**
 * A multi-platform index `reference`: the amd64 image and one that says it is arm64 (the same busybox,
 * with GREETING=arm64), to show which one the metadata lookup picks.
 */
export function pushIndex(reference: string, amd64: string) {
  const arm64 = `${reference}-arm64`;
  buildAndPush(arm64, { GREETING: 'arm64' });
  const manifest = (...args: string[]) =>
    execFileSync('docker', ['manifest', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  manifest('create', '--insecure', reference, amd64, arm64);
  manifest('annotate', '--arch', 'arm64', reference, arm64);
  manifest('push', '--insecure', '--purge', reference);
}
