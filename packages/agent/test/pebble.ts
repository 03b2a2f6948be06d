import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Resolver } from 'node:dns/promises';
import { once } from 'node:events';
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

/** What challtestsrv's DNS answers for `host`: its A records, or the resolver's error code. */
function lookUp(dnsPort: number, host: string): Promise<string> {
  const resolver = new Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([`127.0.0.1:${dnsPort}`]);
  return resolver.resolve4(host).then(
    (addresses) => addresses.join(','),
    (error: NodeJS.ErrnoException) => error.code ?? String(error),
  );
}

/** A child whose exit is remembered with the end of what it wrote to stderr, for the error that names it. */
function watched(child: ChildProcess, name: string): () => string | null {
  let tail = '';
  let exit: string | null = null;
  child.stderr?.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-2000)));
  child.on('exit', (code, signal) => (exit = `${name} exited (${signal ?? code}): ${tail.trim()}`));
  return () => exit;
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
  const challtestsrv = spawn(
    'pebble-challtestsrv',
    [
      ...['-management', `127.0.0.1:${challengePort}`, '-dns01', `127.0.0.1:${dnsPort}`],
      ...['-http01', '', '-https01', '', '-tlsalpn01', '', '-defaultIPv4', '127.0.0.1', '-defaultIPv6', ''],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const pebble = spawn(
    'pebble',
    ['-config', join(dir, 'pebble.json'), '-dnsserver', `127.0.0.1:${dnsPort}`],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      // Every validation at once, no nonce refused, a fresh authorization per order (renewals validate).
      env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
    },
  );
  const processes = [challtestsrv, pebble];
  const exits = [watched(challtestsrv, 'pebble-challtestsrv'), watched(pebble, 'pebble')];
  const exited = () => exits.map((exit) => exit()).find((message) => message !== null) ?? null;
  const stop = async () => {
    const ended = processes.map((child) =>
      child.exitCode !== null || child.signalCode !== null ? null : once(child, 'exit'),
    );
    for (const child of processes) child.kill('SIGTERM');
    await Promise.all(ended);
    rmSync(dir, { recursive: true, force: true });
  };
  const ca = readFileSync(tlsCaFile, 'utf8');
  const directoryUrl = `https://127.0.0.1:${acmePort}/dir`;
  // Ready when Pebble's directory answers and the DNS port is challtestsrv's (every name → 127.0.0.1).
  // A port taken between freePort and the bind by another file's server makes a child exit, or would
  // leave Pebble's lookups to that other server: start again on other ports.
  const probe = `ready-${process.pid}-${attempt}.test`;
  let ready = false;
  for (let waited = 0; !ready && exited() === null && waited <= 10_000; waited += 100) {
    const [directory, dns] = await Promise.all([
      httpsGet(directoryUrl, ca).then(
        () => true,
        () => false,
      ),
      lookUp(dnsPort, probe),
    ]);
    ready = directory && dns === '127.0.0.1';
    if (!ready) await sleep(100);
  }
  if (!ready || exited() !== null) {
    const reason = exited() ?? 'pebble or pebble-challtestsrv did not answer in 10 s';
    await stop();
    if (attempt >= 3) throw new Error(`pebble did not start, three times: ${reason}`);
    return startPebble(httpPort, validitySeconds, attempt + 1);
  }
  const alive = () => {
    const exit = exited();
    if (exit !== null) throw new Error(exit);
  };
  // What a test sets in challtestsrv must be what Pebble's lookups then see.
  const expectAnswer = async (host: string, expected: string) => {
    const answer = await lookUp(dnsPort, host);
    if (answer !== expected) throw new Error(`challtestsrv answers ${answer} for ${host}, not ${expected}`);
  };
  return {
    directoryUrl,
    tlsCaFile,
    root: () => {
      alive();
      return httpsGet(`https://127.0.0.1:${managementPort}/roots/0`, ca);
    },
    async breakDns(host, broken) {
      alive();
      await postLocal(challengePort, broken ? '/set-servfail' : '/clear-servfail', { host: `${host}.` });
      await expectAnswer(host, broken ? 'ESERVFAIL' : '127.0.0.1');
    },
    async setTxt(host, values) {
      alive();
      await postLocal(challengePort, '/clear-txt', { host: `${host}.` });
      for (const value of values) await postLocal(challengePort, '/set-txt', { host: `${host}.`, value });
    },
    stop,
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
