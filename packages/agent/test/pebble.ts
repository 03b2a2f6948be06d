import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { connect, type PeerCertificate } from 'node:tls';
import { join } from 'node:path';
import { freePort } from '@app/server-kit/testing';
import { run, sleep } from '../src/apply/process.ts';

export interface Pebble {
  directoryUrl: string;
  /** The certificate Pebble's own HTTPS answers with: what the agent must trust (ACME_CA_FILE). */
  tlsCaFile: string;
  /** The root Pebble issues under, from its management API. */
  root(): Promise<string>;
  /** Makes DNS lookups of `host` fail (true) or answer 127.0.0.1 again (false): a refused challenge. */
  breakDns(host: string, broken: boolean): Promise<void>;
  /** Makes `host`'s TXT records (what DNS-01 validation reads) exactly `values`. */
  setTxt(host: string, values: string[]): Promise<void>;
  stop(): Promise<void>;
}

function httpsGet(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(text)
          : reject(new Error(`${url}: ${response.statusCode} ${text}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function postLocal(port: number, path: string, body: unknown): Promise<void> {
  return fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body: JSON.stringify(body) }).then(
    (r) => {
      if (!r.ok) throw new Error(`challtestsrv ${path}: ${r.status}`);
    },
  );
}

/**
 * Debian's Pebble with pebble-challtestsrv as its DNS (every name → 127.0.0.1), validating HTTP-01 on
 * `httpPort` (the test nginx's), issuing certificates valid for `validitySeconds`.
 */
export async function startPebble(httpPort: number, validitySeconds: number, attempt = 1): Promise<Pebble> {
  const dir = mkdtempSync(join(tmpdir(), 'pebble-'));
  const [acmePort, managementPort, dnsPort, challengePort, tlsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const tlsCaFile = join(dir, 'cert.pem');
  await run('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1'],
    ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    ...['-keyout', join(dir, 'key.pem'), '-out', tlsCaFile],
  ]);
  writeFileSync(
    join(dir, 'pebble.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: tlsCaFile,
        privateKey: join(dir, 'key.pem'),
        httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
        certificateValidityPeriod: validitySeconds,
      },
    }),
  );
  const processes: ChildProcess[] = [
    spawn(
      'pebble-challtestsrv',
      [
        ...['-management', `127.0.0.1:${challengePort}`, '-dns01', `127.0.0.1:${dnsPort}`],
        ...['-http01', '', '-https01', '', '-tlsalpn01', '', '-defaultIPv4', '127.0.0.1', '-defaultIPv6', ''],
      ],
      { stdio: 'ignore' },
    ),
    spawn('pebble', ['-config', join(dir, 'pebble.json'), '-dnsserver', `127.0.0.1:${dnsPort}`], {
      stdio: 'ignore',
      // Every validation at once, no nonce refused, a fresh authorization per order (renewals validate).
      env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
    }),
  ];
  const ca = readFileSync(tlsCaFile, 'utf8');
  const directoryUrl = `https://127.0.0.1:${acmePort}/dir`;
  for (let waited = 0; ; waited += 100) {
    const up = await Promise.all([
      httpsGet(directoryUrl, ca).then(
        () => true,
        () => false,
      ),
      fetch(`http://127.0.0.1:${challengePort}/`).then(
        () => true,
        () => false,
      ),
    ]);
    if (up.every(Boolean)) break;
    if (waited > 10_000) throw new Error('pebble or pebble-challtestsrv did not start');
    await sleep(100);
  }
  // A port taken between freePort and the bind (another test file's server) makes the process exit
  // after it first answered, and its queries would reach the other one: start again on other ports.
  await sleep(300);
  if (processes.some((child) => child.exitCode !== null || child.signalCode !== null)) {
    for (const child of processes) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    if (attempt >= 3) throw new Error('pebble or pebble-challtestsrv exited after starting, three times');
    return startPebble(httpPort, validitySeconds, attempt + 1);
  }
  return {
    directoryUrl,
    tlsCaFile,
    root: () => httpsGet(`https://127.0.0.1:${managementPort}/roots/0`, ca),
    breakDns: (host, broken) =>
      postLocal(challengePort, broken ? '/set-servfail' : '/clear-servfail', { host: `${host}.` }),
    async setTxt(host, values) {
      await postLocal(challengePort, '/clear-txt', { host: `${host}.` });
      for (const value of values) await postLocal(challengePort, '/set-txt', { host: `${host}.`, value });
    },
    async stop() {
      for (const child of processes) child.kill('SIGTERM');
      await sleep(100);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The certificate nginx presents for `host`, verified against `ca` (the handshake fails otherwise). */
export function servedCertificate(port: number, host: string, ca: string): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername: host, ca }, () => {
      resolve(socket.getPeerCertificate());
      socket.end();
    });
    socket.on('error', reject);
  });
}
